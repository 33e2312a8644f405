/**
 * The Process Tracking plugin API (`proctrack/*`): how a node's step daemon finds every
 * process of a step, including the ones its tasks fork, so that it can signal them all and
 * know when they are gone. One container per step; ids are uint64 (`bigint`), made by the
 * plugin. No process of a cancelled or timed-out step may survive it (DESIGN.md §8), and this
 * plugin is how the host keeps that promise.
 *
 * Where the step daemon calls each function: `proctrack_p_create` when the step starts on
 * the node; `proctrack_p_add` for each task right after it is spawned; `proctrack_p_signal`
 * for scancel, time limits and the step's end; `proctrack_p_wait` once the tasks have exited,
 * so that no stray process outlives the step; `proctrack_p_destroy` last.
 * `proctrack_p_find`, `proctrack_p_has_pid` and `proctrack_p_get_pids` answer questions
 * (e.g. `tscontrol listpids`).
 *
 * Every Slurm function is required; tslurm's `proctrack_p_join`, `proctrack_p_oom_events` and
 * `proctrack_p_orphan_plan` are optional. On failure set an errno through `host.slurm_seterrno`; errno
 * values are never return values.
 */
import type { MaybePromise, PluginHeader, Rc, SymbolTable } from './common.js';
import type { StepEnv } from './mpi.js';

/** The step as the proctrack plugin sees it (the parts of Slurm's `stepd_step_rec_t` it uses). */
export interface ProctrackStep {
  readonly jobid: number;
  readonly stepid: number;
  /** The user and group the step's tasks run as. */
  readonly uid: number;
  readonly gid: number;
  /** This node's name. */
  readonly node_name: string;
  /** The step's container, once `proctrack_p_create` made it; else null. */
  readonly cont_id: bigint | null;
  /**
   * The environment every task of the step on this node starts from (Slurm's `job->env`), given
   * to `proctrack_p_create`: a plugin may add a variable that marks the step's processes.
   */
  readonly env?: StepEnv;
  /**
   * The step's memory on this node in MB (Slurm's `job->step_mem`): `--mem`, or `--mem-per-cpu`
   * times the CPUs on the node; 0 or absent means none was asked for. A plugin that constrains
   * memory (proctrack/cgroup with `constrain_ram_space`) limits the container to it.
   */
  readonly step_mem?: number;
}

/**
 * How a process other than the step daemon finds a container's processes (see
 * `proctrack_p_orphan_plan`). Each field is one way; the host uses every one given.
 */
export interface ProctrackOrphanPlan {
  /** A cgroup (v2) directory: its `cgroup.procs` are the step's processes, `cgroup.kill` ends them. */
  readonly cgroup?: string;
  /** A `VAR=value` entry in the environment of every process of the step. */
  readonly environ?: string;
}

/** A process tracking plugin. */
export interface ProctrackPlugin extends PluginHeader {
  /**
   * Make the step's container. The host guarantees a matching `proctrack_p_destroy`.
   * Slurm: `int proctrack_p_create(stepd_step_rec_t *job)`, which stores the id in `job->cont_id`.
   * @returns the new container id (never 0n), or null on failure, which fails the step.
   */
  proctrack_p_create: (step: ProctrackStep) => MaybePromise<bigint | null>;

  /**
   * Put process `pid` (a task just spawned) into the step's container; its future children
   * must be tracked too. Slurm: `int proctrack_p_add(stepd_step_rec_t *job, pid_t pid)`.
   * @returns SLURM_SUCCESS, or SLURM_ERROR, which fails the task.
   */
  proctrack_p_add: (step: ProctrackStep, pid: number) => MaybePromise<Rc>;

  /**
   * Send `signal` (a signal number) to every process in container `cont_id`. Signal 0 sends
   * nothing and only tests whether any process is left.
   * Slurm: `int proctrack_p_signal(uint64_t id, int signal)`.
   * @returns SLURM_SUCCESS if sent (or, for 0, if some process exists), else SLURM_ERROR.
   */
  proctrack_p_signal: (cont_id: bigint, signal: number) => MaybePromise<Rc>;

