/**
 * The Job Container plugin API, version 101 (`job_container/*`): a per-job container on each
 * node (a private /tmp, a namespace, a Cray job) that holds every process of the job, across
 * its steps. Process tracking of a single step is the proctrack API's job; a job container
 * holds the steps' proctrack containers. Newer Slurm calls this type `namespace`.
 *
 * Where the step daemon calls each function on a node (DESIGN.md §3 steps 5 and 7):
 * - `container_p_create(job_id)` when the job's first step (or batch script) starts on the node;
 * - `container_p_add_cont(job_id, cont_id)` for each step, right after the proctrack plugin
 *   created the step's container;
 * - `container_p_join(job_id, uid, task)` (optional) for each task, just before it is spawned:
 *   where Slurm's slurmstepd calls it in the forked child before exec, a plugin here edits the
 *   task's argv (e.g. prefix it with `unshare`/`nsenter`) and env (e.g. `TMPDIR`);
 * - `container_p_add_pid(job_id, pid, uid)` for each task, right after it is spawned;
 * - `container_p_delete(job_id)` when the job ends on the node (after its last step, when the
 *   job completes, is cancelled or times out);
 * - `container_p_reconfig()` on `tscontrol reconfigure`.
 *
 * Every function but `container_p_join` is required; a plugin with nothing to do stubs them (see
 * `job_container/none`). On one host the emulated nodes of a step share one step daemon, so
 * `container_p_create`/`container_p_delete` come once per job per step-daemon process.
 * On failure return SLURM_ERROR after setting an errno through `host.slurm_seterrno`; errno
 * values are never return values.
 */
import type { MaybePromise, PluginHeader, Rc, SymbolTable } from './common.js';
import type { StepEnv } from './mpi.js';

/** A task about to be spawned, as `container_p_join` may change it. */
export interface ContainerTask {
  /** The program and its arguments; a plugin may replace it, e.g. prefix a wrapper that enters a namespace. */
  argv: string[];
  /** The task's environment. */
  readonly env: StepEnv;
  /**
   * The directory the task is spawned in (absent: the step daemon's own choice). A plugin whose
   * wrapper enters another mount namespace changes directory there itself and sets this to one
   * that exists outside it (`/`).
   */
  cwd?: string;
  /**
   * Set by a plugin when the task's directory does not exist inside the job's container: why
   * (`No such file or directory`). The task then starts in `/tmp` and the step daemon prints
   * slurmstepd's `couldn't chdir to ...: going to /tmp instead` line.
   */
  cwdError?: string;
  /**
   * The host's task exec helper (tstask_exec), when it is built. A plugin that must act inside
   * the task's own process before it execs prefixes `[taskExec, ...options, '--']` to argv
   * rather than a shell, which would re-export the environment in its own order. Options:
   * `--procs FILE` (write the task's pid into a cgroup.procs file; repeatable), `--mount-ns
   * FILE` (setns into the mount namespace bound at FILE), `--chdir DIR` (change to DIR, or to
   * /tmp when it is not there). It then execs the rest with the same pid and environment. The
   * step host's spawn server does what such a prefix asks in the task's own process instead of
   * exec'ing the helper (the task is then one fork and one exec); the effect is the same.
   */
  readonly taskExec?: string;
}

/** The API version this file describes; a plugin on the older scheme declares `plugin_version = 101`. */
export const JOB_CONTAINER_API_VERSION = 101;

/** A job container plugin. */
export interface JobContainerPlugin extends PluginHeader {
  /**
   * Create the container of job `job_id` on this node. The host guarantees a matching
   * `container_p_delete`. Slurm: `int container_p_create(uint32_t job_id)`.
   * @returns SLURM_SUCCESS, or SLURM_ERROR, which fails the step that was starting.
   */
  container_p_create: (job_id: number) => MaybePromise<Rc>;

  /**
   * Put a step's process-tracking container, `cont_id` (made by the proctrack plugin), into the
   * job's container. Slurm: `int container_p_add_cont(uint32_t job_id, uint64_t cont_id)`.
   * @returns SLURM_SUCCESS, or SLURM_ERROR, which fails the step.
   */
  container_p_add_cont: (job_id: number, cont_id: bigint) => MaybePromise<Rc>;

  /**
   * Put process `pid`, owned by `uid`, into the job's container; it is already in its step's
   * proctrack container. Slurm: `int container_p_add_pid(uint32_t job_id, pid_t pid, uid_t uid)`.
   * @returns SLURM_SUCCESS, or SLURM_ERROR, which fails the task.
   */
  container_p_add_pid: (job_id: number, pid: number, uid: number) => MaybePromise<Rc>;

  /**
   * Optional (newer Slurm's `container_p_join`): make task `task` start inside job `job_id`'s
   * container. Called for each task just before it is spawned, after the mpi task hook. Slurm
   * calls it in the forked child before exec (setns); a plugin here edits `task.argv` (a
   * wrapper that must `exec` the rest, keeping the pid) and `task.env`. Absent: nothing changes.
   * @returns SLURM_SUCCESS, or SLURM_ERROR, which fails the step.
   */
  container_p_join?: (job_id: number, uid: number, task: ContainerTask) => MaybePromise<Rc>;

  /**
   * The job's container is no longer needed: destroy or invalidate it. It need not be empty.
   * Slurm: `int container_p_delete(uint32_t job_id)`.
   * @returns SLURM_SUCCESS, or SLURM_ERROR (logged; the job still completes).
   */
  container_p_delete: (job_id: number) => MaybePromise<Rc>;

  /**
   * The configuration changed (notably debug flags); re-read what the plugin caches.
   * Slurm: `void container_p_reconfig(void)`.
   */
  container_p_reconfig: () => MaybePromise<void>;
}

/** Every job_container API function; all but `container_p_join` are required. */
export const jobContainerSymbols = {
  container_p_create: 'required',
  container_p_add_cont: 'required',
  container_p_add_pid: 'required',
  container_p_join: 'optional',
  container_p_delete: 'required',
  container_p_reconfig: 'required',
} as const satisfies SymbolTable<JobContainerPlugin>;
