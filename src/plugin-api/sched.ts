/**
 * The Scheduler plugin API (`sched/*`, Slurm's API version 110): which pending job starts
 * next. The scheduler orders the queue and decides when to try each job; the select plugin
 * decides where a job fits. `sched/builtin` starts jobs in priority order and stops at the
 * first that does not fit; `sched/backfill` also starts lower-priority jobs when that does
 * not delay the expected start of any higher-priority one.
 *
 * The controller calls `slurm_sched_p_schedule(ctx)` after anything that may let a job start
 * (a submit, a job's end, a node coming up, a partition or priority change) and periodically.
 * Calls do not overlap. The plugin looks at pending jobs through `ctx`, asks where and when
 * they would run (`ctx.will_run`, select's WILL_RUN), and starts them (`ctx.start`, select's
 * RUN_NOW then job_begin). Everything else is a notification.
 *
 * Only `slurm_sched_p_schedule` is required; the host supplies the rest as each one's TSDoc
 * says under "Default".
 */
import type { MaybePromise, PluginHeader, Rc, SymbolTable, SLURM_SUCCESS } from './common.js';
import type { Bitstr, job_record_t, node_record_t } from './records.js';

/** The answer of `ctx.will_run`: where and when the job would start, or why it cannot. */
export type SchedWillRunResult =
  | {
      readonly rc: typeof SLURM_SUCCESS;
      /** Expected start, Unix seconds (now if it could start at once). */
      readonly start_time: number;
      /** The nodes it would get. */
      readonly nodes: Bitstr;
      /** Jobs (ids) that would be preempted for it. */
      readonly preempted?: readonly number[];
    }
  | {
      readonly rc: Rc;
      readonly nodes?: undefined;
      readonly start_time?: undefined;
      readonly preempted?: undefined;
      readonly reason?: string;
    };

/** The answer of `ctx.start`: the job is running on `nodes`, or it was not started and why. */
export type SchedStartResult =
  | { readonly rc: typeof SLURM_SUCCESS; readonly nodes: Bitstr }
  | {
      readonly rc: Rc;
      readonly nodes?: undefined;
      /** The pending reason now recorded on the job (`Resources`, `ReqNodeNotAvail`, ...). */
      readonly reason: string;
    };

/** What a scheduling pass may see and do. Valid only until the pass's promise settles. */
export interface SchedContext {
  /** Now, Unix seconds; the same value for the whole pass. */
  readonly now: number;
  /** Aborted if the controller starts shutting down: finish the pass early. */
  readonly signal: AbortSignal;
  /**
   * Pending jobs that could start now as far as the controller is concerned (not held, no
   * unmet dependency, begin time passed, partition up), highest priority first (then by
   * submit time and job id).
   */
  pending(): readonly job_record_t[];
  /** Running and suspended jobs, for planning around when their time limits end. */
  running(): readonly job_record_t[];
  /** The node table (`index` is each node's bit in bitmaps). */
  nodes(): readonly node_record_t[];
  /** A new bitmap with one clear bit per node (Slurm's `bit_alloc(node_record_count)`). */
  bit_alloc(): Bitstr;
  /**
   * When and where would `job` start, given the running jobs' time limits? Nothing is
   * allocated. `avail`, if given, narrows the nodes it may use (e.g. to keep nodes free for a
   * higher-priority job); the host always applies its own limits (partition, state, features).
   * select's `select_p_job_test` in WILL_RUN mode.
   */
  will_run(job: job_record_t, avail?: Bitstr): MaybePromise<SchedWillRunResult>;
  /**
   * Start `job` now if it fits, within `avail` if given: select's `select_p_job_test` in
   * RUN_NOW mode, then `select_p_job_begin`, then the job is launched. On failure the job stays
   * pending with the returned reason. `time_limit`, if given (minutes, between the job's
   * `time_min` and its `time_limit`), is the shorter limit it starts with (backfill's
   * `--time-min`); the job keeps its own limit if it does not start.
   */
  start(job: job_record_t, avail?: Bitstr, time_limit?: number): MaybePromise<SchedStartResult>;
  /** Record why `job` is still pending (shown by tsqueue), e.g. `Priority` or `Resources`. */
  set_reason(job: job_record_t, reason: string): void;
  /** The nodes of a partition (Slurm's `part_ptr->node_bitmap`), a copy; undefined for an unknown one. */
  part_nodes?(partition: string): Bitstr | undefined;
}

