/**
 * The Resource Selection plugin API (`select/*`): the controller asks the select plugin which
 * nodes a job gets, tells it when jobs start and end, and saves its state with the
 * controller's. One select plugin is active at a time (`plugins.select` in the cluster YAML).
 *
 * Call flow (Slurm's, kept): at controller start `select_p_node_ranking`,
 * `select_p_node_init`, `select_p_ba_init`, then `select_p_state_restore`, then
 * `select_p_job_init` (and `select_p_select_nodeinfo_set` for each recovered job on nodes).
 * For each new job, `select_p_job_test` in {@link SELECT_MODE_TEST_ONLY} against every
 * configured node (a failure rejects the job at submit time). Each scheduling attempt tries
 * {@link SELECT_MODE_RUN_NOW} against the nodes available now; when that fails, TEST_ONLY
 * against every configured node tells "never" (rejected) from "not now" (pending). On success
 * `select_p_job_begin`, `select_p_select_nodeinfo_set`, then `select_p_job_ready` until it
 * says yes, then the job runs. `tscancel` calls `select_p_job_signal` (SIGKILL, or the signal
 * of `-s`). Steps end with `select_p_step_finish`, the job with `select_p_job_fini`.
 * `select_p_state_save` runs at each snapshot and at shutdown, but a killed controller never
 * calls it: `select_p_node_init` and `select_p_job_init` must be enough to rebuild state.
 *
 * Functions marked optional in {@link selectSymbols} may be left out; the host then behaves
 * as each one's TSDoc says under "Default". Every function may be async.
 */
import type { Buf } from '../core/buf.js';
import type { MaybePromise, PluginHeader, Rc, SymbolTable, SLURM_SUCCESS } from './common.js';
import type { Bitstr, job_record_t, job_resources_t, node_record_t, resv_desc_msg_t, step_record_t } from './records.js';

/** `select_p_job_test` mode: find nodes to start the job on now. */
export const SELECT_MODE_RUN_NOW = 0;
/** `select_p_job_test` mode: could the job ever run, on an otherwise empty cluster? */
export const SELECT_MODE_TEST_ONLY = 1;
/** `select_p_job_test` mode: when and where would the job start, given the running jobs? */
export const SELECT_MODE_WILL_RUN = 2;

export type SelectMode = typeof SELECT_MODE_RUN_NOW | typeof SELECT_MODE_TEST_ONLY | typeof SELECT_MODE_WILL_RUN;

/** What `select_p_select_nodeinfo_get` is asked for (Slurm's `enum select_nodedata_type`). */
export type select_nodedata_type =
  | 'SELECT_NODEDATA_SUBCNT' // number: CPUs on the node in the given state
  | 'SELECT_NODEDATA_MEM_ALLOC' // number: MB of memory allocated on the node
  | 'SELECT_NODEDATA_TRES_ALLOC_FMT_STR' // string: allocated TRES, e.g. "cpu=4,mem=2G"
  | 'SELECT_NODEDATA_PTR'; // the nodeinfo object itself

/** A field of the plugin's per-job data (Slurm's `enum select_jobdata_type`); plugin-defined. */
export type select_jobdata_type = string;

/** How `select_p_select_jobinfo_sprint`/`_xstrdup` print (Slurm's `enum select_print_mode`). */
export type select_print_mode = 'SELECT_PRINT_HEAD' | 'SELECT_PRINT_DATA' | 'SELECT_PRINT_MIXED' | 'SELECT_PRINT_MIXED_SHORT';

/** What `select_p_get_info_from_plugin` is asked for (Slurm's `enum select_plugindata_info`). */
export type select_plugindata_info =
  | 'SELECT_CR_PLUGIN' // number: 1 if the plugin allocates within nodes (cons_tres), else 0
  | 'SELECT_STATIC_PART' // number: 1 if partitions cannot change while jobs run
  | 'SELECT_CONFIG_INFO' // [key, value][]: lines for `tscontrol show config`
  | 'SELECT_SINGLE_JOB_TEST'; // number: 1 if job_test must be called for one job at a time

