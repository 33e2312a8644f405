// The select facade (Slurm's src/interfaces/select.c, select_g_*): owns the one loaded select
// plugin, fills in the documented defaults for the hooks it leaves out, checks what it
// answers, and runs the Resource Selection API's call flow. The caller hands over the plugin's
// functions (its module namespace will do). Hooks are called through the plugin host's one
// invoker (src/plugin-host/invoke.ts): a hook that throws, or an async one that does not
// settle in time, becomes a PluginError naming the plugin and the hook; an answer that breaks
// the API's invariants (select-checks.ts) does too, and the facade refuses the plugin from
// then on.
import { compressHostlistSorted } from '../core/hostlist.js';
import { PluginError } from '../core/errors.js';
import { SLURM_SUCCESS, type Rc } from '../plugin-api/common.js';
import { invokeHook, isPromise, type HookTarget, type MaybePromise } from '../plugin-host/invoke.js';
import { pluginTimeouts } from '../plugin-host/timeout.js';
import {
  JOB_COMPLETING,
  JOB_RUNNING,
  JOB_STATE_BASE,
  JOB_SUSPENDED,
  type Bitstr,
  type job_record_t,
  type job_resources_t,
  type node_record_t,
  type resv_desc_msg_t,
  type step_record_t,
} from '../plugin-api/records.js';
import {
  SELECT_MODE_RUN_NOW,
  SELECT_MODE_TEST_ONLY,
  SELECT_MODE_WILL_RUN,
  selectSymbols,
  type SelectJobTestArgs,
  type SelectJobTestResult,
} from '../plugin-api/select.js';
import { jobResourcesProblem, jobTestProblem } from './select-checks.js';
import {
  requiredSelectHooks,
  selectDefaults,
  type HookFn,
  type SelectHook,
  type SelectOps,
} from './select-defaults.js';

export type { SelectOps, SelectHook } from './select-defaults.js';

export interface SelectOptions {
  /** The plugin's `plugin_type` (`select/linear`), for messages. */
  readonly pluginType: string;
  /** The controller's state directory, for select_p_state_save/restore. Default: ''. */
  readonly stateDir?: string;
  /** How long `allocate` waits for select_p_job_ready to say yes. Default: 60 s. */
  readonly readyTimeoutMs?: number;
  /** How often it asks. Default: 100 ms. */
  readonly readyPollMs?: number;
  /** How long an async hook may take (the registry's hook timeout). Default: TSLURM_PLUGIN_TIMEOUT or 300 s. */
  readonly hookTimeoutMs?: number;
}

/** Node counts for select_p_job_test (job and partition limits combined); max 0: no limit. */
export interface NodeCountArgs {
  readonly min_nodes: number;
  readonly max_nodes: number;
  readonly req_nodes: number;
}

export type AllocateResult =
  /** Started: `job` is a copy with node_bitmap, nodes and job_resrcs set. */
  | { readonly status: 'allocated'; readonly job: job_record_t; readonly job_resources: job_resources_t }
  /** Could run some day, not now: leave it queued. */
  | { readonly status: 'pending'; readonly rc: Rc; readonly reason: string }
  /** Can never run on the configured nodes: reject it with `rc`. */
  | { readonly status: 'rejected'; readonly rc: Rc }
  /** Could run now if these running jobs (ids, from the preemption candidates) were preempted. */
  | { readonly status: 'preempt'; readonly victims: readonly number[] };

/** Slurm's node counts for a job: `-N min[-max]`; req_nodes is the maximum when given. */
export function nodeCountsOf(job: job_record_t): NodeCountArgs {
  const min = Math.max(job.details.min_nodes, 1);
  const max = job.details.max_nodes;
  return { min_nodes: min, max_nodes: max, req_nodes: max > 0 ? Math.max(max, min) : min };
}

export class Select {
  private nodes: readonly node_record_t[] = [];
  /** What select_p_node_ranking answered at start: a rank per node (lower first), or null. */
  ranks: readonly number[] | null = null;
  private refused: PluginError | undefined;
  // The plugin's functions, with the documented default for each one it leaves out.
  private readonly target: HookTarget;
  private readonly timing: { readonly timeoutMs: number };

