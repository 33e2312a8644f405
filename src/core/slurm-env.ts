// The SLURM_* variables tslurm gives a batch script (slurmd's batch step), a task (slurmstepd)
// and salloc's command: each variable once, with the fact its value comes from, and the order
// each of the three sets them in, as Slurm 22.05 does (observed: `sbatch --wrap env`, `srun -l
// env`, `salloc env`, srun inside salloc and sbatch; /work/ref/env.txt). The builders of the
// three (ctld/batch-env.ts, stepd/task-env.ts, commands/tsalloc/salloc-env.ts) only gather the
// facts. A variable whose fact is absent is not set (Slurm sets SLURM_NTASKS,
// SLURM_CPUS_PER_TASK, SLURM_DISTRIBUTION... only when the option was given). A variable already
// in the environment keeps its place and takes the new value (setenv), as in Slurm; new ones are
// appended in the order listed.
import { envArrayOverwrite, getenvp } from './env-array.js';

/** What the variables are made of; absent: the variables made of it are not set. */
export interface SlurmEnvFacts {
  /** SLURM_CONF: the cluster's configuration file (absent: the built-in cluster). */
  confFile?: string | undefined;
  clusterName?: string;
  workingCluster?: string | undefined;
  jobId?: number;
  jobName?: string;
  partition?: string;
  /** The job's nodes, compressed (SLURM_JOB_NODELIST and SLURM_NODELIST alike). */
  jobNodelist?: string;
  jobNumNodes?: number;
  /** SLURM_NNODES: the step's node count in a task, the job's in a batch script and salloc. */
  nnodes?: number;
  /** SLURM_JOB_CPUS_PER_NODE's form: `4(x2),2`. */
  jobCpusPerNode?: string;
  /** A step of an existing allocation (salloc, a batch script): srun adds the _PACK_GROUP_0 copy. */
  insideJob?: boolean | undefined;
  /** SLURM_TASKS_PER_NODE, compressed: the step's in a task, the job's elsewhere. */
  tasksPerNode?: string;
  ntasks?: number | undefined;
  cpusPerTask?: number | undefined;
  ntasksPerNode?: number | undefined;
  memPerNode?: number | undefined;
  memPerCpu?: number | undefined;
  account?: string | undefined;
  qos?: string | undefined;
  jobUid?: number | undefined;
  jobGid?: number | undefined;
  jobUser?: string | undefined;
  prioProcess?: number;
  umask?: string;
  submitDir?: string;
  submitHost?: string;
  /** The node the script or task runs on (HOSTNAME, SLURMD_NODENAME, SLURM_TOPOLOGY_ADDR). */
  nodeName?: string;
  nodeId?: number;
  cpusOnNode?: number;
  /** SLURM_GTIDS: the global ids of the tasks on this node, comma-separated. */
  gtids?: string;
  stepId?: number;
  stepNodelist?: string;
  stepNumNodes?: number;
  distribution?: string | undefined;
  label?: boolean;
  /** The step's mpi type; mpi/none leaves SLURM_MPI_TYPE unset (observed). */
  mpiType?: string;
  srunPort?: number | undefined;
  launchNodeAddr?: string;
  pty?: { rows: number; cols: number } | undefined;
  gpus?: readonly number[];
  /** --export when not ALL (SLURM_EXPORT_ENV, SLURM_GET_USER_ENV). */
  exportEnv?: string | undefined;
  restartCount?: number;
  /** An array task's: the array's job id, the task's id, and the array's task ids summed up (arrayTaskSpan). */
  array?: { jobId: number; taskId: number; span: ArrayTaskSpan } | undefined;
  /** Where tsrun inside finds the same cluster and controller (Slurm's SLURM_CONF does the same). */
  clusterFile?: string | undefined;
  stateDir?: string;
}

type Value = string | number | undefined;