/** The arguments of `select_p_job_test` (its C parameters, by their Slurm names). */
export interface SelectJobTestArgs {
  /** The job to place. Read `job.details` for the request (nodes, CPUs, memory, features). */
  readonly job: job_record_t;
  /**
   * Candidate nodes: every node the job may use, already filtered by partition, node state
   * (in RUN_NOW), features and `--exclude`. It always includes `job.details.req_node_bitmap`.
   * It may include nodes busy with other jobs (in TEST_ONLY and WILL_RUN). The plugin may
   * modify this copy (made when it first does); the host only reads the result's `nodes`.
   * Like Slurm's, it is the plugin's for the call only: keep a `copy()` to hold on to it.
   */
  readonly bitmap: Bitstr;
  /** Fewest nodes to allocate (job and partition limits combined). */
  readonly min_nodes: number;
  /** Most nodes to allocate (job and partition limits combined). */
  readonly max_nodes: number;
  /** Nodes the job would like (its `-N` maximum if given); between min and max. */
  readonly req_nodes: number;
  readonly mode: SelectMode;
  /** Running jobs that may be preempted to start this one, or null if none may be. */
  readonly preemptee_candidates: readonly job_record_t[] | null;
  /** Cores held for advance reservations, which the job may not use, or null. */
  readonly exc_core_bitmap: Bitstr | null;
}

/**
 * The answer of `select_p_job_test`. Success: `rc` is SLURM_SUCCESS and `nodes` is set.
 * Failure: `rc` is SLURM_ERROR or a Slurm errno (ESLURM_NODES_BUSY,
 * ESLURM_REQUESTED_NODE_CONFIG_UNAVAILABLE, ...), with `nodes` absent. Tell the two apart by
 * `nodes` (`rc` alone does not narrow the type); the success-only fields read as undefined
 * on a failure.
 *
 * The host checks, and refuses a plugin that breaks them: `nodes` ⊆ the candidate `bitmap`,
 * `nodes` ⊇ `job.details.req_node_bitmap`, `min_nodes` ≤ `nodes.setCount()` ≤ `max_nodes`,
 * and `job_resources` (when given) consistent with `nodes`.
 */
export type SelectJobTestResult =
  | {
      readonly rc: typeof SLURM_SUCCESS;
      /** The nodes chosen: a subset of the candidates (Slurm clears the other bits). */
      readonly nodes: Bitstr;
      /**
       * RUN_NOW: the allocation to record on the job (CPUs, memory, gres per node). Default:
       * the host gives the job whole nodes (all CPUs, the memory it asked for).
       */
      readonly job_resources?: job_resources_t;
      /** WILL_RUN: expected start, Unix seconds. Default: now. */
      readonly start_time?: number;
      /** Jobs (ids) that must be preempted for this job to start, from the candidates. */
      readonly preempted?: readonly number[];
    }
  | {
      readonly rc: Rc;
      readonly nodes?: undefined;
      readonly job_resources?: undefined;
      readonly start_time?: undefined;
      readonly preempted?: undefined;
      /** The pending reason shown by tsqueue (`Resources`, `Priority`, ...). Default: `Resources`. */
      readonly reason?: string;
    };

/** The answer of an `..._unpack` function: the object read, or a failure. */
export type UnpackResult<T> = { readonly rc: typeof SLURM_SUCCESS; readonly value: T } | { readonly rc: Rc; readonly value?: undefined };

/** The answer of a `..._get` function: the datum asked for, or a failure. */
export interface GetResult {
  readonly rc: Rc;
  readonly data?: unknown;
}

/**
 * A select plugin. `NodeInfo` and `JobInfo` are the plugin's own per-node and per-job data
 * (Slurm's opaque `select_nodeinfo_t` and `select_jobinfo_t`); leave them `unknown` if the
 * plugin keeps none.
 */
export interface SelectPlugin<NodeInfo = unknown, JobInfo = unknown> extends PluginHeader {
  // ---- State save ------------------------------------------------------------------------

