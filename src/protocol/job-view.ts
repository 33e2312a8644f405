// A job as the controller reports it to the commands (tsqueue, tscontrol show job, tsbatch
// --wait): what Slurm's job_info_t carries, for the fields tslurm keeps. Plain JSON.

import type { JobExtras } from './job-desc.js';

export interface JobView {
  jobId: number;
  /** 0 when the job is not an array task. */
  arrayJobId: number;
  arrayTaskId: number | null;
  /** The array's `%N` limit, or null. */
  arrayMaxRunning: number | null;
  name: string;
  userId: number;
  userName: string;
  groupId: number;
  partition: string;
  /** job_state with flags (JOB_* | JOB_COMPLETING ...). */
  state: number;
  reason: string;
  priority: number;
  /** Minutes, or INFINITE. */
  timeLimit: number;
  submitTime: number;
  eligibleTime: number;
  /** The start, or while pending the expected start (0: not known). */
  startTime: number;
  endTime: number;
  /** Allocated nodes (hostlist), or null while pending. */
  nodes: string | null;
  /** Allocated (or requested, while pending) nodes and CPUs. */
  numNodes: number;
  numCpus: number;
  numTasks: number | null;
  cpusPerTask: number | null;
  minNodes: number | null;
  memPerNode: number | null;
  memPerCpu: number | null;
  /** The memory a pending job without --mem is counted with (its partition's first node's). */
  defaultNodeMemory: number | null;
  features: string | null;
  gres: string | null;
  /** Wait status of the batch script. */
  exitStatus: number;
  /** The highest wait status of its steps (Slurm's derived_ec); absent from older snapshots. */
  derivedExitStatus?: number;
  dependency: string | null;
  held: 'user' | 'admin' | null;
  requeue: boolean;
  restartCount: number;
  workDir: string;
  command: string;
  stdout: string;
  stderr: string;
  stdin: string;
  batchHost: string | null;
  comment: string | null;
  /** false for tsrun's job (BatchFlag=0); a batch job otherwise. */
  batch?: boolean;
  /** Whether the batch step (or cleanup) is still going. */
  active: boolean;
  // What squeue's other fields show (tsqueue -o/-O, --json).
  /** --ntasks-per-node, or null. */
  ntasksPerNode: number | null;
  /** The upper node count of -N min-max, or null. */
  maxNodes: number | null;
  /** -w and -x as given (hostlists), or null. */
  reqNodes: string | null;
  excNodes: string | null;
  contiguous: boolean;
  /** --exclusive (squeue's OVER_SUBSCRIBE=NO). */
  exclusive: boolean;
  /** --gpus (Slurm's tres_per_job), or null. */
  gpus: string | null;
  /** Whether -o / -e were given (squeue prints `<WorkDir>/slurm-<id>.out` for the default). */
  outputGiven: boolean;
  errorGiven: boolean;
  /** The host the job was submitted from (Slurm's AllocNode). */
  allocNode: string;
  /** The submitting process's session id (AllocNode:Sid=host:sid); 0 when not known. */
  allocSid?: number;
  /** --reservation, or null. */
  reservation?: string | null;
  /** The shared options recorded on the job (account, qos, mail, nice, --time-min, ...). */
  options?: JobExtras;
  /** While pending: the nodes it is expected to start on (SchedNodeList), or null. */
  schedNodes?: string | null;
  /** Only when asked for details (`tscontrol -d show job`). */
  details?: JobDetails;
}

/** What `scontrol -d show job` adds: the derived exit code and, once allocated, per node what was given. */
export interface JobDetails {
  /** The highest wait status of the job's steps. */
  derivedExitStatus: number;
  /** Generic resources allocated over the job (JOB_GRES=), or null. */
  gres: string | null;
  /** Per allocated node, in node order; null while the job has no allocation. */
  nodes: Array<{ name: string; cpuIds: string; memory: number; gres: string }> | null;
}
