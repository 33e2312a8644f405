// The state and hooks the built-in select plugins share; each plugin module makes one
// SelectCore with its engine and exports its methods under Slurm's names.
//
// Modes of select_p_job_test: TEST_ONLY places the job on the given nodes as if no job ran;
// RUN_NOW against what running jobs hold (failing with ESLURM_NODES_BUSY when the nodes could
// take it once free, else ESLURM_REQUESTED_NODE_CONFIG_UNAVAILABLE); WILL_RUN frees the
// running jobs in the order they end (start_time + time_limit) and answers the first end
// after which the job fits (now if it fits now).
import {
  INFINITE,
  JOB_COMPLETING,
  JOB_RUNNING,
  JOB_STATE_BASE,
  JOB_SUSPENDED,
  NO_VAL,
  SELECT_MODE_RUN_NOW,
  SELECT_MODE_TEST_ONLY,
  SLURM_ERROR,
  SLURM_SUCCESS,
  errnoValue,
  type Bitstr,
  type GetResult,
  type gres_spec_t,
  type PluginHost,
  type PluginLog,
  type job_record_t,
  type job_resources_t,
  type node_record_t,
  type resv_desc_msg_t,
  type Rc,
  type SelectJobTestArgs,
  type SelectJobTestResult,
  type select_plugindata_info,
  type step_record_t,
} from '../../src/plugin-api/index.js';
import { fromJobResources, toJobResources, type Allocation } from './allocation.js';
import { isSubset } from './bits.js';
import { fitShortcuts } from './fit-shortcuts.js';
import { buildCatalog, gresKnown, type NodeCatalog } from './catalog.js';
import { place, type Engine, type NodeCounts } from './place.js';
import { readRequest, type SelectRequest } from './request.js';
import { Usage } from './usage.js';
import { readSelectState, writeSelectState } from './select-state.js';
import { pickReservationNodes } from './resv-pick.js';

export interface SelectCoreOptions {
  readonly engine: Engine;
  /** The plugin allocates gres (cons_tres). Else per-job gres (--gpus) is refused. */
  readonly perJobGres: boolean;
  /** The plugin refuses every gres request (cons_res). */
  readonly noGres: boolean;
  /** Answer to SELECT_CR_PLUGIN: 1 for plugins that allocate within nodes. */
  readonly consumable: boolean;
}

interface Running {
  readonly alloc: Allocation;
  /** Unix seconds; Infinity for no time limit. */
  readonly end: number;
}

const busy = () => ({ rc: errnoValue('ESLURM_NODES_BUSY') });
const never = () => ({ rc: errnoValue('ESLURM_REQUESTED_NODE_CONFIG_UNAVAILABLE') });

export class SelectCore {
  private catalog: NodeCatalog[] = [];
  private usage = Usage.empty([]);
  private readonly running = new Map<number, Running>();
  /** Running jobs that are suspended: their allocation is kept but not counted in usage. */
  private readonly suspended = new Set<number>();
  private readonly gresKnownCache = new Map<string, boolean>();
  private emptyUsage: Usage | undefined;
  /**
   * The allocation of the last RUN_NOW answer and the job_resources given with it: the host
   * normally begins that job next, and job_begin then takes it as it is.
   */
  private offered: { alloc: Allocation; job_resources: job_resources_t; nodes: Bitstr; usage: Usage; version: number } | undefined;
  /** WILL_RUN's running jobs in end order, until a job starts, ends, is suspended or resumed. */
  private endingSorted: Running[] | undefined;
  /** WILL_RUN's kept usages: after the first k jobs of endingSorted have ended, by k. */
  private ladder: Map<number, Usage> | undefined;

  log: PluginLog | undefined;
  /** Now, Unix seconds: the host's clock (virtual in a simulation) once init has run. */
  now: () => number = () => Math.floor(Date.now() / 1000);

  constructor(private readonly options: SelectCoreOptions) {}