  /**
   * Save the plugin's global state to a file of its choosing in `dir_name` (the controller's
   * state directory). Called at controller shutdown and before a snapshot. Put a magic number
   * and a version in the file. Slurm: `int select_p_state_save(char *dir_name)`.
   * @returns SLURM_SUCCESS, or SLURM_ERROR.
   * Default: nothing is saved; SLURM_SUCCESS.
   */
  select_p_state_save?: (dir_name: string) => MaybePromise<Rc>;

  /**
   * Restore what `select_p_state_save` wrote in `dir_name`, checking its magic number and
   * version. Called once at controller start, after `select_p_node_init`. A missing file is not
   * an error (first start). Slurm: `int select_p_state_restore(char *dir_name)`.
   * @returns SLURM_SUCCESS, or SLURM_ERROR, which stops the controller.
   * Default: nothing is restored; SLURM_SUCCESS.
   */
  select_p_state_restore?: (dir_name: string) => MaybePromise<Rc>;

  // ---- State initialization --------------------------------------------------------------

  /**
   * The node table: called at controller start and again whenever nodes are added, removed or
   * reconfigured. `node_ptr[i].index === i`, and every node bitmap the plugin gets later has
   * `node_ptr.length` bits. Slurm: `int select_p_node_init(node_record_t *node_ptr, int node_cnt)`.
   * @returns SLURM_SUCCESS, or SLURM_ERROR, which stops the controller.
   */
  select_p_node_init: (node_ptr: readonly node_record_t[]) => MaybePromise<Rc>;

  /**
   * The jobs that hold resources when the controller starts (recovered from its state):
   * rebuild per-node usage from them. Called after `select_p_state_restore`.
   * Slurm: `int select_p_job_init(List job_list)`.
   * @returns SLURM_SUCCESS, or SLURM_ERROR.
   */
  select_p_job_init: (job_list: readonly job_record_t[]) => MaybePromise<Rc>;

  /**
   * The partition or general configuration changed (`tscontrol reconfigure`, a partition
   * update); re-read what the plugin caches. Slurm: `int select_p_reconfigure(void)`.
   * Default: SLURM_SUCCESS.
   */
  select_p_reconfigure?: () => MaybePromise<Rc>;

  // ---- Per-node plugin data --------------------------------------------------------------

  /**
   * Make an empty per-node data object. Slurm: `select_nodeinfo_t *select_p_select_nodeinfo_alloc(void)`.
   * Default: null (no per-node data).
   */
  select_p_select_nodeinfo_alloc?: () => NodeInfo;

  /**
   * Write a per-node data object into `buffer`, for node queries (`tsinfo`, `tscontrol show
   * node`). `protocol_version` is the receiver's; stay readable by it.
   * Slurm: `int select_p_select_nodeinfo_pack(select_nodeinfo_t *, Buf, uint16_t)`.
   * Default: writes nothing; SLURM_SUCCESS.
   */
  select_p_select_nodeinfo_pack?: (nodeinfo: NodeInfo, buffer: Buf, protocol_version: number) => MaybePromise<Rc>;

  /**
   * Read what `select_p_select_nodeinfo_pack` wrote. Slurm:
   * `int select_p_select_nodeinfo_unpack(select_nodeinfo_t **, Buf, uint16_t)` (the out
   * parameter is the result's `value`).
   * Default: reads nothing; `{ rc: SLURM_SUCCESS, value: null }`.
   */
  select_p_select_nodeinfo_unpack?: (buffer: Buf, protocol_version: number) => MaybePromise<UnpackResult<NodeInfo>>;

  /**
   * Release a per-node data object (file handles, timers; memory is garbage-collected).
   * Slurm: `int select_p_select_nodeinfo_free(select_nodeinfo_t *)`. Default: SLURM_SUCCESS.
   */
  select_p_select_nodeinfo_free?: (nodeinfo: NodeInfo) => MaybePromise<Rc>;

  /**
   * Refresh per-node data after `job_ptr` was scheduled or recovered at start.
   * Slurm: `int select_p_select_nodeinfo_set(job_record_t *)`. Default: SLURM_SUCCESS.
   */
  select_p_select_nodeinfo_set?: (job_ptr: job_record_t) => MaybePromise<Rc>;

