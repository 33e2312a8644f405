// The environment of a batch script, as slurmd/slurmstepd set it for the batch step
// (observed on Slurm 22.05: sbatch --wrap='env | sort'): the job's submitted environment,
// then the SLURM_* variables of the job and of the one "task" the script is (the same set as
// 22.05's `sbatch --wrap env`; their order is the script shell's, which re-exports its
// environment in its own hash order, on Slurm as here). Variables Slurm
// sets only when an option was given (SLURM_NTASKS, SLURM_CPUS_PER_TASK, SLURM_MEM_PER_NODE)
// are set only then here too. TSLURM_CONF and TSLURM_STATE_DIR point tsrun inside the script
// at the same cluster and controller (Slurm's SLURM_CONF does the same). SLURM_TASK_PID is
// filled in by the batch step daemon, which alone knows the script's pid.
import { envArrayOverwrite } from '../core/env-array.js';
import { compressCounts } from '../core/tasks-per-node.js';
import type { CtldJob } from './job.js';

export interface BatchEnvFacts {
  clusterName: string;
  clusterFile: string | undefined;
  /** SLURM_CONF (undefined: the built-in cluster, no file) and SLURM_WORKING_CLUSTER. */
  confFile: string | undefined;
  workingCluster: string;
  stateDir: string;
  /** The allocated nodes in node order, and the CPUs the job holds on each. */
  nodeNames: string[];
  nodelist: string;
  cpusPerNode: number[];
  userName: string;
  /** For array tasks: every task id of the array. */
  arrayTaskIds: readonly number[] | undefined;
}

export function batchEnv(job: CtldJob, facts: BatchEnvFacts): string[] {
  const { desc, record } = job;
  const env = [...desc.environment];
  const set = (name: string, value: string | number): void => {
    envArrayOverwrite(env, name, String(value));
  };
  const first = facts.nodeNames[0]!;
  // The script's shell re-exports the environment in its own hash order, keeping variables of
  // one bucket in the order they arrive: SLURM_CONF before TMPDIR, SLURM_PRIO_PROCESS before
  // SLURM_WORKING_CLUSTER and SLURM_SUBMIT_DIR, SLURM_NODE_ALIASES, SLURM_NODEID in that order
  // make `env` in the script list them as on Slurm (observed: `sbatch --wrap env`).
  if (facts.confFile !== undefined) set('SLURM_CONF', facts.confFile);
  set('ENVIRONMENT', 'BATCH');
  set('HOSTNAME', first);
  if (!env.some((entry) => entry.startsWith('TMPDIR='))) set('TMPDIR', '/tmp');
  set('SLURM_CLUSTER_NAME', facts.clusterName);
  set('SLURM_JOB_ID', record.job_id);
  set('SLURM_JOBID', record.job_id);
  set('SLURM_JOB_NAME', record.name);
  set('SLURM_JOB_PARTITION', record.partition);
  set('SLURM_JOB_NODELIST', facts.nodelist);
  set('SLURM_NODELIST', facts.nodelist);
  set('SLURM_JOB_NUM_NODES', facts.nodeNames.length);
  set('SLURM_NNODES', facts.nodeNames.length);
  set('SLURM_JOB_CPUS_PER_NODE', compressCounts(facts.cpusPerNode));
  // -A, --qos: Slurm exports the job's account and QOS (it has a QOS only with accounting);
  // before SLURM_CPUS_ON_NODE, which shares the account's bucket in the shell's order.
  if (desc.account !== undefined) set('SLURM_JOB_ACCOUNT', desc.account);
  if (desc.qos !== undefined) set('SLURM_JOB_QOS', desc.qos);
  set('SLURM_CPUS_ON_NODE', facts.cpusPerNode[0] ?? 1);
  set('SLURM_TASKS_PER_NODE', compressCounts(tasksPerNode(job.desc, facts.cpusPerNode)));
  set('SLURM_JOB_UID', record.user_id);
  set('SLURM_JOB_GID', record.group_id);
  set('SLURM_JOB_USER', facts.userName);
  set('SLURM_PRIO_PROCESS', desc.prioProcess ?? 0);
  set('SLURM_WORKING_CLUSTER', facts.workingCluster);
  set('SLURM_SUBMIT_DIR', desc.submitDir);
  set('SLURM_SUBMIT_HOST', desc.submitHost);
  set('SLURM_NODE_ALIASES', '(null)');
  set('SLURM_NODEID', 0);
  set('SLURM_PROCID', 0);
  set('SLURM_LOCALID', 0);
  set('SLURM_GTIDS', 0);
  // The batch step's task exec helper writes the script's pid here.
  set('SLURM_TASK_PID', 0);
  set('SLURMD_NODENAME', first);
  set('SLURM_TOPOLOGY_ADDR', first);
  set('SLURM_TOPOLOGY_ADDR_PATTERN', 'node');
  if (desc.ntasks !== undefined) {
    set('SLURM_NTASKS', desc.ntasks);
    set('SLURM_NPROCS', desc.ntasks);
  }
  if (desc.cpusPerTask !== undefined) set('SLURM_CPUS_PER_TASK', desc.cpusPerTask);
  if (desc.ntasksPerNode !== undefined) set('SLURM_NTASKS_PER_NODE', desc.ntasksPerNode);
  if (desc.memPerNode !== undefined) set('SLURM_MEM_PER_NODE', desc.memPerNode);
  if (desc.memPerCpu !== undefined) set('SLURM_MEM_PER_CPU', desc.memPerCpu);
  if (desc.exportText !== undefined && desc.exportText.toUpperCase() !== 'ALL') {
    set('SLURM_EXPORT_ENV', desc.exportText);
    set('SLURM_GET_USER_ENV', 1);
  }
  if (job.requeueCount > 0) set('SLURM_RESTART_COUNT', job.requeueCount);
  if (job.arrayJobId !== 0 && facts.arrayTaskIds) {
    const ids = facts.arrayTaskIds;
    set('SLURM_ARRAY_JOB_ID', job.arrayJobId);
    set('SLURM_ARRAY_TASK_ID', job.arrayTaskId ?? 0);
    set('SLURM_ARRAY_TASK_COUNT', ids.length);
    set('SLURM_ARRAY_TASK_MAX', Math.max(...ids));
    set('SLURM_ARRAY_TASK_MIN', Math.min(...ids));
    set('SLURM_ARRAY_TASK_STEP', arrayStep(ids));
  }
  if (facts.clusterFile !== undefined) set('TSLURM_CONF', facts.clusterFile);
  set('TSLURM_STATE_DIR', facts.stateDir);
  return env;
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

// Slurm's SLURM_ARRAY_TASK_STEP: the common step of the ids when they are evenly spaced, else 1.
function arrayStep(ids: readonly number[]): number {
  if (ids.length < 2) return 1;
  const step = ids[1]! - ids[0]!;
  return ids.every((id, i) => i === 0 || id - ids[i - 1]! === step) ? step : 1;
}