// Each variable and where its value comes from; `has` says whether the environment has a name.
const VARIABLES = {
  SLURM_CONF: (f) => f.confFile,
  ENVIRONMENT: () => 'BATCH',
  HOSTNAME: (f) => f.nodeName,
  // The node's TmpFS (/tmp), unless the environment has a TMPDIR already.
  TMPDIR: (_f, has) => (has('TMPDIR') ? undefined : '/tmp'),
  SLURM_MPI_TYPE: (f) => (f.mpiType === 'none' ? undefined : f.mpiType),
  SLURM_PRIO_PROCESS: (f) => f.prioProcess,
  SLURM_UMASK: (f) => f.umask,
  SLURM_CLUSTER_NAME: (f) => f.clusterName,
  SLURM_SUBMIT_DIR: (f) => f.submitDir,
  SLURM_SUBMIT_HOST: (f) => f.submitHost,
  SLURM_JOB_ID: (f) => f.jobId,
  SLURM_JOBID: (f) => f.jobId,
  SLURM_JOB_NAME: (f) => f.jobName,
  SLURM_JOB_PARTITION: (f) => f.partition,
  SLURM_JOB_NODELIST: (f) => f.jobNodelist,
  SLURM_NODELIST: (f) => f.jobNodelist,
  SLURM_JOB_NUM_NODES: (f) => f.jobNumNodes,
  SLURM_NNODES: (f) => f.nnodes,
  SLURM_NODE_ALIASES: () => '(null)',
  SLURM_JOB_CPUS_PER_NODE: (f) => f.jobCpusPerNode,
  SLURM_JOB_CPUS_PER_NODE_PACK_GROUP_0: (f) => (f.insideJob ? f.jobCpusPerNode : undefined),
  SLURM_TASKS_PER_NODE: (f) => f.tasksPerNode,
  SLURM_NTASKS: (f) => f.ntasks,
  SLURM_NPROCS: (f) => f.ntasks,
  SLURM_CPUS_PER_TASK: (f) => f.cpusPerTask,
  SLURM_NTASKS_PER_NODE: (f) => f.ntasksPerNode,
  SLURM_MEM_PER_NODE: (f) => f.memPerNode,
  SLURM_MEM_PER_CPU: (f) => f.memPerCpu,
  SLURM_DISTRIBUTION: (f) => f.distribution,
  SLURM_LABELIO: (f) => (f.label ? 1 : undefined),
  SLURM_STEP_ID: (f) => f.stepId,
  SLURM_STEPID: (f) => f.stepId,
  SLURM_JOB_ACCOUNT: (f) => f.account,
  SLURM_JOB_QOS: (f) => f.qos,
  SLURM_JOB_UID: (f) => f.jobUid,
  SLURM_JOB_GID: (f) => f.jobGid,
  SLURM_JOB_USER: (f) => f.jobUser,
  SLURM_WORKING_CLUSTER: (f) => f.workingCluster,
  SLURM_STEP_NODELIST: (f) => f.stepNodelist,
  SLURM_STEP_NUM_NODES: (f) => f.stepNumNodes,
  SLURM_STEP_NUM_TASKS: (f) => f.ntasks,
  SLURM_STEP_TASKS_PER_NODE: (f) => f.tasksPerNode,
  SLURM_STEP_LAUNCHER_PORT: (f) => f.srunPort,
  SLURM_SRUN_COMM_PORT: (f) => f.srunPort,
  SLURM_SRUN_COMM_HOST: (f) => (f.srunPort === undefined ? undefined : f.launchNodeAddr),
  // srun's pty port: the terminal's I/O goes through tsrun's task I/O, so no port of its own.
  SLURM_PTY_PORT: (f) => (f.pty ? (f.srunPort ?? 0) : undefined),
  SLURM_PTY_WIN_COL: (f) => f.pty?.cols,
  SLURM_PTY_WIN_ROW: (f) => f.pty?.rows,
  SLURM_TOPOLOGY_ADDR: (f) => f.nodeName,
  SLURM_TOPOLOGY_ADDR_PATTERN: () => 'node',
  SLURM_CPUS_ON_NODE: (f) => f.cpusOnNode,
  // Placeholders at their places: the task exec helper writes the pid, taskEnv() the ids.
  SLURM_TASK_PID: () => 0,
  SLURM_NODEID: (f) => f.nodeId,
  SLURM_PROCID: () => 0,
  SLURM_LOCALID: () => 0,
  SLURM_LAUNCH_NODE_IPADDR: (f) => f.launchNodeAddr,
  SLURM_GTIDS: (f) => f.gtids,
  SLURMD_NODENAME: (f) => f.nodeName,
  CUDA_VISIBLE_DEVICES: (f) => (f.gpus !== undefined && f.gpus.length > 0 ? f.gpus.join(',') : undefined),
  SLURM_EXPORT_ENV: (f) => f.exportEnv,
  SLURM_GET_USER_ENV: (f) => (f.exportEnv === undefined ? undefined : 1),
  SLURM_RESTART_COUNT: (f) => (f.restartCount !== undefined && f.restartCount > 0 ? f.restartCount : undefined),
  SLURM_ARRAY_JOB_ID: (f) => f.array?.jobId,
  SLURM_ARRAY_TASK_ID: (f) => f.array?.taskId,
  SLURM_ARRAY_TASK_COUNT: (f) => f.array?.span.count,
  SLURM_ARRAY_TASK_MAX: (f) => f.array?.span.max,
  SLURM_ARRAY_TASK_MIN: (f) => f.array?.span.min,
  SLURM_ARRAY_TASK_STEP: (f) => f.array?.span.step,
  TSLURM_CONF: (f) => f.clusterFile,
  TSLURM_STATE_DIR: (f) => f.stateDir,
} satisfies Record<string, (facts: SlurmEnvFacts, has: (name: string) => boolean) => Value>;