  /**
   * Refresh the per-node data of every node; called before node information is reported
   * (the facade's `nodeinfoSetAll()`).
   * Slurm: `int select_p_select_nodeinfo_set_all(void)`. Default: SLURM_SUCCESS.
   */
  select_p_select_nodeinfo_set_all?: () => MaybePromise<Rc>;

  /**
   * Read one datum from per-node data, counting only what is in `state` (e.g. the CPUs
   * allocated: `SELECT_NODEDATA_SUBCNT` with NODE_STATE_ALLOCATED).
   * Slurm: `int select_p_select_nodeinfo_get(select_nodeinfo_t *, enum select_nodedata_type,
   * enum node_states, void *data)` (the out parameter is the result's `data`).
   * Default: `{ rc: SLURM_SUCCESS }` without data; the host then counts from job records.
   */
  select_p_select_nodeinfo_get?: (nodeinfo: NodeInfo, dinfo: select_nodedata_type, state: number) => MaybePromise<GetResult>;

  /**
   * A node registered with a configuration other than the configured one (e.g. more memory);
   * `index` is its position in the node table.
   * Slurm: `int select_p_update_node_config(int index)`. Default: SLURM_SUCCESS.
   */
  select_p_update_node_config?: (index: number) => MaybePromise<Rc>;

  /**
   * At controller start, before `select_p_node_init`: rank the nodes for placement (e.g. by
   * topology). Return one rank per node, in node-table order (lower ranks are used first), or
   * null to leave the order alone; a list of another length is refused. tslurm keeps the
   * ranks on the select facade but does not yet reorder its node table by them.
   * Slurm: `bool select_p_node_ranking(node_record_t *, int)`, which writes each
   * node's `node_rank` and returns true. Default: null.
   */
  select_p_node_ranking?: (node_ptr: readonly node_record_t[]) => MaybePromise<readonly number[] | null>;

  /**
   * A node changed state (down, drained, resumed, ...); `node_ptr` shows the new state.
   * Slurm: `int select_p_update_node_state(node_record_t *)`. Default: SLURM_SUCCESS.
   */
  select_p_update_node_state?: (node_ptr: node_record_t) => MaybePromise<Rc>;

  // ---- Per-job plugin data ---------------------------------------------------------------

  /**
   * Make an empty per-job data object. Slurm: `select_jobinfo_t *select_p_select_jobinfo_alloc(void)`.
   * Default: null (no per-job data).
   */
  select_p_select_jobinfo_alloc?: () => JobInfo;

  /**
   * Copy a per-job data object (e.g. from a job to its step).
   * Slurm: `select_jobinfo_t *select_p_select_jobinfo_copy(select_jobinfo_t *)`.
   * Default: returns `jobinfo` itself, so treat it as immutable if you rely on the default.
   */
  select_p_select_jobinfo_copy?: (jobinfo: JobInfo) => JobInfo;

  /**
   * Release a per-job data object. Slurm: `int select_p_select_jobinfo_free(select_jobinfo_t *)`.
   * Default: SLURM_SUCCESS.
   */
  select_p_select_jobinfo_free?: (jobinfo: JobInfo) => MaybePromise<Rc>;

  /**
   * Write per-job data into `buffer` (job state save, RPCs to clients).
   * Slurm: `int select_p_select_jobinfo_pack(select_jobinfo_t *, Buf, uint16_t)`.
   * Default: writes nothing; SLURM_SUCCESS.
   */
  select_p_select_jobinfo_pack?: (jobinfo: JobInfo, buffer: Buf, protocol_version: number) => MaybePromise<Rc>;

  /**
   * Read what `select_p_select_jobinfo_pack` wrote.
   * Slurm: `int select_p_select_jobinfo_unpack(select_jobinfo_t **, Buf, uint16_t)`.
   * Default: reads nothing; `{ rc: SLURM_SUCCESS, value: null }`.
   */
  select_p_select_jobinfo_unpack?: (buffer: Buf, protocol_version: number) => MaybePromise<UnpackResult<JobInfo>>;

