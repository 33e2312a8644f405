// The expected start of pending jobs (what `tsqueue --start` and `tscontrol show job` show for
// a pending job): after each scheduling pass, select's WILL_RUN for the highest-priority jobs
// still waiting for resources (reason Resources), kept on the job with the nodes it would get
// (SchedNodeList), and taken off the jobs that no longer wait so.
// Like Slurm's backfill estimate it accounts for the running jobs' time limits; unlike it,
// not for the pending jobs ahead in the queue (README: differences from Slurm).
import { JOB_PENDING, JOB_STATE_BASE, type job_record_t } from '../plugin-api/records.js';
import type { SchedWillRunResult } from '../plugin-api/sched.js';
import type { CtldJob } from './job.js';
import type { NodeTable } from './node-table.js';

/** Jobs estimated per pass: each costs one WILL_RUN test. */
const MAX_ESTIMATES = 100;

/**
 * `waiting`: the pass's jobs whose reason is Resources (a pass knows them without a walk over
 * the queue: 100,000 jobs cost more in memory traffic than their few estimates); `estimated`:
 * the jobs that carry an estimate from an earlier pass, left with this pass's.
 */
export async function estimateStarts(
  waiting: Iterable<CtldJob>,
  estimated: Set<CtldJob>,
  willRun: (record: job_record_t) => Promise<SchedWillRunResult>,
  table: NodeTable,
): Promise<void> {
  const candidates = [...waiting].filter((job) => (job.record.job_state & JOB_STATE_BASE) === JOB_PENDING && job.record.node_bitmap === null && job.reason === 'Resources');
  candidates.sort((a, b) => b.record.priority - a.record.priority || a.record.job_id - b.record.job_id);
  const now = new Set<CtldJob>();
  for (const job of candidates.slice(0, MAX_ESTIMATES)) {
    const plan = await willRun(job.record);
    job.expectedStart = plan.nodes ? plan.start_time : undefined;
    job.schedNodes = plan.nodes ? table.hostlistFromBitmap(plan.nodes) : undefined;
    if (plan.nodes) now.add(job);
  }
  dropEstimates(estimated, now);
  for (const job of now) estimated.add(job);
}

/** Takes the estimate off every job of `estimated` but those in `keep`, and empties it. */
export function dropEstimates(estimated: Set<CtldJob>, keep: ReadonlySet<CtldJob> = new Set()): void {
  for (const job of estimated) {
    if (keep.has(job)) continue;
    job.expectedStart = undefined;
    job.schedNodes = undefined;
  }
  estimated.clear();
}
