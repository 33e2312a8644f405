// What the steps of a job used, as the controller keeps it (slurmctld's jobacct of each step
// record): the latest live sample of a running step (sent by its tsrun, or by the batch step,
// every JobAcctGatherFrequency seconds) and the final figures a step's end brings (step-end,
// tsrun's `complete` for the step of its own job, the batch step's result). Kept on the job
// (`stepUsage`, by step id: `0`, `1`, `batch`) as long as the job is: tssstat reads the live
// ones, the accounting store the final ones.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { UserError } from '../core/errors.js';
import { LIVE_USAGE_FILE } from '../stepd/usage/batch-usage.js';
import { jobDirFiles } from '../stepd/batch-spec.js';
import { localHostPaths } from '../stepd/node-daemon/local-host-paths.js';
import { JOB_RUNNING, JOB_STATE_BASE } from '../plugin-api/records.js';
import type { StepUsage } from '../protocol/step-usage.js';
import type { StepStats } from '../protocol/ctld-answers.js';
import type { Controller } from './controller.js';
import type { CtldJob } from './job.js';

/** What stepStats needs of a step the controller lists (step-registry.ts's StepView). */
interface ListedStep {
  jobId: number;
  stepId: number | 'batch';
  nodes: string;
  ntasks: number;
}

export type { StepStats, StepUsage };

/** Records what step `stepId` of the job used so far (or in all, at its end). */
export function recordStepUsage(job: CtldJob | undefined, stepId: number | 'batch', usage: StepUsage | undefined): void {
  if (!job || !usage) return;
  job.stepUsage = { ...job.stepUsage, [String(stepId)]: usage };
}


/**
 * The running steps of a running job (`12`) or one of them (`12.0`, `12.batch`) with their
 * latest figures: those the controller lists (steps-of-a-job registry, the batch step), and the
 * step of a job tsrun made itself, known by its samples. A job that is not running has none.
 */
export function stepStats(ctl: Controller, listed: ListedStep[], id: string): StepStats[] {
  const match = /^(\d+)(?:\.(\d+|batch))?$/.exec(id.trim());
  if (!match) throw UserError.fromErrno('ESLURM_INVALID_JOB_ID');
  const job = ctl.jobs.get(Number(match[1]));
  if (!job || (job.record.job_state & JOB_STATE_BASE) !== JOB_RUNNING) return [];
  const usage = { ...liveBatchUsage(ctl, job), ...job.stepUsage };
  const rows: StepStats[] = listed.map((step) => ({
    jobId: step.jobId,
    stepId: step.stepId,
    nodes: step.nodes,
    ntasks: step.ntasks,
    ...(usage[String(step.stepId)] && { usage: usage[String(step.stepId)] }),
  }));
  // tsrun's own job: its step 0 is known to the controller by its samples only.
  if (!rows.some((row) => row.stepId === 0) && usage['0'] && job.desc.script === '') {
    const nodes = job.record.node_bitmap ? ctl.table.hostlistFromBitmap(job.record.node_bitmap) : '';
    rows.push({ jobId: job.record.job_id, stepId: 0, nodes, ntasks: usage['0'].ntasks ?? 1, usage: usage['0'] });
  }
  const wanted = match[2];
  const sorted = rows.sort((a, b) => order(a.stepId) - order(b.stepId));
  return wanted === undefined ? sorted : sorted.filter((row) => String(row.stepId) === wanted);
}

/** The batch step's latest sample, where the embedded step host runs it (in its spool). */
function liveBatchUsage(ctl: Controller, job: CtldJob): Record<string, StepUsage> {
  try {
    const file = path.join(jobDirFiles(localHostPaths(ctl.options.stateDir).spool, job.record.job_id).dir, LIVE_USAGE_FILE);
    return { batch: JSON.parse(readFileSync(file, 'utf8')) as StepUsage };
  } catch {
    return {};
  }
}

const order = (stepId: number | 'batch'): number => (stepId === 'batch' ? -1 : stepId);