/** A scheduler plugin. */
export interface SchedPlugin extends PluginHeader {
  /**
   * Run a scheduling pass: go through `ctx.pending()` and start what may start. Called as
   * described above; never twice at once. Slurm: `int slurm_sched_p_schedule(void)` (Slurm's
   * plugins reach the job queue directly; here it comes through `ctx`).
   *
   * A pass that throws, or does not settle within the hook timeout (`TSLURM_PLUGIN_TIMEOUT`,
   * default 300 s), is logged as one error line naming the plugin and the hook and ends there:
   * the jobs it did not start stay pending, and the next pass runs as usual. Once the call has
   * ended, `ctx` starts nothing (`start`/`will_run` answer SLURM_ERROR) and `ctx.signal` is
   * aborted, so a pass left running cannot start jobs behind the controller's back.
   * @returns SLURM_SUCCESS, or SLURM_ERROR (logged; the next pass runs as usual).
   */
  slurm_sched_p_schedule: (ctx: SchedContext) => MaybePromise<Rc>;

  /**
   * Re-read the plugin's configuration (`tscontrol reconfigure`).
   * Slurm: `int slurm_sched_p_reconfig(void)`. Default: SLURM_SUCCESS.
   */
  slurm_sched_p_reconfig?: () => MaybePromise<Rc>;

  /**
   * `job_ptr` was just given resources and is starting.
   * Slurm: `int slurm_sched_p_newalloc(job_record_t *)`. Default: SLURM_SUCCESS.
   */
  slurm_sched_p_newalloc?: (job_ptr: job_record_t) => MaybePromise<Rc>;

  /**
   * `job_ptr` released its resources (it ended or was requeued).
   * Slurm: `int slurm_sched_p_freealloc(job_record_t *)`. Default: SLURM_SUCCESS.
   */
  slurm_sched_p_freealloc?: (job_ptr: job_record_t) => MaybePromise<Rc>;

  /**
   * The priority of a job just submitted. `last_prio` is the priority given to the previous
   * job; returning less gives first-in-first-out order; returning 0 holds the job until the
   * plugin raises it. Slurm: `uint32_t slurm_sched_p_initial_priority(uint32_t last_prio,
   * job_record_t *)`. Default: `last_prio - 1`, never below 1.
   *
   * Called while the submission is answered, so it must answer at once (not a promise). An
   * answer that is not an integer in 0..2^32-1, a promise or a throw is logged, and the job
   * gets the default.
   */
  slurm_sched_p_initial_priority?: (last_prio: number, job_ptr: job_record_t) => number;

  /** Some job is pending. Slurm: `void slurm_sched_p_job_is_pending(void)`. Default: nothing. */
  slurm_sched_p_job_is_pending?: () => MaybePromise<void>;

  /**
   * A partition changed (limits, state, nodes).
   * Slurm: `void slurm_sched_p_partition_change(void)`. Default: nothing.
   */
  slurm_sched_p_partition_change?: () => MaybePromise<void>;

  /**
   * The errno of the plugin's last failure. Slurm: `int slurm_sched_p_get_errno(void)`.
   * Default: the errno set through `host.slurm_seterrno`.
   */
  slurm_sched_p_get_errno?: () => number;

  /**
   * Text for one of the plugin's own errno values, or null if it has none.
   * Slurm: `const char *slurm_sched_p_strerror(int errnum)`. Default: null (Slurm's text is used).
   */
  slurm_sched_p_strerror?: (errnum: number) => string | null;

  /**
   * `job_ptr` is being requeued for `reason`.
   * Slurm: `void slurm_sched_p_requeue(job_record_t *, char *reason)`. Default: nothing.
   */
  slurm_sched_p_requeue?: (job_ptr: job_record_t, reason: string) => MaybePromise<void>;

  /**
   * The plugin's settings for `tscontrol show config`, or null for none.
   * Slurm: `char *slurm_sched_p_get_conf(void)`. Default: null.
   */
  slurm_sched_p_get_conf?: () => string | null;
}

/** Every sched API function: `required` ones must be exported; the host supplies the rest. */
export const schedSymbols = {
  slurm_sched_p_schedule: 'required',
  slurm_sched_p_reconfig: 'optional',
  slurm_sched_p_newalloc: 'optional',
  slurm_sched_p_freealloc: 'optional',
  slurm_sched_p_initial_priority: 'optional',
  slurm_sched_p_job_is_pending: 'optional',
  slurm_sched_p_partition_change: 'optional',
  slurm_sched_p_get_errno: 'optional',
  slurm_sched_p_strerror: 'optional',
  slurm_sched_p_requeue: 'optional',
  slurm_sched_p_get_conf: 'optional',
} as const satisfies SymbolTable<SchedPlugin>;
