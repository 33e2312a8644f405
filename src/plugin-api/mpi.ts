/**
 * The MPI plugin API (`mpi/*`): hooks that prepare a parallel step for an MPI library. The
 * plugin is chosen per step (`tsrun --mpi=TYPE`, else `plugins.mpi_default`); the host sets
 * `SLURM_MPI_TYPE` in the tasks' environment to the chosen minor.
 *
 * Order of calls for one step (Slurm's):
 * 1. `p_mpi_hook_client_prelaunch` in tsrun, once, before any task is launched; its env changes
 *    reach every task; it returns the client state.
 * 2. `p_mpi_hook_slurmstepd_prefork` in the step daemon of each node, once, before that node's
 *    first task is started.
 * 3. `p_mpi_hook_slurmstepd_task` in the step daemon, once per task, just before it is spawned.
 * 4. `p_mpi_hook_client_fini` in tsrun, after every task has finished (also when the step
 *    failed, as long as prelaunch succeeded).
 * Hooks 2 and 3 are not called for batch scripts (`SLURM_BATCH_SCRIPT`) or extern steps.
 *
 * All four hooks are required; a plugin with nothing to do stubs them (see `mpi/none`).
 * Newer Slurm's names (`mpi_p_client_prelaunch`, ...) are accepted as aliases; see {@link mpiAliases}.
 */
import type { Duplex, Stream } from 'node:stream';
import type { MaybePromise, PluginHeader, Rc, SymbolTable } from './common.js';

/**
 * A step's environment, edited in place (Slurm's `char ***env` with its `env_array_*`
 * helpers). Names are case-sensitive; values are strings.
 */
export interface StepEnv {
  /** The value of `name`, or null if unset (Slurm's `getenvp`). */
  get(name: string): string | null;
  /** Set `name`, replacing any value (Slurm's `env_array_overwrite`). */
  set(name: string, value: string): void;
  /** Set `name` only if it is unset (Slurm's `env_array_append`). */
  append(name: string, value: string): void;
  /** Remove `name` (Slurm's `unsetenvp`). */
  unset(name: string): void;
  /** Every variable as `KEY=VALUE`, in order. */
  entries(): string[];
}

/**
 * How a step's tasks are laid out over its nodes (Slurm's `slurm_step_layout_t`). The arrays
 * are indexed by the step's node id (0 .. node_cnt-1) and agree with the counts.
 */
export interface MpiStepLayout {
  /** Number of nodes in the step. */
  readonly node_cnt: number;
  /** The nodes as a hostlist expression, e.g. `n[01-02]`. */
  readonly node_list: string;
  /** The node names, expanded, by node id. */
  readonly node_names: readonly string[];
  /** Number of tasks in the step (sum of `tasks`). */
  readonly task_cnt: number;
  /** Tasks on each node. */
  readonly tasks: readonly number[];
  /** Global task ids (ranks) on each node: `tids[nodeid][localid]`. */
  readonly tids: readonly (readonly number[])[];
  /**
   * How the tasks were distributed over the nodes (`-m`; Slurm's `task_dist`, node level):
   * what `PMI_process_mapping` is computed from.
   */
  readonly task_dist: 'block' | 'cyclic' | 'plane' | 'arbitrary';
}

/** What tsrun knows about the step it launches (Slurm's `mpi_plugin_client_info_t`). */
export interface MpiClientInfo {
  readonly jobid: number;
  readonly stepid: number;
  readonly step_layout: MpiStepLayout;
  /**
   * End the whole step now (e.g. a task aborted through PMI, or a fence can no longer
   * complete), as Slurm's `slurm_kill_job_step(job, step, SIGKILL)`: the host kills every task
   * with SIGKILL and prints srun's lines for an aborted step. `message` says why: with `error`
   * it is printed as tsrun's error line (for causes Slurm itself would not report, such as a
   * task that died in the middle of a fence), else only under `-v` (an MPI_Abort: srun adds
   * nothing to what the MPI library prints). Calls after the first, from any node, do nothing,
   * so the tasks that die of the kill raise no further errors.
   */
  abort_step(message: string, error?: boolean): void;
}

/** The step as one node's step daemon runs it (the parts of Slurm's `stepd_step_rec_t` mpi uses). */
export interface MpiStepInfo {
  readonly jobid: number;
  readonly stepid: number;
  /** Nodes and tasks in the whole step. */
  readonly nnodes: number;
  readonly ntasks: number;
  /** This node's id within the step (0 .. nnodes-1) and its name. */
  readonly nodeid: number;
  readonly node_name: string;
  /** Tasks on this node and their global ids (ranks). */
  readonly ltasks: number;
  readonly gtids: readonly number[];
  /** The whole step's layout. */
  readonly step_layout: MpiStepLayout;
  /**
   * Aborted when the step has ended on this node (its tasks exited or were killed): close the
   * sockets and timers the prefork hook opened.
   */
  readonly step_done: AbortSignal;
  /** End the whole step now, as {@link MpiClientInfo.abort_step} (from any node). */
  abort_step(message: string, error?: boolean): void;
}

/** One task about to be spawned (Slurm's `mpi_plugin_task_info_t`). */
export interface MpiTaskInfo {
  readonly jobid: number;
  readonly stepid: number;
  /** Nodes in the step, and this node's id and name. */
  readonly nnodes: number;
  readonly nodeid: number;
  readonly node_name: string;
  /** Tasks in the step, and on this node. */
  readonly ntasks: number;
  readonly ltasks: number;
  /** The task's global rank in the step (`SLURM_PROCID`). */
  readonly gtaskid: number;
  /** The task's rank on this node (`SLURM_LOCALID`). */
  readonly ltaskid: number;
}