  constructor(
    ops: SelectOps,
    private readonly options: SelectOptions,
  ) {
    const missing = requiredSelectHooks.filter((hook) => typeof ops[hook] !== 'function');
    if (missing.length > 0) {
      throw new PluginError(options.pluginType, `missing required function(s): ${missing.join(', ')}`, {
        code: 'ESLURM_PLUGIN_INCOMPLETE',
      });
    }
    const functions = new Map<string, Function>(Object.entries(selectDefaults));
    for (const hook of Object.keys(selectSymbols)) {
      const fn = (ops as Record<string, unknown>)[hook];
      if (typeof fn === 'function') functions.set(hook, fn);
    }
    this.target = { type: options.pluginType, functions, module: ops };
    this.timing = { timeoutMs: options.hookTimeoutMs ?? pluginTimeouts().hookMs };
  }

  /**
   * Controller start, in the API page's order: select_p_node_ranking (its ranks are kept in
   * {@link ranks}), select_p_node_init, select_p_ba_init (sanity-checked), then
   * select_p_state_restore, select_p_job_init, and select_p_select_nodeinfo_set for each
   * recovered job that holds nodes.
   */
  async init(nodes: readonly node_record_t[], jobs: readonly job_record_t[], ranks?: readonly number[] | null): Promise<Rc> {
    // The controller may have asked already, to order its node table by the ranks.
    this.ranks = ranks !== undefined ? ranks : await this.nodeRanking(nodes);
    for (const step of [
      () => this.nodeInit(nodes),
      async () => (await this.call('select_p_ba_init', nodes, true), SLURM_SUCCESS),
      () => this.call('select_p_state_restore', this.options.stateDir ?? ''),
      () => this.call('select_p_job_init', jobs),
      // Its rc is only informative here, as slurmctld only logs it.
      async () => (await this.nodeinfoSetJobs(jobs.filter(holdsNodes)), SLURM_SUCCESS),
    ]) {
      const rc = await step();
      if (rc !== SLURM_SUCCESS) return rc;
    }
    return SLURM_SUCCESS;
  }

  /** select_g_node_ranking → select_p_node_ranking: one rank per node, or null; checked. */
  async nodeRanking(nodes: readonly node_record_t[]): Promise<readonly number[] | null> {
    const ranks = await this.call('select_p_node_ranking', nodes);
    if (ranks !== null && (!Array.isArray(ranks) || ranks.length !== nodes.length || !ranks.every(Number.isFinite))) {
      this.refuse('select_p_node_ranking', `returned ${Array.isArray(ranks) ? ranks.length : 'no'} ranks for ${nodes.length} nodes`);
    }
    return ranks;
  }

  /** select_g_node_init → select_p_node_init; the facade keeps the table for node names. */
  async nodeInit(nodes: readonly node_record_t[]): Promise<Rc> {
    this.nodes = nodes;
    return this.call('select_p_node_init', nodes);
  }

  /** select_g_job_test → select_p_job_test, its answer checked against the candidates. */
  async jobTest(args: SelectJobTestArgs): Promise<SelectJobTestResult> {
    return this.testJob(args);
  }

  // jobTest, without waiting when the plugin answers at once.
  private testJob(args: SelectJobTestArgs): MaybePromise<SelectJobTestResult> {
    const candidates = args.bitmap;
    // The plugin's copy of the candidates, made only if it changes them (Slurm's job_test writes its answer there).
    const answer = this.invoke('select_p_job_test', { ...args, bitmap: candidates.lazyCopy() });
    const checked = (result: SelectJobTestResult) => {
      const problem = jobTestProblem(result, args, candidates);
      if (problem !== undefined) this.refuse('select_p_job_test', problem);
      return result;
    };
    return isPromise(answer) ? answer.then(checked) : checked(answer);
  }

