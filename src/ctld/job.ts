// A job as the controller keeps it: the record plugins see (job_record_t, built from the
// submission), plus what slurmctld keeps beside it — why it waits, its array and dependency,
// its batch step daemon, its exit status. Only the controller mutates these.
import type { JobDescriptor, DependencySpec } from '../protocol/job-desc.js';
import type { job_record_t } from '../plugin-api/records.js';
import type { StepUsage } from '../protocol/step-usage.js';

/** job_record_t with the fields the controller updates as the job moves on. */
export type MutableJobRecord = {
  -readonly [K in keyof job_record_t]: job_record_t[K];
};

export type HoldKind = 'user' | 'admin';

/** Why a job ended early, when the controller ended it. */
/** REQUEUE: `tscontrol requeue` ended it to run again. PREEMPTED: preemption cancelled it;
 * PREEMPT_REQUEUE: preemption ended it to run again. */
export type KillCause = 'CANCELLED' | 'TIMEOUT' | 'NODE_FAIL' | 'REQUEUE' | 'PREEMPTED' | 'PREEMPT_REQUEUE';

export interface CtldJob {
  record: MutableJobRecord;
  desc: JobDescriptor;
  /** The array's job id (the first task's id), or 0 for a job that is not part of an array. */
  arrayJobId: number;
  arrayTaskId: number | undefined;
  /** `%N` of the array, shared by its tasks; undefined when not limited. */
  arrayMaxRunning: number | undefined;
  /** The pending (or end) reason Slurm would show: `None`, `Resources`, `Dependency`, ... */
  reason: string;
  /** The dependency still to be met; undefined once met or when none was given. */
  dependency: DependencySpec | undefined;
  held: HoldKind | undefined;
  /** The batch script's wait status (Slurm's ExitCode=status>>8:status&0x7f). */
  exitStatus: number;
  /** The batch step daemon, while the job runs. */
  stepdPid: number | undefined;
  /** The node whose tsstepd runs the batch step (daemon mode); undefined when this host runs it. */
  batchNode: string | undefined;
  /** Set when the controller asked the job to end (tscancel, time limit, a lost node). */
  killCause: KillCause | undefined;
  /** --signal's warning has been sent (once per run; not kept across a controller restart). */
  warningSent?: boolean;
  /** When the job was (last) made eligible, for `EligibleTime`. */
  eligibleTime: number;
  requeueCount: number;
  /** Set while a new job's submission is being journaled: it is not scheduled before it is acknowledged. */
  unjournaled?: boolean;
  /**
   * Set while a new allocation (tsrun, tsalloc) goes through its first scheduling pass before
   * its submit record is written: the record, written once the pass is over, carries what the
   * pass did (its start), so the job's changes meanwhile are not journaled on their own.
   */
  submitAfterPass?: boolean;
  /** While pending for resources: when and where select's WILL_RUN expects it to start. */
  expectedStart?: number;
  schedNodes?: string;
  /** While suspended by preemption: the job that preempted it (it resumes once that one is gone). */
  preemptedBy?: number;
  /** Jobs this pending job preempted and is waiting for (preemption in progress). */
  preempting?: number[];
  /** While suspended: when it was suspended (Unix seconds). */
  suspendedAt?: number;
  /** Seconds spent suspended so far: they do not count against the time limit. */
  suspendedSeconds?: number;
  /** What its steps used, by step id (`0`, `batch`): latest samples, then final figures (step-usage.ts). */
  stepUsage?: Record<string, import('../protocol/step-usage.js').StepUsage>;
  /** The CPU numbers it holds on each of its nodes, by node name (cpu-ids.ts); set at start. */
  cpuIds?: Record<string, string>;
  /** The highest wait status of its steps (Slurm's derived_ec, scontrol's DerivedExitCode). */
  derivedExitStatus?: number;
  /** Who cancelled it (sacct's `CANCELLED by UID`); journaled with its progress. */
  cancelledBy?: number;
  /** What its batch step used, when the step host reported it (the accounting store's .batch record). */
  batchUsage?: StepUsage;
}

/** The `JobId` tsqueue and tscontrol print: `12` or `10_3` for an array task. */
export function displayJobId(job: CtldJob): string {
  return job.arrayJobId !== 0 ? `${job.arrayJobId}_${job.arrayTaskId}` : String(job.record.job_id);
}

/** A job as first recorded: nothing decided about it yet beyond `extra`. */
export function newJob(record: CtldJob['record'], desc: JobDescriptor, extra: Partial<CtldJob> = {}): CtldJob {
  return {
    record,
    desc,
    arrayJobId: 0,
    arrayTaskId: undefined,
    arrayMaxRunning: undefined,
    reason: 'None',
    dependency: undefined,
    held: undefined,
    exitStatus: 0,
    stepdPid: undefined,
    batchNode: undefined,
    killCause: undefined,
    eligibleTime: 0,
    requeueCount: 0,
    // Present from the start: set on every pending job after each pass, a field added later
    // would change the shape of 100,000 objects a pass.
    expectedStart: undefined,
    schedNodes: undefined,
    ...extra,
  };
}
