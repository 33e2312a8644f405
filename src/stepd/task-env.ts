// The SLURM_* variables a task starts with, as slurmstepd sets them, in Slurm's order: `env`
// in a task prints them as 22.05's tasks see them (observed: `srun -N1 -n2 -l env`, `srun -n1
// env`, `srun -n1 -c1 --mpi=pmi2 env`, srun inside salloc and sbatch; /work/ref/env.txt). A
// variable the task inherits (from salloc's or a batch script's environment) keeps its place
// and takes the step's value (setenv), as in Slurm; new ones are appended in this order.
// Variables Slurm sets only when an option was given (SLURM_CPUS_PER_TASK, SLURM_DISTRIBUTION,
// SLURM_LABELIO, SLURM_MPI_TYPE) are set only then here too. SLURM_TASK_PID, SLURM_PROCID and
// SLURM_LOCALID hold their places here and get each task's values from taskEnv() (and the
// task's pid from stepd/task-pid.ts).
import { compressCounts } from '../core/tasks-per-node.js';
import { compressHostlist } from '../core/hostlist.js';
import { envArrayOverwrite, getenvp } from '../core/env-array.js';
import type { NodeLaunchSpec } from './launch-spec.js';

/** Variables common to every task of this node (before the mpi hooks run). */
export function nodeEnv(spec: NodeLaunchSpec): string[] {
  const { step } = spec;
  const env = [...spec.env];
  const set = (name: string, value: string | number): void => {
    envArrayOverwrite(env, name, String(value));
  };
  const stepNodelist = compressHostlist(step.nodeNames);
  const tasksPerNode = compressCounts(step.tasksPerNode);
  const nodeName = step.nodeNames[spec.nodeId]!;

  if (step.confFile !== undefined) set('SLURM_CONF', step.confFile);
  // mpi/none leaves SLURM_MPI_TYPE unset (observed); any other type sets it.
  if (step.mpiType !== 'none') set('SLURM_MPI_TYPE', step.mpiType);
  set('SLURM_PRIO_PROCESS', step.prioProcess ?? 0);
  set('SLURM_UMASK', step.umask);
  set('SLURM_CLUSTER_NAME', step.clusterName);
  set('SLURM_SUBMIT_DIR', step.submitDir);
  set('SLURM_SUBMIT_HOST', step.submitHost);
  set('SLURM_JOB_NAME', step.jobName);
  set('SLURM_JOB_CPUS_PER_NODE', step.jobCpusPerNode);
  // srun inside an existing allocation (salloc, a batch script) also sets these two.
  if (step.insideJob) set('SLURM_JOB_CPUS_PER_NODE_PACK_GROUP_0', step.jobCpusPerNode);
  set('SLURM_NTASKS', step.ntasks);
  set('SLURM_NPROCS', step.ntasks);
  if (step.cpusPerTask !== undefined) set('SLURM_CPUS_PER_TASK', step.cpusPerTask);
  const distribution = step.distribution ?? (step.insideJob ? defaultDistribution(step.ntasks, step.nodeNames.length) : undefined);
  if (distribution !== undefined) set('SLURM_DISTRIBUTION', distribution);
  if (step.label) set('SLURM_LABELIO', 1);
  set('SLURM_JOB_ID', step.jobId);
  set('SLURM_JOBID', step.jobId);
  set('SLURM_STEP_ID', step.stepId);
  set('SLURM_STEPID', step.stepId);
  set('SLURM_NNODES', step.nodeNames.length);
  set('SLURM_JOB_NUM_NODES', step.jobNumNodes);
  set('SLURM_NODELIST', step.jobNodelist);
  set('SLURM_JOB_PARTITION', step.partition);
  set('SLURM_TASKS_PER_NODE', tasksPerNode);
  if (step.jobUid !== undefined) set('SLURM_JOB_UID', step.jobUid);
  if (step.jobUser !== undefined) set('SLURM_JOB_USER', step.jobUser);
  if (step.account !== undefined) set('SLURM_JOB_ACCOUNT', step.account);
  if (step.qos !== undefined) set('SLURM_JOB_QOS', step.qos);
  if (step.workingCluster !== undefined) set('SLURM_WORKING_CLUSTER', step.workingCluster);
  set('SLURM_JOB_NODELIST', step.jobNodelist);
  set('SLURM_STEP_NODELIST', stepNodelist);
  set('SLURM_STEP_NUM_NODES', step.nodeNames.length);
  set('SLURM_STEP_NUM_TASKS', step.ntasks);
  set('SLURM_STEP_TASKS_PER_NODE', tasksPerNode);
  if (step.srunPort !== undefined) {
    set('SLURM_STEP_LAUNCHER_PORT', step.srunPort);
    set('SLURM_SRUN_COMM_PORT', step.srunPort);
    set('SLURM_SRUN_COMM_HOST', step.launchNodeAddr);
  }
  if (step.pty) {
    // srun's pty port: the terminal's I/O goes through tsrun's task I/O, so no port of its own.
    set('SLURM_PTY_PORT', step.srunPort ?? 0);
    set('SLURM_PTY_WIN_COL', step.pty.cols);
    set('SLURM_PTY_WIN_ROW', step.pty.rows);
  }
  set('SLURM_TOPOLOGY_ADDR', nodeName);
  set('SLURM_TOPOLOGY_ADDR_PATTERN', 'node');
  set('SLURM_CPUS_ON_NODE', spec.cpusOnNode);
  // Placeholders at their places: taskEnv() and the task exec helper fill them in.
  set('SLURM_TASK_PID', 0);
  set('SLURM_NODEID', spec.nodeId);
  set('SLURM_PROCID', 0);
  set('SLURM_LOCALID', 0);
  set('SLURM_LAUNCH_NODE_IPADDR', step.launchNodeAddr);
  set('SLURM_GTIDS', (step.tids[spec.nodeId] ?? []).join(','));
  if (step.jobGid !== undefined) set('SLURM_JOB_GID', step.jobGid);
  set('SLURMD_NODENAME', nodeName);
  if (spec.gpus.length > 0) set('CUDA_VISIBLE_DEVICES', spec.gpus.join(','));
  return env;
}

/** Adds the per-task variables to a copy of the node's env. */
export function taskEnv(nodeEnvironment: readonly string[], globalTaskId: number, localId: number): string[] {
  const env = [...nodeEnvironment];
  envArrayOverwrite(env, 'SLURM_PROCID', String(globalTaskId));
  envArrayOverwrite(env, 'SLURM_LOCALID', String(localId));
  return env;
}

/**
 * The last variable slurmstepd sets, after the mpi hooks' (PMI_*): TMPDIR, unless the task
 * already has one, is the node's TmpFS (/tmp).
 */
export function finishTaskEnv(env: string[]): void {
  if (getenvp(env, 'TMPDIR') === null) envArrayOverwrite(env, 'TMPDIR', '/tmp');
}

/** srun's distribution when -m was not given, as it exports it inside an allocation (observed). */
function defaultDistribution(ntasks: number, nnodes: number): string {
  return ntasks <= nnodes ? 'cyclic' : 'block';
}