  /**
   * A new job (the API page's flow): select_p_job_test in RUN_NOW on `candidates` (the nodes
   * usable now); failing that, in TEST_ONLY on `allConfigured` to tell "never" (rejected) from
   * "not now" (pending); then select_p_job_begin and select_p_job_ready. With `preemptees`
   * (running jobs it may preempt), RUN_NOW may answer that the job fits once some of them
   * are preempted: nothing begins then, and the caller preempts them.
   */
  async allocate(
    job: job_record_t,
    candidates: Bitstr,
    allConfigured: Bitstr,
    counts: NodeCountArgs = nodeCountsOf(job),
    preemptees: readonly job_record_t[] | null = null,
  ): Promise<AllocateResult> {
    // A plugin that answers at once is not waited for: a pass places thousands of jobs.
    const testing = this.testJob({ ...this.testArgs(job, candidates, counts, SELECT_MODE_RUN_NOW), preemptee_candidates: preemptees });
    const now = isPromise(testing) ? await testing : testing;
    if (now.nodes !== undefined && now.preempted !== undefined && now.preempted.length > 0) {
      return { status: 'preempt', victims: now.preempted };
    }
    if (now.nodes === undefined) {
      const ever = await this.jobTest(this.testArgs(job, allConfigured, counts, SELECT_MODE_TEST_ONLY));
      if (ever.nodes === undefined) return { status: 'rejected', rc: ever.rc };
      return { status: 'pending', rc: now.rc, reason: now.reason ?? 'Resources' };
    }
    const started: job_record_t = {
      ...job,
      node_bitmap: now.nodes,
      nodes: this.hostlist(now.nodes),
      job_resrcs: now.job_resources ?? null,
    };
    const beginning = this.beginJob(started);
    const rc = isPromise(beginning) ? await beginning : beginning;
    if (rc !== SLURM_SUCCESS) return { status: 'pending', rc, reason: 'Resources' };
    const set = this.invoke('select_p_select_nodeinfo_set', started);
    if (isPromise(set)) await set;
    const asked = this.invoke('select_p_job_ready', started);
    if (!(isPromise(asked) ? await asked : asked)) await this.waitReady(started);
    started.job_resrcs ??= wholeNodes(job, now.nodes, this.nodes);
    return { status: 'allocated', job: started, job_resources: started.job_resrcs };
  }

  /** Whether `job` could ever run on `candidates` (select_p_job_test in TEST_ONLY). */
  async testOnly(job: job_record_t, candidates: Bitstr, counts: NodeCountArgs = nodeCountsOf(job)): Promise<SelectJobTestResult> {
    return this.jobTest(this.testArgs(job, candidates, counts, SELECT_MODE_TEST_ONLY));
  }

  /** When and where `job` would start (select_p_job_test in WILL_RUN). */
  async willRun(job: job_record_t, candidates: Bitstr, counts: NodeCountArgs = nodeCountsOf(job)): Promise<SelectJobTestResult> {
    return this.jobTest(this.testArgs(job, candidates, counts, SELECT_MODE_WILL_RUN));
  }

  /**
   * select_g_resv_test → select_p_resv_test: `node_cnt` nodes out of `avail` for a
   * reservation, or null when they cannot be found. The answer must be exactly that many
   * nodes, all of them in `avail`.
   */
  async resvTest(resv: resv_desc_msg_t, node_cnt: number, avail: Bitstr): Promise<Bitstr | null> {
    const answer = await this.call('select_p_resv_test', resv, node_cnt, avail.copy(), null);
    if (answer === null) return null;
    if (!answer.nodes.isSubsetOf(avail) || answer.nodes.setCount() !== node_cnt) {
      this.refuse('select_p_resv_test', `returned ${answer.nodes.setCount()} node(s), not ${node_cnt} of the ${avail.setCount()} available`);
    }
    return answer.nodes;
  }

  /** select_g_job_begin → select_p_job_begin; a job_resrcs it sets must match node_bitmap. */
  async jobBegin(job: job_record_t): Promise<Rc> {
    return this.beginJob(job);
  }

  // jobBegin, without waiting when the plugin answers at once.
  private beginJob(job: job_record_t): MaybePromise<Rc> {
    const checked = (rc: Rc) => {
      if (rc === SLURM_SUCCESS && job.job_resrcs && job.node_bitmap) {
        const problem = jobResourcesProblem(job.job_resrcs, job.node_bitmap);
        if (problem !== undefined) this.refuse('select_p_job_begin', problem);
      }
      return rc;
    };
    const rc = this.invoke('select_p_job_begin', job);
    return isPromise(rc) ? rc.then(checked) : checked(rc);
  }

