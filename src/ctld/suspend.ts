// Suspending and resuming a running job (slurmctld's job_suspend): select_p_job_suspend gives
// its resources back to the pool and SIGSTOP stops every process of its steps; on resume,
// select_p_job_resume takes them again and SIGCONT lets the processes go on. Time spent
// suspended does not count against the time limit. Used by `tscontrol suspend/resume`
// (indf_susp true) and by preemption in SUSPEND mode (false).
import { constants } from 'node:os';
import { UserError } from '../core/errors.js';
import { errnoName } from '../core/errno.js';
import { INFINITE } from '../core/slurm-constants.js';
import { SLURM_SUCCESS, type Rc } from '../plugin-api/common.js';
import { JOB_RUNNING, JOB_SUSPENDED } from '../plugin-api/records.js';
import type { Controller } from './controller.js';
import type { CtldJob } from './job.js';

const { SIGSTOP, SIGCONT } = constants.signals;

/** What sends a signal to everything a job runs (BatchJobs); `throughSelect` false skips select_p_job_signal. */
export interface JobSignaller {
  signal(job: CtldJob, signal: number, throughSelect?: boolean): Promise<void> | void;
}

/** Suspends a running job; a plugin's refusal is the user's error. */
export async function suspendJob(ctl: Controller, signaller: JobSignaller, job: CtldJob, indfSusp: boolean): Promise<void> {
  const rc = await ctl.select.jobSuspend(job.record, indfSusp);
  if (rc !== SLURM_SUCCESS) throw selectRefusal(rc);
  // slurmctld suspends through the node daemons, not select_g_job_signal: select heard job_suspend.
  await signaller.signal(job, SIGSTOP, false);
  job.record.job_state = JOB_SUSPENDED;
  job.suspendedAt = Math.floor(Date.now() / 1000);
  await ctl.journalProgress(job);
}

/** Resumes a suspended job; the plugin's rc when it cannot take the job's resources back. */
export async function resumeJob(ctl: Controller, signaller: JobSignaller, job: CtldJob, indfSusp: boolean): Promise<Rc> {
  const rc = await ctl.select.jobResume(job.record, indfSusp);
  if (rc !== SLURM_SUCCESS) return rc;
  const now = Math.floor(Date.now() / 1000);
  const away = job.suspendedAt !== undefined ? Math.max(0, now - job.suspendedAt) : 0;
  job.suspendedSeconds = (job.suspendedSeconds ?? 0) + away;
  job.suspendedAt = undefined;
  job.preemptedBy = undefined;
  const r = job.record;
  r.job_state = JOB_RUNNING;
  if (r.end_time !== INFINITE && r.end_time > 0) r.end_time += away;
  await signaller.signal(job, SIGCONT, false);
  await ctl.journalProgress(job);
  return SLURM_SUCCESS;
}

/** A select plugin's failure rc as the error tscontrol shows. */
export function selectRefusal(rc: Rc): UserError {
  const name = errnoName(rc);
  return name ? UserError.fromErrno(name) : UserError.fromErrno('ESLURM_NOT_SUPPORTED');
}
