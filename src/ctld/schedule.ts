// One scheduling pass (slurmctld's schedule()): every pending job is checked for what the
// controller itself decides — a hold, a begin time, a dependency, the partition's state, the
// array's limit of running tasks — with Slurm's pending reason when it must wait; the sched
// plugin then starts what it chooses among the rest through `ctx.start` (select RUN_NOW,
// job_begin, job_ready, then the batch step).
import { errnoValue } from '../core/errno.js';
import { INFINITE } from '../core/slurm-constants.js';
import { SLURM_SUCCESS } from '../plugin-api/common.js';
import type { Bitstr, job_record_t } from '../plugin-api/records.js';
import type { SchedContext, SchedStartResult, SchedWillRunResult } from '../plugin-api/sched.js';
import { SELECT_MODE_RUN_NOW } from '../plugin-api/select.js';
import { nodeCountsOf } from '../interfaces/select.js';
import type { Controller } from './controller.js';
import { dependencyState } from './dependencies.js';
import type { CtldJob } from './job.js';
import type { PartitionConfig } from '../config/types.js';
import { JOB_PENDING, JOB_STATE_BASE } from '../plugin-api/records.js';
import { applyReservationLimits, reservationLimits } from './reservation-fit.js';
import { dropEstimates, estimateStarts } from './expected-start.js';
import { preemptionCandidates, preemptJobs, resumePreempted, type Preemptor } from './preempt.js';
import { PassCache } from './pass-cache.js';
import { PassNodes } from './pass-nodes.js';
import { assignCpuIds } from './cpu-ids.js';

export interface Launcher extends Preemptor {
  /** Starts the batch step of a job that was just given resources. */
  launch(job: CtldJob): Promise<void>;
  /** Ends a job the controller gave up on (a dependency that can never be met). */
  cancelPending(job: CtldJob, reason: string): Promise<void>;
}

/**
 * What one pass did and how long its parts took (Slurm's sdiag shows the like): the scan of
 * the queue for jobs that may start, the sched plugin's loop, the expected starts after it.
 */
export interface PassStats {
  readonly pending: number;
  readonly eligible: number;
  readonly started: number;
  readonly queueMs: number;
  readonly schedMs: number;
  readonly estimateMs: number;
}