export type SlurmVariable = keyof typeof VARIABLES;

/**
 * A batch script's. The script's shell re-exports the environment in its own hash order,
 * keeping variables of one bucket in the order they arrive: SLURM_CONF before TMPDIR,
 * SLURM_PRIO_PROCESS before SLURM_WORKING_CLUSTER and SLURM_SUBMIT_DIR, SLURM_NODE_ALIASES,
 * SLURM_NODEID in that order, the account and QOS before SLURM_CPUS_ON_NODE, make `env` in the
 * script list them as on Slurm (observed: `sbatch --wrap env`).
 */
export const BATCH_VARIABLES: readonly SlurmVariable[] = [
  'SLURM_CONF', 'ENVIRONMENT', 'HOSTNAME', 'TMPDIR', 'SLURM_CLUSTER_NAME', 'SLURM_JOB_ID', 'SLURM_JOBID',
  'SLURM_JOB_NAME', 'SLURM_JOB_PARTITION', 'SLURM_JOB_NODELIST', 'SLURM_NODELIST', 'SLURM_JOB_NUM_NODES',
  'SLURM_NNODES', 'SLURM_JOB_CPUS_PER_NODE', 'SLURM_JOB_ACCOUNT', 'SLURM_JOB_QOS', 'SLURM_CPUS_ON_NODE',
  'SLURM_TASKS_PER_NODE', 'SLURM_JOB_UID', 'SLURM_JOB_GID', 'SLURM_JOB_USER', 'SLURM_PRIO_PROCESS',
  'SLURM_WORKING_CLUSTER', 'SLURM_SUBMIT_DIR', 'SLURM_SUBMIT_HOST', 'SLURM_NODE_ALIASES', 'SLURM_NODEID',
  'SLURM_PROCID', 'SLURM_LOCALID', 'SLURM_GTIDS', 'SLURM_TASK_PID', 'SLURMD_NODENAME', 'SLURM_TOPOLOGY_ADDR',
  'SLURM_TOPOLOGY_ADDR_PATTERN', 'SLURM_NTASKS', 'SLURM_NPROCS', 'SLURM_CPUS_PER_TASK', 'SLURM_NTASKS_PER_NODE',
  'SLURM_MEM_PER_NODE', 'SLURM_MEM_PER_CPU', 'SLURM_EXPORT_ENV', 'SLURM_GET_USER_ENV', 'SLURM_RESTART_COUNT',
  'SLURM_ARRAY_JOB_ID', 'SLURM_ARRAY_TASK_ID', 'SLURM_ARRAY_TASK_COUNT', 'SLURM_ARRAY_TASK_MAX',
  'SLURM_ARRAY_TASK_MIN', 'SLURM_ARRAY_TASK_STEP', 'TSLURM_CONF', 'TSLURM_STATE_DIR',
];

