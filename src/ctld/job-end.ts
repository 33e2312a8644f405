// How a job's end is recorded, whoever ran it (a batch step, or the tsrun holding it): the
// final state from a wait status or from why it was killed, Slurm's reason beside it, and a
// pending job cancelled before it ever started.
import { isOomStatus } from '../core/oom.js';
import { JOB_CANCELLED, JOB_COMPLETE, JOB_FAILED, JOB_NODE_FAIL, JOB_OOM, JOB_PREEMPTED, JOB_TIMEOUT } from '../plugin-api/records.js';
import type { Controller } from './controller.js';
import type { CtldJob, KillCause } from './job.js';

/** The state of a job that ended by itself, from its wait status (slurmctld's job_complete). */
export function endState(status: number): number {
  if (isOomStatus(status)) return JOB_OOM;
  return status === 0 ? JOB_COMPLETE : JOB_FAILED;
}

export function stateFor(cause: KillCause): number {
  if (cause === 'PREEMPTED' || cause === 'PREEMPT_REQUEUE') return JOB_PREEMPTED;
  return cause === 'TIMEOUT' ? JOB_TIMEOUT : cause === 'NODE_FAIL' ? JOB_NODE_FAIL : JOB_CANCELLED;
}

// Slurm's reason on a finished job. A batch script killed by a signal is JobLaunchFailure
// (slurmctld's FAIL_LAUNCH for a signalled batch exit; observed on Slurm 22.05: ExitCode=0:9).
export function endReason(state: number, status: number): string {
  if (state === JOB_TIMEOUT) return 'TimeLimit';
  if (state === JOB_NODE_FAIL) return 'NodeDown';
  if (state === JOB_OOM) return 'OutOfMemory';
  if (state !== JOB_FAILED) return 'None';
  return (status & 0x7f) !== 0 ? 'JobLaunchFailure' : 'NonZeroExitCode';
}

/** Ends a job that never started (scancel of a pending job, a dependency never satisfied). */
export async function cancelPendingJob(ctl: Controller, job: CtldJob, reason: string): Promise<void> {
  const now = Math.floor(Date.now() / 1000);
  job.record.job_state = JOB_CANCELLED;
  job.record.end_time = now;
  if (job.record.start_time === 0) job.record.start_time = now;
  job.reason = reason;
  await ctl.journalProgress(job);
  ctl.notifyFinished(job);
}
