// srun's --prolog and --epilog: programs srun itself runs on the submit host, before the
// step launches and after it ends, with the job's and step's ids in their environment and
// their output on srun's (observed on srun 22.05, /work/ref/srun-prolog.txt).
import { runToEndSync } from '../../os/spawn.js';
import { accessSync, constants } from 'node:fs';
import type { Logger } from '../../core/log.js';

export interface PrologIds {
  jobId: number;
  stepId: number;
}

/** Runs the program; its exit status, or undefined when it cannot be run (srun goes on). */
function runProgram(program: string, ids: PrologIds, log: Logger): number | undefined {
  try {
    accessSync(program, constants.X_OK);
  } catch (error) {
    log.info(`Access denied for ${program}: ${(error as NodeJS.ErrnoException).code === 'ENOENT' ? 'No such file or directory' : 'Permission denied'}`);
    return undefined;
  }
  const env = { ...process.env, SLURM_JOB_ID: String(ids.jobId), SLURM_JOBID: String(ids.jobId), SLURM_STEP_ID: String(ids.stepId), SLURM_STEPID: String(ids.stepId) };
  const end = runToEndSync([program], { stdio: ['ignore', 'inherit', 'inherit'], env });
  return end.kind === 'exited' ? end.code : 128 + (end.kind === 'signaled' ? 1 : 0);
}

/** --prolog: false when it failed, and the step is not to be launched. */
export function runSrunProlog(program: string, ids: PrologIds, log: Logger): boolean {
  const rc = runProgram(program, ids, log);
  if (rc === undefined || rc === 0) return true;
  log.error(`srun prolog failed rc = ${rc}. Aborting step.`);
  return false;
}

/** --epilog: a failure is reported; the step's status stands. */
export function runSrunEpilog(program: string, ids: PrologIds, log: Logger): void {
  const rc = runProgram(program, ids, log);
  if (rc !== undefined && rc !== 0) log.error(`srun epilog failed status=${rc}`);
}