  /** select_p_state_save: the running jobs' allocations, with a magic number and version. */
  async state_save(dir: string): Promise<Rc> {
    const running = [...this.running].map(([job, r]) => ({ job, end: Number.isFinite(r.end) ? r.end : null, alloc: r.alloc }));
    await writeSelectState(dir, this.catalog.map((n) => n.name), running);
    return SLURM_SUCCESS;
  }

  /**
   * select_p_state_restore: takes back the saved allocations when the file is ours and the
   * node table is unchanged; anything else is logged and ignored, since select_p_job_init
   * rebuilds the same from the recovered jobs.
   */
  state_restore(dir: string): Rc {
    const state = readSelectState(dir, this.catalog.map((n) => n.name));
    if (state.problem) this.log?.error(`select: ${state.problem}; rebuilding from the jobs`);
    for (const entry of state.running) {
      this.usage.add(entry.alloc);
      this.changed(this.running.set(entry.job, { alloc: entry.alloc, end: entry.end ?? Infinity }));
    }
    return SLURM_SUCCESS;
  }

  /** select_p_node_init: (re)build the node catalog; running jobs keep their resources. */
  node_init(nodes: readonly node_record_t[]): Rc {
    this.catalog = buildCatalog(nodes);
    this.offered = undefined;
    this.gresKnownCache.clear();
    this.emptyUsage = undefined;
    this.usage = Usage.empty(this.catalog);
    for (const [jobId, job] of this.running) {
      if (job.alloc.nodes.every((n) => n.index < this.catalog.length)) this.usage.add(job.alloc);
      else this.changed(this.running.delete(jobId));
    }
    return SLURM_SUCCESS;
  }

  /** select_p_job_init: take the resources of the jobs that run (or are completing). */
  job_init(jobs: readonly job_record_t[]): Rc {
    // Restored allocations of jobs that ended meanwhile are given back.
    const holding = new Set(
      jobs
        .filter((job) => {
          const base = job.job_state & JOB_STATE_BASE;
          return base === JOB_RUNNING || base === JOB_SUSPENDED || (job.job_state & JOB_COMPLETING) !== 0;
        })
        .map((job) => job.job_id),
    );
    for (const [jobId, running] of this.running) {
      if (holding.has(jobId)) continue;
      this.usage.remove(running.alloc);
      this.changed(this.running.delete(jobId));
    }
    for (const job of jobs) {
      const base = job.job_state & JOB_STATE_BASE;
      const holds = base === JOB_RUNNING || base === JOB_SUSPENDED || (job.job_state & JOB_COMPLETING) !== 0;
      if (!holds || job.node_bitmap === null || this.running.has(job.job_id)) continue;
      const alloc = this.allocationOf(job, job.node_bitmap);
      if (alloc === null) return SLURM_ERROR;
      this.record(job, alloc);
    }
    // A suspended job gave its resources up (job_suspend); a restored allocation holds them.
    for (const job of jobs) {
      if ((job.job_state & JOB_STATE_BASE) === JOB_SUSPENDED) this.job_suspend(job, true);
    }
    return SLURM_SUCCESS;
  }

  /** select_p_job_test. */
  job_test(args: SelectJobTestArgs): SelectJobTestResult {
    const request = readRequest(args.job);
    if (request === null) return { rc: errnoValue('ESLURM_INVALID_FEATURE') };
    const refused = this.refuseGres(request);
    if (refused !== undefined) return { rc: refused };
    const counts: NodeCounts = {
      min: Math.max(args.min_nodes, 1),
      max: args.max_nodes > 0 ? Math.min(args.max_nodes, this.catalog.length) : this.catalog.length,
      req: Math.max(args.req_nodes, args.min_nodes, 1),
    };
    const attempt = (usage: Usage) => place(this.options.engine, this.catalog, request, args.bitmap, counts, usage);
    // Placing reads a usage and never changes it: one empty usage serves every probe.
    const empty = () => (this.emptyUsage ??= Usage.empty(this.catalog));
    if (args.mode === SELECT_MODE_TEST_ONLY) {
      const alloc = attempt(empty());
      return alloc ? { rc: SLURM_SUCCESS, nodes: this.bitmapOf(alloc) } : never();
    }
    if (args.mode === SELECT_MODE_RUN_NOW) {
      const alloc = attempt(this.usage);
      if (alloc) {
        const job_resources = toJobResources(alloc, this.catalog.length);
        const nodes = job_resources.node_bitmap.lazyCopy();
        this.offered = { alloc, job_resources, nodes, usage: this.usage, version: this.usage.version };
        return { rc: SLURM_SUCCESS, nodes, job_resources };
      }
      const preempting = this.preemptees(args.preemptee_candidates ?? [], attempt);
      if (preempting) {
        const { alloc: after, jobs } = preempting;
        const job_resources = toJobResources(after, this.catalog.length);
        return { rc: SLURM_SUCCESS, nodes: job_resources.node_bitmap.copy(), job_resources, preempted: jobs };
      }
      return attempt(empty()) ? busy() : never();
    }
    return this.willRun(attempt, empty);
  }