  /**
   * Read one field of per-job data.
   * Slurm: `int select_p_select_jobinfo_get(select_jobinfo_t *, enum select_jobdata_type, void *data)`.
   * Default: `{ rc: SLURM_ERROR }` (no such field).
   */
  select_p_select_jobinfo_get?: (jobinfo: JobInfo, data_type: select_jobdata_type) => MaybePromise<GetResult>;

  /**
   * Write one field of per-job data.
   * Slurm: `int select_p_select_jobinfo_set(select_jobinfo_t *, enum select_jobdata_type, void *data)`.
   * Default: SLURM_ERROR (no such field).
   */
  select_p_select_jobinfo_set?: (jobinfo: JobInfo, data_type: select_jobdata_type, data: unknown) => MaybePromise<Rc>;

  /**
   * Per-job data as text for a column of `tscontrol show job` (`mode` says header, data, or
   * both). Slurm: `char *select_p_select_jobinfo_sprint(select_jobinfo_t *, char *buf,
   * size_t size, int mode)`; the buffer is the returned string. Default: `''`.
   */
  select_p_select_jobinfo_sprint?: (jobinfo: JobInfo, mode: select_print_mode) => string | null;

  /**
   * As `select_p_select_jobinfo_sprint`, for callers that want a fresh string.
   * Slurm: `char *select_p_select_jobinfo_xstrdup(select_jobinfo_t *, int mode)`. Default: `''`.
   */
  select_p_select_jobinfo_xstrdup?: (jobinfo: JobInfo, mode: select_print_mode) => string | null;

  // ---- Jobs ------------------------------------------------------------------------------

  /**
   * Choose the "best" nodes for a job among the candidates, in one of three modes: TEST_ONLY
   * (at submit, against every configured node: could it ever run?), RUN_NOW (against the
   * nodes usable now: start it now?), WILL_RUN (when and where would it start, as running jobs
   * end — for backfill and `--test-only`). RUN_NOW and WILL_RUN must respect resources held by
   * running jobs; TEST_ONLY ignores them. Do not record an allocation here: that is
   * `select_p_job_begin`. Slurm: `int select_p_job_test(job_record_t *, bitstr_t *bitmap,
   * uint32_t min_nodes, uint32_t max_nodes, uint32_t req_nodes, uint32_t mode,
   * List preemption_candidates, List *preempted_jobs, bitstr_t *exc_core_bitmap)`.
   * @returns the nodes (and, in RUN_NOW, the allocation) or a failure; see {@link SelectJobTestResult}.
   */
  select_p_job_test: (args: SelectJobTestArgs) => MaybePromise<SelectJobTestResult>;

  /**
   * The job is starting on `job_ptr.node_bitmap`, chosen by the `select_p_job_test` call that
   * just succeeded: record its resources as used. May set `job_ptr.job_resrcs`.
   * Slurm: `int select_p_job_begin(job_record_t *)`.
   * @returns SLURM_SUCCESS, or SLURM_ERROR, which puts the job back in the queue.
   */
  select_p_job_begin: (job_ptr: job_record_t) => MaybePromise<Rc>;

  /**
   * Are the job's nodes ready for it (booted, configured)? Asked after `select_p_job_begin`
   * and again, at intervals, until it answers true; the job runs then. May return a promise
   * that settles when the nodes are ready. Slurm: `int select_p_job_ready(job_record_t *)`,
   * which returns 1 (ready) or 0.
   */
  select_p_job_ready: (job_ptr: job_record_t) => MaybePromise<boolean>;

  /**
   * The job is ending (called as its termination begins, before its tasks are killed): release
   * its resources. Slurm: `int select_p_job_fini(job_record_t *)`.
   * @returns SLURM_SUCCESS, or SLURM_ERROR.
   */
  select_p_job_fini: (job_ptr: job_record_t) => MaybePromise<Rc>;

