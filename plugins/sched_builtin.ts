// sched/builtin: first in, first out by priority (Slurm's src/plugins/sched/builtin, API 110;
// the jobs themselves are started by slurmctld's schedule() in job_scheduler.c). Pending jobs
// are tried highest priority first, then oldest; the first one that does not fit for want of
// resources stops the pass, and every job behind it waits with reason Priority. A job that
// cannot start for a reason of its own (a required node down, ...) keeps that reason and holds
// no one back: schedule() blocks only on ESLURM_NODES_BUSY.
import {
  SLURM_SUCCESS,
  SLURM_VERSION_NUMBER,
  errnoValue,
  type job_record_t,
  type PluginHost,
  type PluginLog,
  type Rc,
  type SchedContext,
} from '../src/plugin-api/index.js';

export const plugin_name = 'Slurm Built-in Scheduler plugin';
export const plugin_type = 'sched/builtin';
export const plugin_version = SLURM_VERSION_NUMBER(0, 1, 0);

const ESLURM_NODES_BUSY = errnoValue('ESLURM_NODES_BUSY');

let log: PluginLog | undefined;
// Slurm's plugin-global errno: nothing here fails, so it stays SLURM_SUCCESS.
const plugin_errno: number = SLURM_SUCCESS;

export function init(host: PluginHost): Rc {
  log = host.log;
  log.verbose('sched: Built-in scheduler plugin loaded');
  return SLURM_SUCCESS;
}

// Slurm's sort_job_queue order: priority descending, then submit time, then job id.
function byPriority(a: job_record_t, b: job_record_t): number {
  return b.priority - a.priority || a.submit_time - b.submit_time || a.job_id - b.job_id;
}

// A start that failed because the nodes are busy now, not because of the job itself.
function lacksResources(rc: Rc, reason: string): boolean {
  return rc === ESLURM_NODES_BUSY || reason === 'Resources';
}

/** One FIFO pass: start jobs in priority order until one does not fit. */
export async function slurm_sched_p_schedule(ctx: SchedContext): Promise<Rc> {
  // Held jobs (priority 0) are never candidates, as in Slurm's build_job_queue.
  const queue = ctx.pending().filter((job) => job.priority > 0).sort(byPriority);
  let started = 0;
  let i = 0;
  for (; i < queue.length; i++) {
    if (ctx.signal.aborted) return SLURM_SUCCESS;
    const job = queue[i]!;
    const result = await ctx.start(job);
    if (result.nodes !== undefined) {
      started++;
      log?.verbose(`sched: Allocate JobId=${job.job_id} Partition=${job.partition}`);
      continue;
    }
    // ctx.start has recorded result.reason on the job (Resources, ReqNodeNotAvail, ...).
    if (lacksResources(result.rc, result.reason)) break;
  }
  for (const job of queue.slice(i + 1)) {
    if (ctx.signal.aborted) break;
    ctx.set_reason(job, 'Priority');
  }
  if (i < queue.length) log?.debug(`sched: JobId=${queue[i]!.job_id} blocks ${queue.length - i - 1} job(s) behind it`);
  log?.debug(`sched: started ${started} of ${queue.length} pending job(s)`);
  return SLURM_SUCCESS;
}

export function slurm_sched_p_reconfig(): Rc {
  return SLURM_SUCCESS;
}

export function slurm_sched_p_newalloc(_job_ptr: job_record_t): Rc {
  return SLURM_SUCCESS;
}

export function slurm_sched_p_freealloc(_job_ptr: job_record_t): Rc {
  return SLURM_SUCCESS;
}

// Slurm's builtin defers to priority/basic's priority_p_set: one less than the previous
// job's, less the job's --nice, never below 1 (0 would hold the job). Observed on 22.05:
// `--nice=100` submitted fourth gets 0xffff0000-4-100; the count goes on from 0xffff0000-4.
export function slurm_sched_p_initial_priority(last_prio: number, job_ptr: job_record_t): number {
  return Math.max(1, (last_prio >= 2 ? last_prio - 1 : 1) - (job_ptr.details.nice ?? 0));
}

export function slurm_sched_p_job_is_pending(): void {}

export function slurm_sched_p_partition_change(): void {}

export function slurm_sched_p_get_errno(): number {
  return plugin_errno;
}

export function slurm_sched_p_strerror(_errnum: number): string | null {
  return null;
}

export function slurm_sched_p_requeue(_job_ptr: job_record_t, _reason: string): void {}

export function slurm_sched_p_get_conf(): string | null {
  return null;
}