  /** select_p_job_begin: record the job's resources on job_ptr.node_bitmap; set job_resrcs. */
  job_begin(job: job_record_t): Rc {
    if (job.node_bitmap === null) return SLURM_ERROR;
    if (this.running.has(job.job_id)) return SLURM_SUCCESS;
    const offered = this.offered;
    this.offered = undefined;
    // Unchanged since job_test gave them (same object, same nodes): no need to read them back.
    if (offered && job.job_resrcs === offered.job_resources && offered.alloc.jobId === job.job_id && (job.node_bitmap === offered.nodes || sameBits(job.node_bitmap, offered.job_resources.node_bitmap))) {
      // Nothing changed since it was worked out: it fits as it did then.
      const unchanged = offered.usage === this.usage && offered.version === this.usage.version;
      if (!unchanged && !this.usage.fits(offered.alloc)) return errnoValue('ESLURM_NODES_BUSY');
      this.record(job, offered.alloc, offered.job_resources);
      return SLURM_SUCCESS;
    }
    const alloc = this.allocationOf(job, job.node_bitmap);
    if (alloc === null || !this.usage.fits(alloc)) return errnoValue('ESLURM_NODES_BUSY');
    this.record(job, alloc);
    return SLURM_SUCCESS;
  }

  /** select_p_job_ready: the job's nodes are ready once it has begun. */
  job_ready(job: job_record_t): boolean {
    return this.running.has(job.job_id);
  }

  /** select_p_job_fini: release the job's resources (SLURM_ERROR if it holds none, as Slurm). */
  job_fini(job: job_record_t): Rc {
    const running = this.running.get(job.job_id);
    if (running === undefined) return SLURM_ERROR;
    if (!this.changed(this.suspended.delete(job.job_id))) this.usage.remove(running.alloc);
    this.changed(this.running.delete(job.job_id));
    return SLURM_SUCCESS;
  }

  /**
   * select_p_job_suspend: the job's CPUs, memory and gres go back to the pool (whether an
   * administrator or preemption suspended it) until select_p_job_resume takes them again.
   */
  job_suspend(job: job_record_t, _indf_susp: boolean): Rc {
    const running = this.running.get(job.job_id);
    if (running === undefined) return SLURM_ERROR;
    if (this.suspended.has(job.job_id)) return SLURM_SUCCESS;
    this.usage.remove(running.alloc);
    this.changed(this.suspended.add(job.job_id));
    return SLURM_SUCCESS;
  }

  /** select_p_job_resume: take the job's resources again; ESLURM_NODES_BUSY while others hold them. */
  job_resume(job: job_record_t, _indf_susp: boolean): Rc {
    const running = this.running.get(job.job_id);
    if (running === undefined) return SLURM_ERROR;
    if (!this.suspended.has(job.job_id)) return SLURM_SUCCESS;
    if (!this.usage.fits(running.alloc)) return errnoValue('ESLURM_NODES_BUSY');
    this.usage.add(running.alloc);
    this.changed(this.suspended.delete(job.job_id));
    return SLURM_SUCCESS;
  }