/** A task's, common to the tasks of one node, before the mpi hooks (slurmstepd's order). */
export const TASK_VARIABLES: readonly SlurmVariable[] = [
  'SLURM_CONF', 'SLURM_MPI_TYPE', 'SLURM_PRIO_PROCESS', 'SLURM_UMASK', 'SLURM_CLUSTER_NAME', 'SLURM_SUBMIT_DIR',
  'SLURM_SUBMIT_HOST', 'SLURM_JOB_NAME', 'SLURM_JOB_CPUS_PER_NODE', 'SLURM_JOB_CPUS_PER_NODE_PACK_GROUP_0',
  'SLURM_NTASKS', 'SLURM_NPROCS', 'SLURM_CPUS_PER_TASK', 'SLURM_DISTRIBUTION', 'SLURM_LABELIO', 'SLURM_JOB_ID',
  'SLURM_JOBID', 'SLURM_STEP_ID', 'SLURM_STEPID', 'SLURM_NNODES', 'SLURM_JOB_NUM_NODES', 'SLURM_NODELIST',
  'SLURM_JOB_PARTITION', 'SLURM_TASKS_PER_NODE', 'SLURM_JOB_UID', 'SLURM_JOB_USER', 'SLURM_JOB_ACCOUNT',
  'SLURM_JOB_QOS', 'SLURM_WORKING_CLUSTER', 'SLURM_JOB_NODELIST', 'SLURM_STEP_NODELIST', 'SLURM_STEP_NUM_NODES',
  'SLURM_STEP_NUM_TASKS', 'SLURM_STEP_TASKS_PER_NODE', 'SLURM_STEP_LAUNCHER_PORT', 'SLURM_SRUN_COMM_PORT',
  'SLURM_SRUN_COMM_HOST', 'SLURM_PTY_PORT', 'SLURM_PTY_WIN_COL', 'SLURM_PTY_WIN_ROW', 'SLURM_TOPOLOGY_ADDR',
  'SLURM_TOPOLOGY_ADDR_PATTERN', 'SLURM_CPUS_ON_NODE', 'SLURM_TASK_PID', 'SLURM_NODEID', 'SLURM_PROCID',
  'SLURM_LOCALID', 'SLURM_LAUNCH_NODE_IPADDR', 'SLURM_GTIDS', 'SLURM_JOB_GID', 'SLURMD_NODENAME',
  'CUDA_VISIBLE_DEVICES',
];

/** The last one slurmstepd sets, after the mpi hooks' (PMI_*). */
export const TASK_FINAL_VARIABLES: readonly SlurmVariable[] = ['TMPDIR'];

