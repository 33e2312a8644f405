// sched/backfill: priority order like sched/builtin, but a job that cannot start does not stop
// the pass. Each blocked job gets a reservation — where and when select's WILL_RUN says it
// would start — and a lower-priority job may start now only on nodes outside every
// reservation it would overlap in time: it must end (start + time limit) before the
// reservation begins, or leave its nodes alone. So a backfilled job never delays the expected
// start of a job ahead of it (Slurm's src/plugins/sched/backfill, without its time slicing).
import {
  SLURM_SUCCESS,
  SLURM_VERSION_NUMBER,
  INFINITE,
  errnoValue,
  type Bitstr,
  type job_record_t,
  type PluginHost,
  type PluginLog,
  type Rc,
  type SchedContext,
} from '../src/plugin-api/index.js';

export const plugin_name = 'Slurm Backfill Scheduler plugin';
export const plugin_type = 'sched/backfill';
export const plugin_version = SLURM_VERSION_NUMBER(0, 1, 0);

const ESLURM_NODES_BUSY = errnoValue('ESLURM_NODES_BUSY');

let log: PluginLog | undefined;

export function init(host: PluginHost): Rc {
  log = host.log;
  log.verbose('sched: Backfill scheduler plugin loaded');
  return SLURM_SUCCESS;
}

interface Reservation {
  job: number;
  nodes: Bitstr;
  start: number;
}

function byPriority(a: job_record_t, b: job_record_t): number {
  return b.priority - a.priority || a.submit_time - b.submit_time || a.job_id - b.job_id;
}

/** When `job` would end if started now (Infinity without a time limit). */
function endIfStartedNow(job: job_record_t, now: number): number {
  return job.time_limit === INFINITE ? Infinity : now + job.time_limit * 60;
}

/** The nodes `job` may take now without delaying any reservation it would overlap. */
function availableFor(ctx: SchedContext, job: job_record_t, reservations: readonly Reservation[]): Bitstr {
  const avail = ctx.bit_alloc();
  avail.setAll();
  const end = endIfStartedNow(job, ctx.now);
  for (const r of reservations) if (end > r.start) avail.andNot(r.nodes);
  return avail;
}

export async function slurm_sched_p_schedule(ctx: SchedContext): Promise<Rc> {
  const queue = ctx.pending().filter((job) => job.priority > 0).sort(byPriority);
  const reservations: Reservation[] = [];
  let started = 0;
  for (const job of queue) {
    if (ctx.signal.aborted) break;
    const result = await ctx.start(job, reservations.length > 0 ? availableFor(ctx, job, reservations) : undefined);
    if (result.nodes !== undefined) {
      started++;
      if (reservations.length > 0) log?.verbose(`sched: backfill: started JobId=${job.job_id} ahead of JobId=${reservations[0]!.job}`);
      continue;
    }
    if (result.rc !== ESLURM_NODES_BUSY && result.reason !== 'Resources') continue; // waits for a reason of its own
    // Blocked for resources: reserve where and when it would start, so no later job delays it.
    const plan = await ctx.will_run(job);
    if (plan.nodes !== undefined) {
      reservations.push({ job: job.job_id, nodes: plan.nodes, start: plan.start_time });
      log?.debug(`sched: backfill: JobId=${job.job_id} expected to start at ${plan.start_time}`);
    }
    ctx.set_reason(job, reservations.length > 1 ? 'Priority' : 'Resources');
  }
  log?.debug(`sched: backfill: started ${started} of ${queue.length} pending job(s)`);
  return SLURM_SUCCESS;
}

export function slurm_sched_p_initial_priority(last_prio: number, _job_ptr: job_record_t): number {
  return last_prio >= 2 ? last_prio - 1 : 1;
}

export function slurm_sched_p_reconfig(): Rc {
  return SLURM_SUCCESS;
}
