// scontrol's _update_job_size: after `update JobId=N NumNodes=M`, run inside a job (SLURM_JOBID
// set), it writes slurm_job_N_resize.sh and .csh in the current directory, resetting the job's
// variables that are set in its environment, and says how to use them.
import { chmodSync, rmSync, writeFileSync } from 'node:fs';
import type { ResizedAllocation } from '../../protocol/ctld-answers.js';

/** Writes the two files and returns scontrol's lines; nothing outside a job. */
export function writeResizeFiles(alloc: ResizedAllocation, env: NodeJS.ProcessEnv = process.env): string[] {
  if (env.SLURM_JOBID === undefined) return [];
  const sh: string[] = [];
  const csh: string[] = [];
  const set = (name: string, value: string, quoted: boolean): void => {
    if (env[name] === undefined) return;
    const text = quoted ? `"${value}"` : value;
    sh.push(`export ${name}=${text}`);
    csh.push(`setenv ${name} ${text}`);
  };
  set('SLURM_NODELIST', alloc.nodeList, true);
  set('SLURM_JOB_NODELIST', alloc.nodeList, true);
  set('SLURM_NNODES', String(alloc.nodeCount), false);
  set('SLURM_JOB_NUM_NODES', String(alloc.nodeCount), false);
  set('SLURM_JOB_CPUS_PER_NODE', alloc.cpusPerNode, true);
  // Slurm cannot recompute the task counts, so it drops them.
  if (env.SLURM_TASKS_PER_NODE !== undefined) {
    for (const name of ['SLURM_NPROCS', 'SLURM_NTASKS', 'SLURM_TASKS_PER_NODE']) {
      sh.push(`unset ${name}`);
      csh.push(`unsetenv ${name}`);
    }
  }
  const shName = `slurm_job_${alloc.jobId}_resize.sh`;
  const cshName = `slurm_job_${alloc.jobId}_resize.csh`;
  for (const [name, lines] of [[cshName, csh], [shName, sh]] as const) {
    rmSync(name, { force: true });
    writeFileSync(name, lines.map((line) => `${line}\n`).join(''), { mode: 0o700 });
    chmodSync(name, 0o700);
  }
  return [
    'To reset Slurm environment variables, execute',
    `  For bash or sh shells:  . ./${shName}`,
    `  For csh shells:         source ./${cshName}`,
  ];
}