/** salloc's, for its command. SLURM_NTASKS_PER_NODE comes first: salloc sets it while it reads its options. */
export const SALLOC_VARIABLES: readonly SlurmVariable[] = [
  'SLURM_CONF', 'SLURM_NTASKS_PER_NODE', 'SLURM_SUBMIT_DIR', 'SLURM_SUBMIT_HOST', 'SLURM_JOB_ID', 'SLURM_JOB_NAME',
  'SLURM_JOB_NUM_NODES', 'SLURM_JOB_NODELIST', 'SLURM_NODE_ALIASES', 'SLURM_JOB_PARTITION',
  'SLURM_JOB_CPUS_PER_NODE', 'SLURM_MEM_PER_NODE', 'SLURM_MEM_PER_CPU', 'SLURM_JOBID', 'SLURM_NNODES',
  'SLURM_NODELIST', 'SLURM_TASKS_PER_NODE', 'SLURM_JOB_ACCOUNT', 'SLURM_JOB_QOS', 'SLURM_NTASKS', 'SLURM_NPROCS',
  'SLURM_CPUS_PER_TASK', 'SLURM_CLUSTER_NAME', 'TSLURM_CONF', 'TSLURM_STATE_DIR',
];

/** The variables of `order` that `facts` give a value, as name and value, in that order. */
export function slurmVariables(order: readonly SlurmVariable[], facts: SlurmEnvFacts, has: (name: string) => boolean): Array<[string, string]> {
  return order.flatMap((name) => {
    const value = VARIABLES[name](facts, has);
    return value === undefined ? [] : [[name, String(value)] as [string, string]];
  });
}

/** Sets the variables of `order` in an environment array (setenv: a name already there keeps its place). */
export function setSlurmVariables(env: string[], order: readonly SlurmVariable[], facts: SlurmEnvFacts): void {
  for (const [name, value] of slurmVariables(order, facts, (n) => getenvp(env, n) !== null)) envArrayOverwrite(env, name, value);
}

/** What SLURM_TASKS_PER_NODE depends on: the job's -n, --ntasks-per-node and -c. */
export interface TaskCountRequest {
  ntasks?: number | undefined;
  ntasksPerNode?: number | undefined;
  cpusPerTask?: number | undefined;
}

/**
 * SLURM_TASKS_PER_NODE of a job (batch script and salloc alike): -n spread over its nodes,
 * else one task per CPU... per node.
 */
export function tasksPerNode(d: TaskCountRequest, cpusPerNode: readonly number[]): number[] {
  if (d.ntasksPerNode !== undefined) return cpusPerNode.map(() => d.ntasksPerNode!);
  if (d.ntasks === undefined) {
    // Without -n Slurm counts one task per CPU... of the node, divided by -c.
    const cpt = d.cpusPerTask ?? 1;
    return cpusPerNode.map((c) => Math.max(1, Math.floor(c / cpt)));
  }
  // -n tasks placed block-wise over the nodes' CPUs, at least one per node.
  const cpt = d.cpusPerTask ?? 1;
  const n = cpusPerNode.length;
  const counts = cpusPerNode.map(() => 1);
  let left = d.ntasks - n;
  for (let i = 0; i < n && left > 0; i++) {
    const room = Math.max(0, Math.floor(cpusPerNode[i]! / cpt) - 1);
    const take = Math.min(room, left);
    counts[i]! += take;
    left -= take;
  }
  for (let i = 0; left > 0; i = (i + 1) % n, left--) counts[i]!++;
  return counts;
}

/** What SLURM_ARRAY_TASK_COUNT, _MIN, _MAX and _STEP say of an array's task ids. */
export interface ArrayTaskSpan {
  count: number;
  min: number;
  max: number;
  step: number;
}

/**
 * An array's task ids summed up, once per array: its tasks share them (a 1,000-task array
 * worked them out from the ids at each task's start).
 */
export function arrayTaskSpan(ids: readonly number[]): ArrayTaskSpan {
  let min = Infinity;
  let max = -Infinity;
  for (const id of ids) {
    if (id < min) min = id;
    if (id > max) max = id;
  }
  return { count: ids.length, min, max, step: arrayStep(ids) };
}

// Slurm's SLURM_ARRAY_TASK_STEP: the common step of the ids when they are evenly spaced, else 1.
function arrayStep(ids: readonly number[]): number {
  if (ids.length < 2) return 1;
  const step = ids[1]! - ids[0]!;
  return ids.every((id, i) => i === 0 || id - ids[i - 1]! === step) ? step : 1;
}