export async function schedulePass(ctl: Controller, launcher: Launcher, signal: AbortSignal): Promise<PassStats> {
  const now = ctl.now();
  const began = performance.now();
  // Slurm removes a reservation at its end.
  ctl.reservations.purgeEnded(now);
  // One walk over the jobs (100,000 of them cost more in memory traffic than in work): those
  // pending, those holding nodes (for the node states), those preemption suspended.
  const pending: CtldJob[] = [];
  const holding: CtldJob[] = [];
  const preempted: CtldJob[] = [];
  for (const job of ctl.jobs.values()) {
    const r = job.record;
    if ((r.job_state & JOB_STATE_BASE) === JOB_PENDING && job.unjournaled !== true) pending.push(job);
    if (r.node_bitmap !== null) holding.push(job);
    if (job.preemptedBy !== undefined) preempted.push(job);
  }
  // Jobs preemption suspended take their resources back first once their preemptor is gone.
  await resumePreempted(ctl, launcher, preempted);
  const partitions = new Map(ctl.options.config.partitions.map((p) => [p.name, p]));
  const eligible: CtldJob[] = [];
  const byRecord = new Map<job_record_t, CtldJob>();
  // The eligible jobs whose reason is Resources, kept as reasons change: the expected starts
  // are worked out for them alone, without a walk over the whole queue.
  const resources = new Set<CtldJob>();
  const reasonChanged = (job: CtldJob, before: string) => {
    if (job.reason === 'Resources') resources.add(job);
    else if (before === 'Resources') resources.delete(job);
  };
  for (const job of pending) {
    // Only a dependency may need to wait on the journal or cancel the job.
    const reason = job.dependency === undefined ? ownReason(job, now) ?? limitReason(ctl, job, now, partitions) : await waitReason(ctl, job, now, launcher, partitions);
    if (reason === undefined) {
      if (job.eligibleTime === 0) job.eligibleTime = now;
      eligible.push(job);
      byRecord.set(job.record, job);
      if (job.reason === 'Resources') resources.add(job);
    } else if (reason !== job.reason) {
      job.reason = reason;
    }
  }
  const stats = { pending: pending.length, eligible: eligible.length, started: 0, queueMs: 0, schedMs: 0, estimateMs: 0 };
  if (eligible.length === 0) {
    // Nothing waits for resources: no job keeps an estimate.
    dropEstimates(ctl.estimated);
    return { ...stats, queueMs: performance.now() - began };
  }
  // Plugins read node_state: ALLOCATED/MIXED/IDLE as the running jobs leave them now.
  ctl.nodeStates.refresh(holding);
  const nodes = new PassNodes(ctl.table);
  const cache = new PassCache(ctl.reservations.count > 0);
  const ctx: SchedContext = {
    now,
    signal,
    pending: () => eligible.map((job) => job.record),
    running: () => ctl.runningJobs().map((job) => job.record),
    nodes: () => ctl.table.nodes,
    bit_alloc: () => ctl.table.emptyBitmap(),
    will_run: (record, avail) => cache.plan(record, avail, isReserved(byRecord.get(record)), () => willRun(ctl, record, nodes, avail)),
    start: async (record, avail, timeLimit) => {
      const job = byRecord.get(record);
      const before = job?.reason;
      const result = timeLimit === undefined ? await start(ctl, launcher, job, nodes, cache, avail) : await startShortened(ctl, launcher, job, nodes, cache, avail, timeLimit);
      if (job !== undefined && job.reason !== before) reasonChanged(job, before!);
      if (result.nodes !== undefined) stats.started++;
      return result;
    },
    part_nodes: (partition) => ctl.table.partitionBitmap(partition),
    set_reason: (record, reason) => {
      const job = byRecord.get(record);
      if (job === undefined || job.reason === reason) return;
      const before = job.reason;
      job.reason = reason;
      reasonChanged(job, before);
    },
  };
  const schedBegan = performance.now();
  stats.queueMs = schedBegan - began;
  const rc = await ctl.sched.schedule(ctx);
  const estimateBegan = performance.now();
  stats.schedMs = estimateBegan - schedBegan;
  if (rc !== SLURM_SUCCESS) ctl.log.error(`sched: scheduling pass failed (rc ${rc})`);
  await estimateStarts(resources, ctl.estimated, (record) => cache.plan(record, undefined, isReserved(byRecord.get(record)), () => willRun(ctl, record, nodes)), ctl.table);
  stats.estimateMs = performance.now() - estimateBegan;
  ctl.log.debug(
    `sched: pass: started ${stats.started} of ${stats.eligible} eligible (${stats.pending} pending); ` +
      `queue ${stats.queueMs.toFixed(1)} ms, ${ctl.sched.type} ${stats.schedMs.toFixed(1)} ms, estimates ${stats.estimateMs.toFixed(1)} ms`,
  );
  return stats;
}

/** Why the job must wait, whatever the resources; undefined when it may start. */
async function waitReason(ctl: Controller, job: CtldJob, now: number, launcher: Launcher, partitions: ReadonlyMap<string, PartitionConfig>): Promise<string | undefined> {
  const own = ownReason(job, now);
  if (own !== undefined) return own;
  if (job.dependency) {
    const state = dependencyState(job, ctl, now);
    if (state === 'waiting') return 'Dependency';
    if (state === 'never') {
      if (job.desc.killOnInvalidDep) await launcher.cancelPending(job, 'DependencyNeverSatisfied');
      return 'DependencyNeverSatisfied';
    }
    job.dependency = undefined;
    await ctl.journalProgress(job);
  }
  return limitReason(ctl, job, now, partitions);
}

// A hold or a begin time.
function ownReason(job: CtldJob, now: number): string | undefined {
  if (job.held === 'user' || (job.held === undefined && job.record.priority === 0)) return 'JobHeldUser';
  if (job.held === 'admin') return 'JobHeldAdmin';
  if (job.desc.beginTime > now) return 'BeginTime';
  return undefined;
}

