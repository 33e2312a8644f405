// The environment of a batch script, as slurmd/slurmstepd set it for the batch step: the job's
// submitted environment, then the SLURM_* variables of the job and of the one "task" the script
// is, gathered here from the job record and set in Slurm's order by core/slurm-env.ts (which also
// says why that order). SLURM_TASK_PID is filled in by the batch step daemon, which alone knows
// the script's pid.
import { setSlurmVariables, tasksPerNode, BATCH_VARIABLES, type ArrayTaskSpan } from '../core/slurm-env.js';
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
  /** For array tasks: the array's task ids summed up. */
  arrayTasks: ArrayTaskSpan | undefined;
}

export function batchEnv(job: CtldJob, facts: BatchEnvFacts): string[] {
  const { desc, record } = job;
  const env = [...desc.environment];
  const first = facts.nodeNames[0]!;
  setSlurmVariables(env, BATCH_VARIABLES, {
    confFile: facts.confFile,
    nodeName: first,
    clusterName: facts.clusterName,
    jobId: record.job_id,
    jobName: record.name,
    partition: record.partition,
    jobNodelist: facts.nodelist,
    jobNumNodes: facts.nodeNames.length,
    nnodes: facts.nodeNames.length,
    jobCpusPerNode: compressCounts(facts.cpusPerNode),
    account: desc.account,
    qos: desc.qos,
    cpusOnNode: facts.cpusPerNode[0] ?? 1,
    tasksPerNode: compressCounts(tasksPerNode(desc, facts.cpusPerNode)),
    jobUid: record.user_id,
    jobGid: record.group_id,
    jobUser: facts.userName,
    prioProcess: desc.prioProcess ?? 0,
    workingCluster: facts.workingCluster,
    submitDir: desc.submitDir,
    submitHost: desc.submitHost,
    nodeId: 0,
    gtids: '0',
    ntasks: desc.ntasks,
    cpusPerTask: desc.cpusPerTask,
    ntasksPerNode: desc.ntasksPerNode,
    memPerNode: desc.memPerNode,
    memPerCpu: desc.memPerCpu,
    exportEnv: desc.exportText !== undefined && desc.exportText.toUpperCase() !== 'ALL' ? desc.exportText : undefined,
    restartCount: job.requeueCount,
    array: job.arrayJobId !== 0 && facts.arrayTasks ? { jobId: job.arrayJobId, taskId: job.arrayTaskId ?? 0, span: facts.arrayTasks } : undefined,
    clusterFile: facts.clusterFile,
    stateDir: facts.stateDir,
  });
  return env;
}
