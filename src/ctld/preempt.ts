// Preemption (slurmctld's preempt/partition_prio with job_preempt): a pending job that cannot
// start may take the resources of running jobs in partitions of a lower PriorityTier. The
// scheduler offers those jobs to select_p_job_test (RUN_NOW) as preemption candidates; the
// plugin names the ones that must go, and each goes as its partition's PreemptMode says:
// CANCEL (it ends PREEMPTED), REQUEUE (it ends and is queued again; a job that may not be
// requeued is cancelled) or SUSPEND (select_p_job_suspend, SIGSTOP; resumed once the job that
// preempted it is gone). Cancelled and requeued jobs free their resources when they have ended,
// so the preemptor starts in a later pass; it preempts no one else meanwhile.
import type { PartitionConfig } from '../config/types.js';
import type { Bitstr, job_record_t } from '../plugin-api/records.js';
import { JOB_COMPLETING, JOB_PENDING, JOB_RUNNING, JOB_STATE_BASE, JOB_SUSPENDED } from '../plugin-api/records.js';
import { isFinished } from '../core/job-state.js';
import type { Controller } from './controller.js';
import type { CtldJob, KillCause } from './job.js';
import { resumeJob, suspendJob, type JobSignaller } from './suspend.js';

/** What preemption needs of the batch-job machinery (BatchJobs). */
export interface Preemptor extends JobSignaller {
  cancel(job: CtldJob, cause: KillCause): Promise<void>;
  requeueable(job: CtldJob): boolean;
}

/**
 * The running jobs `job` may preempt on `nodes`, the ones to give up first first: lowest
 * PriorityTier, then lowest priority, then the most recently started (Slurm's order). Null
 * when preemption is off, none qualifies, or an earlier preemption for `job` is still under way.
 */
export function preemptionCandidates(ctl: Controller, job: CtldJob, nodes: Bitstr): job_record_t[] | null {
  if (ctl.options.config.preempt.type === 'preempt/none') return null;
  if (preemptionInProgress(ctl, job)) return null;
  const tier = partitionOf(ctl, job.record.partition)?.priorityTier ?? 1;
  const victims = ctl.runningJobs().filter((other) => {
    if (other === job || other.killCause !== undefined) return false;
    if ((other.record.job_state & JOB_STATE_BASE) !== JOB_RUNNING || other.record.node_bitmap === null) return false;
    const part = partitionOf(ctl, other.record.partition);
    if (part === undefined || part.preemptMode === 'OFF' || part.priorityTier >= tier) return false;
    return other.record.node_bitmap.overlap(nodes) > 0;
  });
  if (victims.length === 0) return null;
  const tierOf = (j: CtldJob) => partitionOf(ctl, j.record.partition)?.priorityTier ?? 1;
  victims.sort((a, b) => tierOf(a) - tierOf(b) || a.record.priority - b.record.priority || b.record.start_time - a.record.start_time);
  return victims.map((v) => v.record);
}

/**
 * Preempts the jobs select named for `preemptor`, each by its partition's mode. Returns true
 * when their resources are free now (all were suspended), so the preemptor may start at once.
 */
export async function preemptJobs(ctl: Controller, batch: Preemptor, preemptor: CtldJob, victims: readonly number[]): Promise<boolean> {
  let freedNow = true;
  for (const id of victims) {
    const victim = ctl.jobs.get(id);
    if (victim === undefined) continue;
    const mode = partitionOf(ctl, victim.record.partition)?.preemptMode ?? 'CANCEL';
    ctl.log.info(`preempted job ${id} (${mode.toLowerCase()}) to start job ${preemptor.record.job_id}`);
    if (mode === 'SUSPEND') {
      await suspendJob(ctl, batch, victim, false);
      victim.preemptedBy = preemptor.record.job_id;
      await ctl.journalProgress(victim);
      continue;
    }
    freedNow = false;
    if (mode === 'REQUEUE' && batch.requeueable(victim)) {
      // As for tscontrol requeue: held back for the credentials' lifetime (see admin-handlers).
      const now = Math.floor(Date.now() / 1000);
      victim.desc = { ...victim.desc, beginTime: now + Math.ceil((121 * ctl.options.minuteSeconds) / 60) };
      victim.record.submit_time = now;
      await batch.cancel(victim, 'PREEMPT_REQUEUE');
    } else {
      await batch.cancel(victim, 'PREEMPTED');
    }
  }
  preemptor.preempting = freedNow ? undefined : [...victims];
  await ctl.journalProgress(preemptor);
  return freedNow;
}

/**
 * At the start of a pass, among `jobs` (the pass's jobs with a preemptor): those suspended by
 * preemption resume once their preemptor no longer runs, if select_p_job_resume can give them
 * their resources back.
 */
export async function resumePreempted(ctl: Controller, batch: JobSignaller, jobs: Iterable<CtldJob>): Promise<void> {
  for (const job of jobs) {
    if (job.preemptedBy === undefined || (job.record.job_state & JOB_STATE_BASE) !== JOB_SUSPENDED || job.killCause !== undefined) continue;
    const preemptor = ctl.jobs.get(job.preemptedBy);
    if (preemptor !== undefined && holdsResources(preemptor)) continue;
    const rc = await resumeJob(ctl, batch, job, false);
    if (rc === 0) ctl.log.info(`job ${job.record.job_id} resumed (its preemptor ${job.preemptedBy ?? ''} is gone)`);
  }
}

// The jobs this one preempted (cancelled or requeued) still hold their resources.
function preemptionInProgress(ctl: Controller, job: CtldJob): boolean {
  if (!job.preempting) return false;
  const waiting = job.preempting.some((id) => {
    const victim = ctl.jobs.get(id);
    return victim !== undefined && holdsResources(victim);
  });
  if (!waiting) job.preempting = undefined;
  return waiting;
}

// Running, suspended, or ending but not yet ended.
function holdsResources(job: CtldJob): boolean {
  const base = job.record.job_state & JOB_STATE_BASE;
  if (base === JOB_PENDING) return false;
  if (base === JOB_RUNNING || base === JOB_SUSPENDED || (job.record.job_state & JOB_COMPLETING) !== 0) return true;
  return isFinished(job.record.job_state) && job.stepdPid !== undefined;
}

function partitionOf(ctl: Controller, name: string): PartitionConfig | undefined {
  return ctl.options.config.partitions.find((p) => p.name === name);
}