  /** select_p_job_resized: `node` leaves the job's allocation; job_resrcs follows. */
  job_resized(job: job_record_t, node: node_record_t): Rc {
    const running = this.running.get(job.job_id);
    if (running === undefined || !running.alloc.nodes.some((n) => n.index === node.index)) return SLURM_ERROR;
    const alloc: Allocation = { ...running.alloc, nodes: running.alloc.nodes.filter((n) => n.index !== node.index) };
    if (!this.suspended.has(job.job_id)) {
      this.usage.remove(running.alloc);
      this.usage.add(alloc);
    }
    this.changed(this.running.set(job.job_id, { ...running, alloc }));
    job.job_resrcs = toJobResources(alloc, this.catalog.length);
    return SLURM_SUCCESS;
  }

  // The fewest candidates (taken in the order given: the host lists the ones it would rather
  // preempt first) whose resources make the job fit, and where it then goes; null if even all
  // of them do not make room.
  private preemptees(
    candidates: readonly job_record_t[],
    attempt: (usage: Usage) => Allocation | null,
  ): { alloc: Allocation; jobs: number[] } | null {
    if (candidates.length === 0) return null;
    const usage = this.usage.clone();
    const taken: Running[] = [];
    let fits = false;
    for (const job of candidates) {
      const running = this.running.get(job.job_id);
      if (running === undefined || this.suspended.has(job.job_id)) continue;
      usage.remove(running.alloc);
      taken.push(running);
      if (attempt(usage)) {
        fits = true;
        break;
      }
    }
    if (!fits) return null;
    // Give back, last taken first, every one the job fits without.
    for (let k = taken.length - 2; k >= 0; k--) {
      usage.add(taken[k]!.alloc);
      if (attempt(usage)) taken.splice(k, 1);
      else usage.remove(taken[k]!.alloc);
    }
    const alloc = attempt(usage);
    return alloc ? { alloc, jobs: taken.map((r) => r.alloc.jobId) } : null;
  }

  /** select_p_step_finish: steps hold nothing of their own here. */
  step_finish(_step: step_record_t, _killing: boolean): Rc {
    return SLURM_SUCCESS;
  }

  /** select_p_get_info_from_plugin. */
  get_info(dinfo: select_plugindata_info): GetResult {
    if (dinfo === 'SELECT_CR_PLUGIN') return { rc: SLURM_SUCCESS, data: this.options.consumable ? 1 : 0 };
    return { rc: SLURM_SUCCESS };
  }

  // Earliest end after which the job fits: a binary search over the running jobs in end order
  // (freeing more never makes room smaller). The first probes of every search are the same
  // (the middle, then the quarters, ...): their usages are kept, as a ladder, until a job
  // starts or ends; below the ladder one copy moves from probe to probe, freeing or taking back
  // only the jobs between the last probe and this one.
  private willRun(attempt: (usage: Usage) => Allocation | null, empty: () => Usage): SelectJobTestResult {
    const now = this.now();
    const first = attempt(this.usage);
    // With its job_resources: --test-only reports the CPUs it would get (ncpus), not whole nodes.
    if (first) return { rc: SLURM_SUCCESS, nodes: this.bitmapOf(first), job_resources: toJobResources(first, this.catalog.length), start_time: now };
    const ending = (this.endingSorted ??= [...this.running.values()]
      .filter((r) => Number.isFinite(r.end) && !this.suspended.has(r.alloc.jobId))
      .sort((a, b) => a.end - b.end));
    const ladder = (this.ladder ??= new Map());
    let moving: { usage: Usage; freed: number } | undefined;
    const afterEnding = (k: number, depth: number) => {
      if (depth < (fitShortcuts.enabled ? LADDER_DEPTH : 0)) {
        let usage = ladder.get(k);
        if (usage === undefined) ladder.set(k, (usage = this.usageAfter(k, ending, ladder)));
        return attempt(usage);
      }
      if (moving === undefined) {
        const [freed, base] = nearestBelow(ladder, k, this.usage);
        moving = { usage: base.clone(), freed };
      }
      for (; moving.freed < k; moving.freed++) moving.usage.remove(ending[moving.freed]!.alloc);
      for (; moving.freed > k; moving.freed--) moving.usage.add(ending[moving.freed - 1]!.alloc);
      return attempt(moving.usage);
    };
    let lo = 1;
    let hi = ending.length;
    let found: Allocation | null = null;
    for (let depth = 0; lo <= hi; depth++) {
      const mid = (lo + hi) >> 1;
      const alloc = afterEnding(mid, depth);
      if (alloc) {
        found = alloc;
        hi = mid - 1;
      } else {
        lo = mid + 1;
      }
    }
    if (found) return { rc: SLURM_SUCCESS, nodes: this.bitmapOf(found), job_resources: toJobResources(found, this.catalog.length), start_time: Math.max(ending[lo - 1]!.end, now) };
    return attempt(empty()) ? busy() : never();
  }