// The partition's state and limits, the array's limit of running tasks, the reservations.
function limitReason(ctl: Controller, job: CtldJob, now: number, partitions: ReadonlyMap<string, PartitionConfig>): string | undefined {
  const partition = partitions.get(job.record.partition);
  if (partition && partition.state !== 'UP') return partition.state === 'DOWN' ? 'PartitionDown' : 'PartitionInactive';
  // Limits are checked at submit; a job recovered under a cluster file with lower limits waits.
  if (partition && partition.maxTime !== INFINITE && job.record.time_limit !== INFINITE && job.record.time_limit > partition.maxTime) {
    return 'PartitionTimeLimit';
  }
  if (partition && partition.maxNodes !== INFINITE && job.record.details.min_nodes > partition.maxNodes) return 'PartitionNodeLimit';
  if (job.arrayJobId !== 0 && job.arrayMaxRunning !== undefined && runningTasks(ctl, job.arrayJobId) >= job.arrayMaxRunning) {
    return 'JobArrayTaskLimit';
  }
  return reservationLimits(ctl, job, now).wait;
}

function isReserved(job: CtldJob | undefined): boolean {
  return job?.desc.reservation !== undefined;
}

function runningTasks(ctl: Controller, arrayJobId: number): number {
  return (ctl.arrays.get(arrayJobId) ?? []).filter((t) => t.record.start_time > 0 && (t.stepdPid !== undefined || t.batchNode !== undefined)).length;
}

/** A job's candidate nodes: `now` to start on at once, `configured` to ever run on. */
interface Candidates {
  readonly now: Bitstr;
  readonly configured: Bitstr;
  /** Nodes MAINT reservations hold during the job's run, or null. */
  readonly maint: Bitstr | null;
}

/**
 * The nodes a job may use: its partition's usable ones, minus -x, within `avail`, as the
 * reservations allow (`configured`: its reservation's nodes only, whatever their state).
 * A job with none of these gets the pass's shared bitmaps, unchanged and uncopied.
 */
function candidatesFor(ctl: Controller, job: CtldJob | undefined, record: job_record_t, nodes: PassNodes, avail?: Bitstr): Candidates {
  const limits = job ? reservationLimits(ctl, job, ctl.now()) : undefined;
  const excluded = record.details.exc_node_bitmap;
  const only = limits?.only ?? null;
  if (excluded === null && only === null && (limits?.blocked ?? null) === null && avail === undefined) {
    return { now: nodes.partitionUsable(record.partition), configured: nodes.partition(record.partition), maint: null };
  }
  // Copies only where the job narrows the partition's bitmaps.
  let configured = nodes.partition(record.partition);
  let now: Bitstr;
  if (excluded !== null || only !== null) {
    configured = configured.copy();
    if (excluded) configured.andNot(excluded);
    if (only) configured.and(only);
    now = configured.copy().and(nodes.usable);
  } else {
    now = nodes.partitionUsable(record.partition).copy();
  }
  if (avail) now.and(avail);
  if (limits) applyReservationLimits(now, limits);
  return { now, configured, maint: limits?.maint ?? null };
}

// Slurm shows ReqNodeNotAvail when the nodes the job named are what is missing (reserved ones:
// "May be reserved for other job"), and "Reserved for maintenance" when only a MAINT
// reservation stands in the way (observed on Slurm 22.05).
async function pendingReason(ctl: Controller, job: CtldJob, usable: Bitstr, now: Bitstr, maint: Bitstr | null): Promise<string> {
  const named = job.record.details.req_node_bitmap;
  if (named && !named.isSubsetOf(now) && named.isSubsetOf(usable)) return 'ReqNodeNotAvail, May be reserved for other job';
  if (named && !named.isSubsetOf(usable)) return 'ReqNodeNotAvail';
  if (maint !== null && maint.setCount() > 0) {
    const withMaint = now.copy().or(maint);
    withMaint.and(usable);
    const test = await ctl.select.jobTest({ job: job.record, bitmap: withMaint, ...nodeCountsOf(job.record), mode: SELECT_MODE_RUN_NOW, preemptee_candidates: null, exc_core_bitmap: null });
    if (test.nodes !== undefined) return 'ReqNodeNotAvail, Reserved for maintenance';
  }
  return 'Resources';
}

