// The SLURM_* variables a task starts with, as slurmstepd sets them (observed on Slurm 22.05:
// srun -N2 -n3 -l env). Variables Slurm sets only when an option was given (SLURM_CPUS_PER_TASK,
// SLURM_DISTRIBUTION, SLURM_LABELIO) are set only then here too.
import { compressCounts } from '../core/tasks-per-node.js';
import { compressHostlist } from '../core/hostlist.js';
import { envArrayOverwrite } from '../core/env-array.js';
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

  set('SLURM_CLUSTER_NAME', step.clusterName);
  set('SLURM_JOB_ID', step.jobId);
  set('SLURM_JOBID', step.jobId);
  set('SLURM_JOB_NAME', step.jobName);
  set('SLURM_JOB_PARTITION', step.partition);
  set('SLURM_JOB_NODELIST', step.jobNodelist);
  set('SLURM_NODELIST', step.jobNodelist);
  set('SLURM_JOB_NUM_NODES', step.jobNumNodes);
  set('SLURM_JOB_CPUS_PER_NODE', step.jobCpusPerNode);
  set('SLURM_STEP_ID', step.stepId);
  set('SLURM_STEPID', step.stepId);
  set('SLURM_STEP_NODELIST', stepNodelist);
  set('SLURM_STEP_NUM_NODES', step.nodeNames.length);
  set('SLURM_STEP_NUM_TASKS', step.ntasks);
  set('SLURM_STEP_TASKS_PER_NODE', tasksPerNode);
  set('SLURM_TASKS_PER_NODE', tasksPerNode);
  set('SLURM_NNODES', step.nodeNames.length);
  set('SLURM_NTASKS', step.ntasks);
  set('SLURM_NPROCS', step.ntasks);
  set('SLURM_NODEID', spec.nodeId);
  set('SLURMD_NODENAME', nodeName);
  set('SLURM_TOPOLOGY_ADDR', nodeName);
  set('SLURM_TOPOLOGY_ADDR_PATTERN', 'node');
  set('SLURM_CPUS_ON_NODE', spec.cpusOnNode);
  set('SLURM_GTIDS', (step.tids[spec.nodeId] ?? []).join(','));
  set('SLURM_SUBMIT_DIR', step.submitDir);
  set('SLURM_SUBMIT_HOST', step.submitHost);
  set('SLURM_LAUNCH_NODE_IPADDR', step.launchNodeAddr);
  set('SLURM_UMASK', step.umask);
  set('SLURM_PRIO_PROCESS', 0);
  if (step.cpusPerTask !== undefined) set('SLURM_CPUS_PER_TASK', step.cpusPerTask);
  if (step.distribution !== undefined) set('SLURM_DISTRIBUTION', step.distribution);
  if (step.label) set('SLURM_LABELIO', 1);
  // mpi/none leaves SLURM_MPI_TYPE unset (observed); any other type sets it.
  if (step.mpiType !== 'none') set('SLURM_MPI_TYPE', step.mpiType);
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