  // The usage once the first k jobs of `ending` have ended, from the nearest rung below.
  private usageAfter(k: number, ending: readonly Running[], ladder: ReadonlyMap<number, Usage>): Usage {
    const [freed, base] = nearestBelow(ladder, k, this.usage);
    const usage = base.clone();
    for (let j = freed; j < k; j++) usage.remove(ending[j]!.alloc);
    return usage;
  }

  // ESLURM_INVALID_GRES for gres this plugin does not do or no node has; else undefined.
  private refuseGres(r: SelectRequest): Rc | undefined {
    const all = [...r.gresPerNode, ...r.gresPerJob];
    if (all.length === 0) return undefined;
    if (this.options.noGres || (!this.options.perJobGres && r.gresPerJob.length > 0)) return errnoValue('ESLURM_INVALID_GRES');
    if (!all.every((spec) => this.gresConfigured(spec))) return errnoValue('ESLURM_INVALID_GRES');
    return undefined;
  }

  // gresKnown, remembered per name and type until the node table changes (it visits every node).
  private gresConfigured(spec: gres_spec_t): boolean {
    const key = `${spec.name}:${spec.type ?? ''}`;
    let known = this.gresKnownCache.get(key);
    if (known === undefined) this.gresKnownCache.set(key, (known = gresKnown(this.catalog, spec)));
    return known;
  }

  // The job's allocation on `nodes`: from its job_resrcs when they match, else chosen now.
  private allocationOf(job: job_record_t, nodes: Bitstr): Allocation | null {
    const count = nodes.setCount();
    const given = job.job_resrcs && fromJobResources(job.job_id, job.job_resrcs, this.catalog);
    if (given && given.nodes.length === count && given.nodes.every((n) => nodes.test(n.index))) {
      // Whether its cores may be shared is the job's (OverSubscribe), not in job_resrcs.
      const share = job.details.whole_node ? 1 : (job.details.max_share ?? 1);
      return this.withGresUnits(job, share > 1 ? { ...given, share } : given);
    }
    const request = readRequest(job);
    if (request === null) return null;
    const counts = { min: count, max: count, req: count };
    return place(this.options.engine, this.catalog, request, nodes, counts, this.usage);
  }

  // job_resrcs from a third party may lack unit indices: pick free ones for those entries.
  private withGresUnits(job: job_record_t, alloc: Allocation): Allocation {
    if (alloc.nodes.every((n) => n.gres.every((g) => g.indices.length > 0))) return alloc;
    const res = job.job_resrcs!;
    const nodes = alloc.nodes.map((n, k) => ({
      ...n,
      gres: n.gres.map((g, j) => {
        if (g.indices.length > 0) return g;
        const spec = res.gres_allocated[k]![j]!;
        return { ...g, indices: this.usage.freeUnitList(n.index, spec).slice(0, spec.count) };
      }),
    }));
    return { ...alloc, nodes };
  }

  // Running or suspended jobs changed: the end order is to be worked out again.
  private changed<T>(result: T): T {
    this.endingSorted = undefined;
    this.ladder = undefined;
    return result;
  }