async function willRun(ctl: Controller, record: job_record_t, nodes: PassNodes, avail?: Bitstr): Promise<SchedWillRunResult> {
  const { now } = candidatesFor(ctl, ctl.jobs.get(record.job_id), record, nodes, avail);
  const answer = await ctl.select.willRun(record, now);
  if (answer.nodes === undefined) return { rc: answer.rc };
  return { rc: SLURM_SUCCESS, start_time: answer.start_time ?? ctl.now(), nodes: answer.nodes };
}

/**
 * Starts a job with a time limit cut down to `limit` (backfill's --time-min: no lower than the
 * job's TimeMin, no higher than its limit); it keeps its own limit if it does not start. The
 * shorter limit is what it runs with: show job and the time-limit check see it.
 */
async function startShortened(ctl: Controller, launcher: Launcher, job: CtldJob | undefined, nodes: PassNodes, cache: PassCache, avail: Bitstr | undefined, limit: number): Promise<SchedStartResult> {
  if (job === undefined) return start(ctl, launcher, job, nodes, cache, avail);
  const own = job.record.time_limit;
  const min = job.record.time_min ?? 0;
  if (min <= 0 || limit < min || (own !== INFINITE && limit >= own)) return { rc: errnoValue('ESLURM_INVALID_TIME_MIN_LIMIT'), reason: job.reason };
  job.record.time_limit = limit;
  // Not the cache of failures: they were found with the job's own limit.
  const result = await start(ctl, launcher, job, nodes, new PassCache(false), avail);
  if (result.nodes === undefined) job.record.time_limit = own;
  else ctl.log.info(`sched: JobId=${job.record.job_id} time limit changed from ${own} to ${limit}`);
  return result;
}

async function start(
  ctl: Controller,
  launcher: Launcher,
  job: CtldJob | undefined,
  nodes: PassNodes,
  cache: PassCache,
  avail?: Bitstr,
): Promise<SchedStartResult> {
  if (job === undefined) return { rc: errnoValue('ESLURM_INVALID_JOB_ID'), reason: 'None' };
  if (job.arrayJobId !== 0 && job.arrayMaxRunning !== undefined && runningTasks(ctl, job.arrayJobId) >= job.arrayMaxRunning) {
    job.reason = 'JobArrayTaskLimit';
    return { rc: errnoValue('ESLURM_NODES_BUSY'), reason: job.reason };
  }
  const known = cache.failure(job.record, avail, isReserved(job));
  if (known !== undefined) {
    job.reason = known.reason;
    return known;
  }
  const { now, configured, maint } = candidatesFor(ctl, job, job.record, nodes, avail);
  let result = await ctl.select.allocate(job.record, now, configured, undefined, preemptionCandidates(ctl, job, now));
  if (result.status === 'preempt') {
    const freed = await preemptJobs(ctl, launcher, job, result.victims);
    result = freed ? await ctl.select.allocate(job.record, now, configured) : { status: 'pending', rc: errnoValue('ESLURM_NODES_BUSY'), reason: 'Resources' };
  }
  if (result.status === 'preempt') return { rc: errnoValue('ESLURM_NODES_BUSY'), reason: (job.reason = 'Resources') };
  if (result.status === 'pending') {
    job.reason = await pendingReason(ctl, job, nodes.usable, now, maint);
    const failed = { rc: result.rc, reason: job.reason };
    cache.rememberFailure(job.record, avail, isReserved(job), failed);
    return failed;
  }
  if (result.status === 'rejected') {
    job.reason = 'BadConstraints';
    return { rc: result.rc, reason: job.reason };
  }
  const record = job.record;
  record.node_bitmap = result.job.node_bitmap;
  record.nodes = result.job.nodes;
  record.job_resrcs = result.job_resources;
  assignCpuIds(ctl, job);
  await launcher.launch(job);
  return { rc: SLURM_SUCCESS, nodes: result.job.node_bitmap! };
}
