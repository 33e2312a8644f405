// What the accounting store holds, as its readers get it (tsacct, and tsrestd's
// /slurmdb/v0.0.38/jobs): one record per job, with its steps, in Slurm's terms. Times are Unix
// seconds (0: not yet), states are Slurm's job_state numbers, exit codes are wait statuses
// (sacct prints `status>>8:status&0x7f`). Usage fields are null when nothing was gathered.
import type { StepUsage } from '../protocol/step-usage.js';

/** Slurm's special step ids (slurm.h): SLURM_BATCH_SCRIPT and SLURM_EXTERN_CONT. */
export const BATCH_STEP_ID = 0xfffffffb;
export const EXTERN_STEP_ID = 0xfffffffc;

export interface AcctStep {
  jobId: number;
  /** 0, 1, ... or BATCH_STEP_ID / EXTERN_STEP_ID. */
  stepId: number;
  name: string;
  start: number;
  end: number;
  state: number;
  /** Who cancelled it (scancel N.S), when someone did. */
  cancelledBy: number | null;
  exitCode: number;
  nnodes: number;
  ncpus: number;
  ntasks: number;
  nodeList: string;
  allocTres: string;
  usage: StepUsage | null;
}

export interface AcctJob {
  /** JobIDRaw: the job's own id (an array task's too). */
  jobId: number;
  /** The array's job id (its first task's id), 0 when not part of an array. */
  arrayJobId: number;
  arrayTaskId: number | null;
  /** The heterogeneous job's leader id and this component's offset; 0 / null when not one. */
  hetJobId: number;
  hetJobOffset: number | null;
  name: string;
  partition: string;
  account: string;
  user: string;
  uid: number;
  group: string;
  gid: number;
  cluster: string;
  submit: number;
  eligible: number;
  start: number;
  end: number;
  /** Minutes, or INFINITE. */
  timelimit: number;
  state: number;
  cancelledBy: number | null;
  exitCode: number;
  derivedExitCode: number;
  nnodes: number;
  ncpus: number;
  /** Requested tasks (-n), null when not given. */
  ntasks: number | null;
  nodeList: string;
  /** Requested memory in megabytes, per node or per CPU; null when not asked for. */
  reqMem: { mb: number; perCpu: boolean } | null;
  reqTres: string;
  allocTres: string;
  workDir: string;
  submitLine: string;
  reason: string;
  priority: number;
  restarts: number;
  qos: string;
  steps: AcctStep[];
}

/** What queryJobs selects, as sacct's job_cond does. */
export interface JobFilter {
  /** Job ids (JobIDRaw or the array's id), with an optional step: undefined for any job. */
  jobIds?: ReadonlyArray<{ jobId: number; taskId?: number; stepId?: number }>;
  uids?: readonly number[];
  names?: readonly string[];
  partitions?: readonly string[];
  /** Base job states (JOB_*): a job that was in one of them within the window. */
  states?: readonly number[];
  /** The window, Unix seconds: jobs that were eligible before `end` and not ended before `start`. */
  start?: number;
  end?: number;
  /** Jobs only (sacct -X): no steps read. */
  noSteps?: boolean;
}