  /**
   * Destroy or invalidate container `cont_id`; it need not be empty.
   * Slurm: `int proctrack_p_destroy(uint64_t id)`.
   * @returns SLURM_SUCCESS, or SLURM_ERROR.
   */
  proctrack_p_destroy: (cont_id: bigint) => MaybePromise<Rc>;

  /**
   * The container holding process `pid`. Slurm: `uint64_t proctrack_p_find(pid_t pid)`.
   * @returns the container id, or null if the process is in none (Slurm's 0).
   */
  proctrack_p_find: (pid: number) => MaybePromise<bigint | null>;

  /**
   * Is process `pid` in container `cont_id`? Slurm: `bool proctrack_p_has_pid(uint64_t, pid_t)`.
   */
  proctrack_p_has_pid: (cont_id: bigint, pid: number) => MaybePromise<boolean>;

  /**
   * Settle when container `cont_id` is empty, killing (SIGKILL, repeatedly) whatever is left
   * in it, as Slurm's plugins do. Slurm: `int proctrack_p_wait(uint64_t id)`.
   * @returns SLURM_SUCCESS once empty, or SLURM_ERROR if processes could not be killed.
   */
  proctrack_p_wait: (cont_id: bigint) => MaybePromise<Rc>;

  /**
   * The processes in container `cont_id`. Slurm: `int proctrack_p_get_pids(uint64_t cont_id,
   * pid_t **pids, int *npids)`; the array is the result.
   * @returns the pids (possibly none), or null on failure.
   */
  proctrack_p_get_pids: (cont_id: bigint) => MaybePromise<readonly number[] | null>;

  /**
   * tslurm's addition: just before a task of the step is spawned, the plugin may change its
   * argv and env (`task`, edited in place), after the job_container plugin's join. Slurm's
   * forked child waits before exec until proctrack_p_add has run; a Node spawn cannot wait, so
   * a plugin whose containers must hold the task before it can fork (proctrack/cgroup) makes
   * the task join its container itself, through a wrapper. Default: nothing.
   * @returns SLURM_SUCCESS, or SLURM_ERROR (the task is not started).
   */
  proctrack_p_join?: (step: ProctrackStep, task: import('./job-container.js').ContainerTask) => MaybePromise<Rc>;

  /**
   * tslurm's addition: how many processes of container `cont_id` the kernel's out-of-memory
   * killer ended (Slurm's task/cgroup counts them in task_cgroup_memory_check_oom). The host
   * asks once the step's tasks on the node have ended, after `proctrack_p_wait` and before
   * `proctrack_p_destroy`; a count above 0 makes the step end OUT_OF_MEMORY, with slurmstepd's
   * "Detected N oom-kill event(s)" line. Default: 0 (the plugin limits no memory).
   * @returns the count (0 when none, or when the plugin cannot tell).
   */
  proctrack_p_oom_events?: (cont_id: bigint) => MaybePromise<number>;

  /**
   * tslurm's addition: how another process can end container `cont_id` when the step daemon
   * dies without ending it (a SIGKILLed tsrun): tslurm's reaper then signals what the plan
   * names (SIGTERM, SIGKILL after KillWait), besides the tasks' process groups, which it
   * always does. The host asks right after `proctrack_p_create`. Default: the groups only.
   * @returns the plan, or null when the process groups are all there is.
   */
  proctrack_p_orphan_plan?: (cont_id: bigint) => MaybePromise<ProctrackOrphanPlan | null>;
}

/** Every proctrack API function: all of Slurm's are required; tslurm's own three are optional. */
export const proctrackSymbols = {
  proctrack_p_create: 'required',
  proctrack_p_add: 'required',
  proctrack_p_signal: 'required',
  proctrack_p_destroy: 'required',
  proctrack_p_find: 'required',
  proctrack_p_has_pid: 'required',
  proctrack_p_wait: 'required',
  proctrack_p_get_pids: 'required',
  proctrack_p_join: 'optional',
  proctrack_p_oom_events: 'optional',
  proctrack_p_orphan_plan: 'optional',
} as const satisfies SymbolTable<ProctrackPlugin>;
