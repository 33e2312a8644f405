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

function byPriority(a: job_record_t, b: job_record_t): number {
  return b.priority - a.priority || a.submit_time - b.submit_time || a.job_id - b.job_id;
}

/** When `job` would end if started now with `limit` minutes (Infinity without a time limit). */
function endIfStartedNow(limit: number, now: number): number {
  return limit === INFINITE ? Infinity : now + limit * 60;
}

/** The job's --time-min when it is shorter than its time limit, else undefined. */
function shorterLimit(job: job_record_t): number | undefined {
  const min = job.time_min ?? 0;
  return min > 0 && (job.time_limit === INFINITE || min < job.time_limit) ? min : undefined;
}

/**
 * The pass's reservations, the nodes of those starting at the same time kept as one union (a
 * queue of many jobs has few distinct expected starts), and what they leave a job that would
 * end at a given time, kept until a reservation changes.
 */
class Reservations {
  private readonly byStart = new Map<number, Bitstr>();
  private readonly availByEnd = new Map<number, Bitstr>();
  // The node sets already merged, by start and hash: jobs of one shape get the same plan
  // (lazy copies of one bitmap, whose hash is kept and which compare equal at once), so most
  // are found here instead of being compared with the union a word at a time.
  private readonly merged = new Map<number, Map<number, Bitstr[]>>();
  first: number | undefined;

  get size(): number {
    return this.byStart.size;
  }

  add(job: number, nodes: Bitstr, start: number): void {
    this.first ??= job;
    let byHash = this.merged.get(start);
    if (byHash === undefined) this.merged.set(start, (byHash = new Map()));
    const hash = nodes.hash();
    const same = byHash.get(hash);
    if (same?.some((known) => known.equal(nodes))) return;
    if (same === undefined) byHash.set(hash, [nodes]);
    else same.push(nodes);
    const held = this.byStart.get(start);
    if (held !== undefined && nodes.isSubsetOf(held)) return;
    if (held === undefined) this.byStart.set(start, nodes.copy());
    else held.or(nodes);
    this.availByEnd.clear();
  }

  /** The nodes `job` may take now without delaying any reservation it would overlap. */
  availableFor(ctx: SchedContext, job: job_record_t, limit = job.time_limit): Bitstr {
    const end = endIfStartedNow(limit, ctx.now);
    let avail = this.availByEnd.get(end);
    if (avail === undefined) {
      avail = ctx.bit_alloc();
      avail.setAll();
      for (const [start, nodes] of this.byStart) if (end > start) avail.andNot(nodes);
      this.availByEnd.set(end, avail);
    }
    // Copied only if the host changes it (it does not): one cached bitmap serves many jobs.
    return avail.lazyCopy();
  }
}

export async function slurm_sched_p_schedule(ctx: SchedContext): Promise<Rc> {
  const queue = ctx.pending().filter((job) => job.priority > 0).sort(byPriority);
  const reservations = new Reservations();
  let started = 0;
  let planned = 0;
  for (const job of queue) {
    if (ctx.signal.aborted) break;
    const result = await ctx.start(job, reservations.size > 0 ? reservations.availableFor(ctx, job) : undefined);
    if (result.nodes !== undefined) {
      started++;
      if (reservations.first !== undefined) log?.verbose(`sched: backfill: started JobId=${job.job_id} ahead of JobId=${reservations.first}`);
      continue;
    }
    if (result.rc !== ESLURM_NODES_BUSY && result.reason !== 'Resources') continue; // waits for a reason of its own
    // --time-min: started in a hole too short for its limit, with the limit cut to TimeMin
    // (observed on 22.05: a 10-minute job with --time-min=2 started in a 5.9-minute hole runs
    // with TimeLimit=00:02:00, not the longest limit that fits).
    const min = reservations.size > 0 ? shorterLimit(job) : undefined;
    if (min !== undefined && (await ctx.start(job, reservations.availableFor(ctx, job, min), min)).nodes !== undefined) {
      started++;
      log?.verbose(`sched: backfill: started JobId=${job.job_id} with its TimeMin of ${min} minutes ahead of JobId=${reservations.first}`);
      continue;
    }
    // Blocked for resources: reserve where and when it would start, so no later job delays it.
    const plan = await ctx.will_run(job);
    if (plan.nodes !== undefined) {
      reservations.add(job.job_id, plan.nodes, plan.start_time);
      planned++;
      log?.debug(`sched: backfill: JobId=${job.job_id} expected to start at ${plan.start_time}`);
    }
    ctx.set_reason(job, planned > 1 ? 'Priority' : 'Resources');
  }
  log?.debug(`sched: backfill: started ${started} of ${queue.length} pending job(s)`);
  return SLURM_SUCCESS;
}

// priority/basic, as sched/builtin's: one below the last job's, less the job's --nice.
export function slurm_sched_p_initial_priority(last_prio: number, job_ptr: job_record_t): number {
  return Math.max(1, (last_prio >= 2 ? last_prio - 1 : 1) - (job_ptr.details.nice ?? 0));
}

export function slurm_sched_p_reconfig(): Rc {
  return SLURM_SUCCESS;
}