  /**
   * The job is being sent `signal`; for systems where steps are launched outside tslurm.
   * Called by `tscancel -s SIG` (that signal) and by `tscancel` and the time limit (SIGKILL),
   * before the batch step is signalled; a failure is logged and the signal still sent.
   * Slurm: `int select_p_job_signal(job_record_t *, int signal)`. Default: SLURM_SUCCESS.
   */
  select_p_job_signal?: (job_ptr: job_record_t, signal: number) => MaybePromise<Rc>;

  /**
   * A node of the job restarted: is the job's memory allocation still valid there?
   * Slurm: `int select_p_job_mem_confirm(job_record_t *)`. Default: SLURM_SUCCESS.
   */
  select_p_job_mem_confirm?: (job_ptr: job_record_t) => MaybePromise<Rc>;

  /**
   * The job is suspended: its resources may go to other jobs. `indf_susp` is true when an
   * administrator or user suspended it (indefinitely), false for gang scheduling.
   * Slurm: `int select_p_job_suspend(job_record_t *, bool indf_susp)`.
   * Default: SLURM_SUCCESS (the job keeps its resources while suspended).
   */
  select_p_job_suspend?: (job_ptr: job_record_t, indf_susp: boolean) => MaybePromise<Rc>;

  /**
   * The suspended job resumes: take its resources again. `indf_susp` as for suspend.
   * Slurm: `int select_p_job_resume(job_record_t *, bool indf_susp)`. Default: SLURM_SUCCESS.
   */
  select_p_job_resume?: (job_ptr: job_record_t, indf_susp: boolean) => MaybePromise<Rc>;

  /**
   * Can this plugin move resources from one job to another (`select_p_job_expand`)?
   * Slurm: `bool select_p_job_expand_allow(void)`. Default: false.
   */
  select_p_job_expand_allow?: () => MaybePromise<boolean>;

  /**
   * Give all of `from_job_ptr`'s resources to `to_job_ptr`, leaving the first with none.
   * Slurm: `int select_p_job_expand(job_record_t *from, job_record_t *to)`.
   * Default: ESLURM_NOT_SUPPORTED (never called unless `select_p_job_expand_allow` says true).
   */
  select_p_job_expand?: (from_job_ptr: job_record_t, to_job_ptr: job_record_t) => MaybePromise<Rc>;

  /**
   * Remove `node_ptr` from the job's allocation (the job shrinks).
   * Slurm: `int select_p_job_resized(job_record_t *, node_record_t *)`.
   * Default: ESLURM_NOT_SUPPORTED (the host refuses to shrink jobs).
   */
  select_p_job_resized?: (job_ptr: job_record_t, node_ptr: node_record_t) => MaybePromise<Rc>;

  // ---- Steps -----------------------------------------------------------------------------

  /**
   * Pick `node_count` nodes of the job for a new step, if this plugin places steps itself.
   * `step_jobinfo` is the step's per-job data, to fill in. Slurm: `bitstr_t
   * *select_p_step_pick_nodes(job_record_t *, select_jobinfo_t *, uint32_t node_count)`.
   * @returns the nodes, or null to let the controller pick them. Default: null.
   */
  select_p_step_pick_nodes?: (job_ptr: job_record_t, step_jobinfo: JobInfo, node_count: number) => MaybePromise<Bitstr | null>;

  /**
   * A step is ending: `killing_step` is true when its termination begins (e.g. SIGKILL is
   * being sent), false once all its processes have exited.
   * Slurm: `int select_p_step_finish(step_record_t *, bool killing_step)`.
   * @returns SLURM_SUCCESS, or SLURM_ERROR.
   */
  select_p_step_finish: (step_ptr: step_record_t, killing_step: boolean) => MaybePromise<Rc>;

  // ---- Advance reservations --------------------------------------------------------------

  /**
   * Choose `node_cnt` nodes out of `avail_bitmap` for an advance reservation, topology
   * permitting. `core_bitmap` holds the cores that may not be used. Slurm: `bitstr_t
   * *select_p_resv_test(resv_desc_msg_t *, uint32_t node_cnt, bitstr_t *avail_bitmap,
   * bitstr_t **core_bitmap)`; the cores out-parameter is the result's `core_bitmap`.
   * @returns the nodes (and the cores the reservation uses), or null if it cannot be placed.
   * Default: the first `node_cnt` nodes of `avail_bitmap`, whole; null if there are fewer.
   */
  select_p_resv_test?: (
    resv_desc_ptr: resv_desc_msg_t,
    node_cnt: number,
    avail_bitmap: Bitstr,
    core_bitmap: Bitstr | null,
  ) => MaybePromise<{ readonly nodes: Bitstr; readonly core_bitmap?: Bitstr } | null>;