  /** select_g_job_ready → select_p_job_ready. */
  async jobReady(job: job_record_t): Promise<boolean> {
    return Boolean(await this.call('select_p_job_ready', job));
  }

  /** The job ends: select_g_job_fini → select_p_job_fini. */
  async release(job: job_record_t): Promise<Rc> {
    return this.call('select_p_job_fini', job);
  }

  /**
   * The job is suspended (tscontrol suspend: `indf_susp` true; preemption: false):
   * select_g_job_suspend → select_p_job_suspend.
   */
  async jobSuspend(job: job_record_t, indf_susp: boolean): Promise<Rc> {
    return this.call('select_p_job_suspend', job, indf_susp);
  }

  /** The suspended job resumes: select_g_job_resume → select_p_job_resume. */
  async jobResume(job: job_record_t, indf_susp: boolean): Promise<Rc> {
    return this.call('select_p_job_resume', job, indf_susp);
  }

  /** Can the plugin move one job's resources to another: select_g_job_expand_allow → select_p_job_expand_allow. */
  async jobExpandAllow(): Promise<boolean> {
    return Boolean(await this.call('select_p_job_expand_allow'));
  }

  /** `node` leaves the job's allocation (it shrinks): select_g_job_resized → select_p_job_resized. */
  async jobResized(job: job_record_t, node: node_record_t): Promise<Rc> {
    return this.call('select_p_job_resized', job, node);
  }

  /**
   * Nodes for a new step of `job`: select_g_step_pick_nodes → select_p_step_pick_nodes; null
   * when the plugin leaves the choice to the caller. An answer must be `node_count` of the
   * job's own nodes.
   */
  async stepPickNodes(job: job_record_t, node_count: number): Promise<Bitstr | null> {
    const picked = await this.call('select_p_step_pick_nodes', job, null, node_count);
    if (picked === null || picked === undefined) return null;
    if (!job.node_bitmap || typeof picked.isSubsetOf !== 'function' || !picked.isSubsetOf(job.node_bitmap) || picked.setCount() !== node_count) {
      this.refuse('select_p_step_pick_nodes', `returned nodes that are not ${node_count} of job ${job.job_id}'s`);
    }
    return picked;
  }

  /** A step ends: select_g_step_finish → select_p_step_finish. */
  async finishStep(step: step_record_t, killingStep = false): Promise<Rc> {
    return this.call('select_p_step_finish', step, killingStep);
  }

  /** A job is signalled or cancelled (SIGKILL): select_g_job_signal → select_p_job_signal. */
  async jobSignal(job: job_record_t, signal: number): Promise<Rc> {
    return this.call('select_p_job_signal', job, signal);
  }

  /** A node changed state (down, drain, resume): select_g_update_node_state → select_p_update_node_state. */
  async updateNodeState(node: node_record_t): Promise<Rc> {
    return this.call('select_p_update_node_state', node);
  }

  /** A node registered with another configuration: select_g_update_node_config → select_p_update_node_config. */
  async updateNodeConfig(index: number): Promise<Rc> {
    return this.call('select_p_update_node_config', index);
  }

  /** Partitions or the configuration changed: select_g_reconfigure → select_p_reconfigure. */
  async reconfigure(): Promise<Rc> {
    return this.call('select_p_reconfigure');
  }

  /** Before node information is reported: select_g_select_nodeinfo_set_all → select_p_select_nodeinfo_set_all. */
  async nodeinfoSetAll(): Promise<Rc> {
    return this.call('select_p_select_nodeinfo_set_all');
  }

  /** A node restarted under a job: select_g_job_mem_confirm → select_p_job_mem_confirm. */
  async jobMemConfirm(job: job_record_t): Promise<Rc> {
    return this.call('select_p_job_mem_confirm', job);
  }

  /** The system's dimensions (select_g_ba_get_dims → select_p_ba_get_dims), or null for one. */
  async baGetDims(): Promise<readonly number[] | null> {
    const dims = await this.call('select_p_ba_get_dims');
    if (dims !== null && (!Array.isArray(dims) || !dims.every((d) => Number.isInteger(d) && d > 0))) {
      this.refuse('select_p_ba_get_dims', 'returned something other than positive integer sizes');
    }
    return dims;
  }

