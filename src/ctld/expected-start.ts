// The expected start of pending jobs (what `tsqueue --start` and `tscontrol show job` show for
// a pending job): after each scheduling pass, select's WILL_RUN for the highest-priority jobs
// still waiting for resources, kept on the job with the nodes it would get (SchedNodeList).
// Like Slurm's backfill estimate it accounts for the running jobs' time limits; unlike it,
// not for the pending jobs ahead in the queue (README: differences from Slurm).
import { JOB_PENDING, JOB_STATE_BASE, type job_record_t } from '../plugin-api/records.js';
import type { SchedWillRunResult } from '../plugin-api/sched.js';
import type { CtldJob } from './job.js';
import type { NodeTable } from './node-table.js';

/** Jobs estimated per pass: each costs one WILL_RUN test. */
const MAX_ESTIMATES = 100;

/** Estimated: jobs waiting for nodes alone (a `Priority` job's estimate would ignore the jobs ahead of it). */
const ESTIMATED = new Set(['Resources']);

export async function estimateStarts(
  jobs: readonly CtldJob[],
  willRun: (record: job_record_t) => Promise<SchedWillRunResult>,
  table: NodeTable,
): Promise<void> {
  const waiting = jobs.filter((job) => {
    const pending = (job.record.job_state & JOB_STATE_BASE) === JOB_PENDING && job.record.node_bitmap === null;
    if (!pending || !ESTIMATED.has(job.reason)) {
      if (job.expectedStart !== undefined) job.expectedStart = undefined;
      if (job.schedNodes !== undefined) job.schedNodes = undefined;
      return false;
    }
    return true;
  });
  waiting.sort((a, b) => b.record.priority - a.record.priority || a.record.job_id - b.record.job_id);
  for (const [k, job] of waiting.entries()) {
    const plan = k < MAX_ESTIMATES ? await willRun(job.record) : undefined;
    job.expectedStart = plan?.nodes ? plan.start_time : undefined;
    job.schedNodes = plan?.nodes ? table.hostlistFromBitmap(plan.nodes) : undefined;
  }
}
