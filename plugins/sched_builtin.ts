// sched/builtin: first in, first out by priority (Slurm's src/plugins/sched/builtin, API 110;
// the jobs themselves are started by slurmctld's schedule() in job_scheduler.c). Pending jobs
// are tried highest priority first, then oldest; the first one of a partition that does not
// fit for want of resources blocks that partition: every later job of it waits with reason
// Priority, and later jobs of other partitions may not use its nodes (schedule()'s
// failed_parts). A job that cannot start for a reason of its own (a required node down, ...)
// keeps that reason and holds no one back: schedule() blocks only on ESLURM_NODES_BUSY.
import {
  SLURM_SUCCESS,
  SLURM_VERSION_NUMBER,
  errnoValue,
  type Bitstr,
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

/**
 * One FIFO pass, as slurmctld's schedule() runs it: jobs in priority order; a job that does
 * not fit for want of resources blocks its partition (failed_parts) — later jobs of that
 * partition wait with reason Priority — and takes that partition's nodes out of what later
 * jobs of other partitions may use, so none of them takes what it waits for; jobs of other
 * partitions still start.
 */
export async function slurm_sched_p_schedule(ctx: SchedContext): Promise<Rc> {
  // Held jobs (priority 0) are never candidates, as in Slurm's build_job_queue.
  const queue = ctx.pending().filter((job) => job.priority > 0).sort(byPriority);
  const failedParts = new Set<string>();
  // The nodes later jobs may use; undefined while no partition has failed (all of them).
  let avail: Bitstr | undefined;
  let started = 0;
  let blocked = 0;
  const signal = ctx.signal;
  for (const job of queue) {
    if (failedParts.has(job.partition)) {
      blocked++;
      ctx.set_reason(job, 'Priority');
      continue;
    }
    // Looked at before each start only: the jobs waiting behind a blocked partition cost a
    // reason each, and a 1,000-task array's tasks read the signal a thousand times a pass.
    if (signal.aborted) return SLURM_SUCCESS;
    const result = await ctx.start(job, avail?.lazyCopy());
    if (result.nodes !== undefined) {
      started++;
      log?.verbose(`sched: Allocate JobId=${job.job_id} Partition=${job.partition}`);
      continue;
    }
    // ctx.start has recorded result.reason on the job (Resources, ReqNodeNotAvail, ...).
    if (!lacksResources(result.rc, result.reason)) continue;
    failedParts.add(job.partition);
    log?.debug(`sched: JobId=${job.job_id} blocks partition ${job.partition}`);
    const partNodes = ctx.part_nodes?.(job.partition);
    if (partNodes) {
      if (!avail) {
        avail = ctx.bit_alloc();
        avail.setAll();
      }
      avail.andNot(partNodes);
    }
  }
  if (blocked > 0) log?.debug(`sched: ${blocked} job(s) wait behind the first blocked job of their partition`);
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