  private record(job: job_record_t, alloc: Allocation, resources?: job_resources_t): void {
    this.usage.add(alloc);
    this.changed(this.running.set(job.job_id, { alloc, end: endOf(job, this.now()) }));
    job.job_resrcs = resources ?? toJobResources(alloc, this.catalog.length);
  }

  private bitmapOf(alloc: Allocation): Bitstr {
    return toJobResources(alloc, this.catalog.length).node_bitmap;
  }
}

/** Rungs of WILL_RUN's ladder: the probes of the first levels of its binary search (at most 2^5 - 1 usages). */
const LADDER_DEPTH = 5;

// The kept usage with the most jobs ended, but not more than k ([0, now] when none is kept).
function nearestBelow(ladder: ReadonlyMap<number, Usage>, k: number, now: Usage): [number, Usage] {
  let best: [number, Usage] = [0, now];
  for (const [freed, usage] of ladder) if (freed <= k && freed > best[0]) best = [freed, usage];
  return best;
}

// The same bits, whichever copy of the Bitstr class made each (isSubset reads public methods only).
function sameBits(a: Bitstr, b: Bitstr): boolean {
  return a.size === b.size && a.setCount() === b.setCount() && isSubset(a, b);
}

// When the job will end: start_time + time_limit (minutes); never without a limit.
function endOf(job: job_record_t, now: number): number {
  if (job.time_limit === INFINITE || job.time_limit === NO_VAL) return Infinity;
  const start = job.start_time > 0 ? job.start_time : now;
  return start + job.time_limit * 60;
}

/**
 * A SelectCore's hooks under Slurm's names, for a plugin module to export verbatim:
 * `export const { select_p_job_test, ... } = selectFunctions(core);`.
 */
export function selectFunctions(core: SelectCore) {
  return {
    init: (host: PluginHost): Rc => {
      core.log = host.log;
      // Hosts older than host.time keep the wall clock.
      if (typeof host.time === 'function') core.now = () => host.time();
      return SLURM_SUCCESS;
    },
    select_p_state_save: (dir_name: string): Promise<Rc> => core.state_save(dir_name),
    select_p_state_restore: (dir_name: string): Rc => core.state_restore(dir_name),
    select_p_node_init: (node_ptr: readonly node_record_t[]): Rc => core.node_init(node_ptr),
    select_p_job_init: (job_list: readonly job_record_t[]): Rc => core.job_init(job_list),
    select_p_job_test: (args: SelectJobTestArgs): SelectJobTestResult => core.job_test(args),
    select_p_job_begin: (job_ptr: job_record_t): Rc => core.job_begin(job_ptr),
    select_p_job_ready: (job_ptr: job_record_t): boolean => core.job_ready(job_ptr),
    select_p_job_fini: (job_ptr: job_record_t): Rc => core.job_fini(job_ptr),
    select_p_job_suspend: (job_ptr: job_record_t, indf_susp: boolean): Rc => core.job_suspend(job_ptr, indf_susp),
    select_p_job_resume: (job_ptr: job_record_t, indf_susp: boolean): Rc => core.job_resume(job_ptr, indf_susp),
    select_p_job_resized: (job_ptr: job_record_t, node_ptr: node_record_t): Rc => core.job_resized(job_ptr, node_ptr),
    // Slurm removed job expansion (select_p_job_expand): no built-in plugin moves resources between jobs.
    select_p_job_expand_allow: (): boolean => false,
    select_p_step_finish: (step_ptr: step_record_t, killing_step: boolean): Rc => core.step_finish(step_ptr, killing_step),
    select_p_get_info_from_plugin: (dinfo: select_plugindata_info, _job_ptr: job_record_t | null): GetResult => core.get_info(dinfo),
    select_p_resv_test: (_resv_desc_ptr: resv_desc_msg_t, node_cnt: number, avail_bitmap: Bitstr, _core_bitmap: Bitstr | null) => {
      const nodes = pickReservationNodes(avail_bitmap, node_cnt);
      return nodes === null ? null : { nodes };
    },
  };
}