  /** Controller shutdown: select_g_state_save → select_p_state_save. */
  async stateSave(): Promise<Rc> {
    return this.call('select_p_state_save', this.options.stateDir ?? '');
  }

  /**
   * Any select hook, by Slurm's name, with the documented default when the plugin lacks it;
   * a throw becomes a PluginError naming the plugin and hook.
   */
  async call<K extends SelectHook>(hook: K, ...args: Parameters<HookFn<K>>): Promise<Awaited<ReturnType<HookFn<K>>>> {
    return this.invoke(hook, ...args);
  }

  // call(), answering at once when the hook does (no promise): the scheduling pass's hooks
  // run thousands of times a pass, and each promise and microtask shows there.
  private invoke<K extends SelectHook>(hook: K, ...args: Parameters<HookFn<K>>): MaybePromise<Awaited<ReturnType<HookFn<K>>>> {
    if (this.refused) throw this.refused;
    return invokeHook<Awaited<ReturnType<HookFn<K>>>>(this.target, hook, args, this.timing);
  }

  // select_p_select_nodeinfo_set for each job: after it was scheduled or recovered at start.
  private async nodeinfoSetJobs(jobs: readonly job_record_t[]): Promise<Rc> {
    for (const job of jobs) {
      const rc = await this.call('select_p_select_nodeinfo_set', job);
      if (rc !== SLURM_SUCCESS) return rc;
    }
    return SLURM_SUCCESS;
  }

  private testArgs(job: job_record_t, bitmap: Bitstr, counts: NodeCountArgs, mode: SelectJobTestArgs['mode']): SelectJobTestArgs {
    return { job, bitmap, ...counts, mode, preemptee_candidates: null, exc_core_bitmap: null };
  }

  // After select_p_job_ready said no: asks again every readyPollMs until it says yes.
  private async waitReady(job: job_record_t): Promise<void> {
    const deadline = Date.now() + (this.options.readyTimeoutMs ?? 60_000);
    do {
      if (Date.now() >= deadline) {
        throw new PluginError(this.options.pluginType, `job ${job.job_id} not ready in time`, { hook: 'select_p_job_ready' });
      }
      await new Promise((resolve) => setTimeout(resolve, this.options.readyPollMs ?? 100));
    } while (!(await this.jobReady(job)));
  }

  private hostlist(bits: Bitstr): string {
    const names: string[] = [];
    for (let i = bits.nextSet(0); i >= 0; i = bits.nextSet(i + 1)) names.push(this.nodes[i]?.name ?? String(i));
    // One node (most jobs): its name is its hostlist.
    if (names.length === 1) return names[0]!;
    return names.length === 0 ? '' : compressHostlistSorted(names);
  }

  private refuse(hook: SelectHook, problem: string): never {
    this.refused = new PluginError(this.options.pluginType, `broke the select API: ${problem}`, {
      hook,
      code: 'ESLURM_PLUGIN_INVALID',
    });
    throw this.refused;
  }
}

// Running, suspended or completing, on nodes: the job holds resources.
function holdsNodes(job: job_record_t): boolean {
  const base = job.job_state & JOB_STATE_BASE;
  return job.node_bitmap !== null && (base === JOB_RUNNING || base === JOB_SUSPENDED || (job.job_state & JOB_COMPLETING) !== 0);
}

// The default allocation record when a plugin gives none: whole nodes, the memory asked for.
function wholeNodes(job: job_record_t, nodes: Bitstr, table: readonly node_record_t[]): job_resources_t {
  const picked = table.filter((node) => nodes.test(node.index));
  const cpus = picked.map((node) => node.cpus);
  const d = job.details;
  return {
    nhosts: picked.length,
    node_bitmap: nodes.copy(),
    ncpus: cpus.reduce((a, b) => a + b, 0),
    cpus,
    memory_allocated: picked.map((node) => d.pn_min_memory || d.mem_per_cpu * node.cpus),
    gres_allocated: picked.map(() => job.gres_list.map((g) => ({ ...g }))),
    whole_node: true,
  };
}
