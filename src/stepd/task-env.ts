// The environment a task starts with, as slurmstepd gives it: the step's environment, then the
// SLURM_* variables gathered here from the step's facts and set in Slurm's order by
// core/slurm-env.ts (`env` in a task prints them as 22.05's tasks see them; /work/ref/env.txt).
// A variable the task inherits (from salloc's or a batch script's environment) keeps its place
// and takes the step's value. SLURM_TASK_PID, SLURM_PROCID and SLURM_LOCALID hold their places
// and get each task's values from taskEnv() (and the task's pid from stepd/task-pid.ts).
import { compressCounts } from '../core/tasks-per-node.js';
import { compressHostlist } from '../core/hostlist.js';
import { envArrayOverwrite } from '../core/env-array.js';
import { setSlurmVariables, TASK_FINAL_VARIABLES, TASK_VARIABLES } from '../core/slurm-env.js';
import type { NodeLaunchSpec } from './launch-spec.js';

/** Variables common to every task of this node (before the mpi hooks run). */
export function nodeEnv(spec: NodeLaunchSpec): string[] {
  const { step } = spec;
  const env = [...spec.env];
  setSlurmVariables(env, TASK_VARIABLES, {
    confFile: step.confFile,
    mpiType: step.mpiType,
    prioProcess: step.prioProcess ?? 0,
    umask: step.umask,
    clusterName: step.clusterName,
    submitDir: step.submitDir,
    submitHost: step.submitHost,
    jobName: step.jobName,
    jobCpusPerNode: step.jobCpusPerNode,
    insideJob: step.insideJob,
    ntasks: step.ntasks,
    cpusPerTask: step.cpusPerTask,
    // srun inside an allocation exports its distribution even when -m was not given (observed).
    distribution: step.distribution ?? (step.insideJob ? defaultDistribution(step.ntasks, step.nodeNames.length) : undefined),
    label: step.label,
    jobId: step.jobId,
    stepId: step.stepId,
    nnodes: step.nodeNames.length,
    jobNumNodes: step.jobNumNodes,
    jobNodelist: step.jobNodelist,
    partition: step.partition,
    tasksPerNode: compressCounts(step.tasksPerNode),
    jobUid: step.jobUid,
    jobUser: step.jobUser,
    account: step.account,
    qos: step.qos,
    workingCluster: step.workingCluster,
    stepNodelist: compressHostlist(step.nodeNames),
    stepNumNodes: step.nodeNames.length,
    srunPort: step.srunPort,
    launchNodeAddr: step.launchNodeAddr,
    pty: step.pty,
    nodeName: step.nodeNames[spec.nodeId]!,
    cpusOnNode: spec.cpusOnNode,
    nodeId: spec.nodeId,
    gtids: (step.tids[spec.nodeId] ?? []).join(','),
    jobGid: step.jobGid,
    gpus: spec.gpus,
  });
  return env;
}

/** Adds the per-task variables to a copy of the node's env. */
export function taskEnv(nodeEnvironment: readonly string[], globalTaskId: number, localId: number): string[] {
  const env = [...nodeEnvironment];
  envArrayOverwrite(env, 'SLURM_PROCID', String(globalTaskId));
  envArrayOverwrite(env, 'SLURM_LOCALID', String(localId));
  return env;
}

/** What slurmstepd sets last, after the mpi hooks' (PMI_*): TMPDIR, unless the task has one. */
export function finishTaskEnv(env: string[]): void {
  setSlurmVariables(env, TASK_FINAL_VARIABLES, {});
}

/** srun's distribution when -m was not given, as it exports it inside an allocation (observed). */
function defaultDistribution(ntasks: number, nnodes: number): string {
  return ntasks <= nnodes ? 'cyclic' : 'block';
}