  // ---- Information -----------------------------------------------------------------------

  /**
   * Answer a question about the plugin (see {@link select_plugindata_info}), for `job_ptr` if
   * the question is about a job (else null). Slurm: `int select_p_get_info_from_plugin(enum
   * select_plugindata_info, job_record_t *, void *data)`.
   * Default: `{ rc: SLURM_SUCCESS }` without data, which the host reads as 0 / none.
   */
  select_p_get_info_from_plugin?: (dinfo: select_plugindata_info, job_ptr: job_record_t | null) => MaybePromise<GetResult>;

  // ---- Block allocator -------------------------------------------------------------------

  /**
   * Set up the system's dimensions from the node table (node names whose suffixes are
   * coordinates); with `sanity_check`, verify those suffixes fit the dimensions. The
   * controller calls it at start, just after `select_p_node_init`, with `sanity_check` true;
   * a throw stops the controller (Slurm's fatal()).
   * Slurm: `void select_p_ba_init(node_info_msg_t *, bool sanity_check)`. Default: nothing.
   */
  select_p_ba_init?: (node_info_ptr: readonly node_record_t[], sanity_check: boolean) => MaybePromise<void>;

  /**
   * The size of each dimension of the system, or null for a one-dimensional system. Asked
   * after start-up (the controller logs `system dimensions 4x2x2`); sizes must be positive
   * integers. Slurm: `int *select_p_ba_get_dims(void)`. Default: null.
   */
  select_p_ba_get_dims?: () => readonly number[] | null;
}

/** Every select API function: `required` ones must be exported; the host supplies the rest. */
export const selectSymbols = {
  select_p_state_save: 'optional',
  select_p_state_restore: 'optional',
  select_p_node_init: 'required',
  select_p_job_init: 'required',
  select_p_reconfigure: 'optional',
  select_p_select_nodeinfo_alloc: 'optional',
  select_p_select_nodeinfo_pack: 'optional',
  select_p_select_nodeinfo_unpack: 'optional',
  select_p_select_nodeinfo_free: 'optional',
  select_p_select_nodeinfo_set: 'optional',
  select_p_select_nodeinfo_set_all: 'optional',
  select_p_select_nodeinfo_get: 'optional',
  select_p_update_node_config: 'optional',
  select_p_node_ranking: 'optional',
  select_p_update_node_state: 'optional',
  select_p_select_jobinfo_alloc: 'optional',
  select_p_select_jobinfo_copy: 'optional',
  select_p_select_jobinfo_free: 'optional',
  select_p_select_jobinfo_pack: 'optional',
  select_p_select_jobinfo_unpack: 'optional',
  select_p_select_jobinfo_get: 'optional',
  select_p_select_jobinfo_set: 'optional',
  select_p_select_jobinfo_sprint: 'optional',
  select_p_select_jobinfo_xstrdup: 'optional',
  select_p_job_test: 'required',
  select_p_job_begin: 'required',
  select_p_job_ready: 'required',
  select_p_job_fini: 'required',
  select_p_job_signal: 'optional',
  select_p_job_mem_confirm: 'optional',
  select_p_job_suspend: 'optional',
  select_p_job_resume: 'optional',
  select_p_job_expand_allow: 'optional',
  select_p_job_expand: 'optional',
  select_p_job_resized: 'optional',
  select_p_step_pick_nodes: 'optional',
  select_p_step_finish: 'required',
  select_p_resv_test: 'optional',
  select_p_get_info_from_plugin: 'optional',
  select_p_ba_init: 'optional',
  select_p_ba_get_dims: 'optional',
} as const satisfies SymbolTable<SelectPlugin>;