/**
 * Extra file descriptors for the task, returned by `p_mpi_hook_slurmstepd_task`. Slurm's hook
 * runs in the forked child and opens them there; a Node host spawns the task instead, so the
 * hook says what to hand over. The task's fd 3 onwards are `fds` in order, then the `pipes`.
 */
export interface MpiTaskLaunch {
  /** Descriptors (or streams with one) the host already holds: `fds[0]` becomes the task's fd 3. */
  readonly fds?: readonly (number | Stream)[];
  /**
   * How many new connected sockets to give the task after `fds` (fd `3 + fds.length` is the
   * first): Unix stream sockets, whose other ends `attach` receives. This is how a PMI server
   * hands its task `PMI_FD`. How the host makes them is its own business (a `socketpair` that
   * Node's spawn creates, or a socket the spawner connects to the host before the exec): a
   * plugin relies only on a connected stream socket, never on its kind or on holding both ends.
   */
  readonly pipes?: number;
  /**
   * Called once, right after the task was spawned, with the parent's end of each pipe, in
   * order: a duplex stream over the socket whose other end the task holds. Read it (an unread
   * socket keeps the step from ending) and close it when done; the host waits for these ends to
   * close, like the task's stdout, before the step ends. If the task could not be started, the
   * pipes are already closed and `attach` gets an empty array. Without `attach`, the host
   * closes the parent ends itself.
   */
  attach?(streams: Duplex[]): void;
  /**
   * Called once when the task's process has ended (it exited, was killed, or could not be
   * started), after `attach`. A PMI server learns here that a task which never spoke PMI on
   * its socket will not come through another way either (`PMI_PORT`).
   */
  exited?(): void;
}

/**
 * An MPI plugin. `State` is what the client hooks keep between prelaunch and fini (Slurm's
 * opaque `mpi_plugin_client_state_t`).
 */
export interface MpiPlugin<State extends object = object> extends PluginHeader {
  /**
   * In tsrun, before the step's tasks are launched: set up what the MPI library needs (a
   * key-value store, a port for the step daemons to reach) and put it in `env`, which every
   * task inherits. Slurm: `mpi_plugin_client_state_t *p_mpi_hook_client_prelaunch(const
   * mpi_plugin_client_info_t *job, char ***env)`.
   * @returns the client state, handed later to `p_mpi_hook_client_fini`; or null on failure
   * (set an errno first), which stops the launch with "MPI plugin's pre-launch setup failed".
   */
  p_mpi_hook_client_prelaunch: (job: MpiClientInfo, env: StepEnv) => MaybePromise<State | null>;

  /**
   * In each node's step daemon, once, before its first task is spawned: most of the plugin's
   * node-side work (e.g. start the PMI server its tasks will talk to). `env` is the step's
   * environment on this node, inherited by its tasks. Slurm: `int
   * p_mpi_hook_slurmstepd_prefork(const stepd_step_rec_t *job, char ***env)`.
   * @returns SLURM_SUCCESS, or SLURM_ERROR, which fails the step on this node.
   */
  p_mpi_hook_slurmstepd_prefork: (job: MpiStepInfo, env: StepEnv) => MaybePromise<Rc>;

  /**
   * In the step daemon, for each task, after its environment is built (`SLURM_PROCID`,
   * `SLURM_LOCALID`, ...) and just before it is spawned: add per-task variables
   * (`PMI_RANK`, ...) to `env`, which is this task's alone. Slurm: `void
   * p_mpi_hook_slurmstepd_task(const mpi_plugin_task_info_t *job, char ***env)`.
   * @returns nothing, or extra file descriptors to give the task (see {@link MpiTaskLaunch}).
   */
  p_mpi_hook_slurmstepd_task: (job: MpiTaskInfo, env: StepEnv) => MaybePromise<void | MpiTaskLaunch>;

  /**
   * In tsrun, after every task of the step has finished (or the step failed): release what
   * prelaunch set up. Slurm: `int p_mpi_hook_client_fini(mpi_plugin_client_state_t *state)`.
   * @returns SLURM_SUCCESS, or SLURM_ERROR (reported; the step's exit code is unchanged).
   */
  p_mpi_hook_client_fini: (state: State) => MaybePromise<Rc>;
}

/** Every mpi API function; all are required ("should be defined or at least be stubbed"). */
export const mpiSymbols = {
  p_mpi_hook_client_prelaunch: 'required',
  p_mpi_hook_slurmstepd_prefork: 'required',
  p_mpi_hook_slurmstepd_task: 'required',
  p_mpi_hook_client_fini: 'required',
} as const satisfies SymbolTable<MpiPlugin>;

/** Newer Slurm's names for the mpi hooks → the documented names they stand for. */
export const mpiAliases = {
  mpi_p_client_prelaunch: 'p_mpi_hook_client_prelaunch',
  mpi_p_slurmstepd_prefork: 'p_mpi_hook_slurmstepd_prefork',
  mpi_p_slurmstepd_task: 'p_mpi_hook_slurmstepd_task',
  mpi_p_client_fini: 'p_mpi_hook_client_fini',
} as const satisfies Record<string, keyof typeof mpiSymbols>;
