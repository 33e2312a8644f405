/**
 * The Job Completion Logging plugin API (`jobcomp/*`, slurm.conf JobCompType): one record
 * per finished job, written wherever the plugin writes it. `jobcomp/none` (the default) keeps
 * nothing, `jobcomp/filetxt` appends one line per job to the file JobCompLoc names, and
 * `jobcomp/script` runs the program JobCompLoc names with the job in its environment.
 *
 * When the controller calls each function: `init` when it starts, then
 * `jobcomp_p_set_location(JobCompLoc)` once (and again on `tscontrol reconfigure`), then
 * `jobcomp_p_log_record(job)` once for each job that ends (completed, failed, cancelled,
 * timed out, lost with its node, out of memory, preempted), after its state and end time are
 * final; `fini` when it stops. A failing call (SLURM_ERROR, a throw, a timeout) is logged by
 * the controller and changes nothing else: the job has ended all the same, and the controller
 * goes on scheduling.
 *
 * `jobcomp_p_set_location` and `jobcomp_p_log_record` are required; `jobcomp_p_get_jobs`
 * (sacct --completion in Slurm) is optional and not called by tslurm.
 */
import type { MaybePromise, PluginHeader, Rc, SymbolTable } from './common.js';

/**
 * A finished job as the jobcomp plugins see it: the parts of Slurm's `job_record_t` that
 * Slurm's own jobcomp plugins write, under its names. Times are Unix seconds (0: unknown);
 * `exit_code` and `derived_ec` are wait statuses (exit code << 8, or the signal number).
 */
export interface jobcomp_record_t {
  readonly job_id: number;
  /** The array's job id and this task's index; 0 and NO_VAL (0xfffffffe) when not an array task. */
  readonly array_job_id: number;
  readonly array_task_id: number;
  /** 0 when not part of a heterogeneous job (tslurm has none). */
  readonly het_job_id: number;
  readonly het_job_offset: number;
  readonly user_id: number;
  readonly user_name: string;
  readonly group_id: number;
  readonly group_name: string;
  readonly name: string;
  /** The final state's name, as `job_state_string` gives it: COMPLETED, FAILED, CANCELLED, TIMEOUT, ... */
  readonly job_state: string;
  /** Why the job last waited, as Slurm names reasons (`None`, `Resources`, ...). */
  readonly state_reason_prev: string;
  readonly partition: string;
  /** Minutes, or INFINITE (0xffffffff). */
  readonly time_limit: number;
  readonly submit_time: number;
  /** When it became eligible to start (Slurm's details->begin_time). */
  readonly eligible_time: number;
  readonly start_time: number;
  readonly end_time: number;
  /** The allocated nodes (a hostlist, `node[1-2]`), '' when it never ran. */
  readonly nodes: string;
  readonly node_cnt: number;
  readonly total_cpus: number;
  readonly work_dir: string;
  /** '' when not given. */
  readonly resv_name: string;
  readonly tres_req: string;
  readonly account: string;
  readonly qos: string;
  readonly wckey: string;
  readonly cluster: string;
  readonly features: string;
  readonly dependency: string;
  /** A batch job (sbatch); false for tsrun's and tsalloc's. */
  readonly batch_flag: boolean;
  readonly exit_code: number;
  readonly derived_ec: number;
  /** The job's stdio files as submitted (`-i`, `-o`, `-e`, maybe relative to work_dir); '' when not given. */
  readonly std_in: string;
  readonly std_out: string;
  readonly std_err: string;
}

/** A job completion logging plugin. */
export interface JobcompPlugin extends PluginHeader {
  /**
   * Where to log: JobCompLoc, or null when none is configured (each plugin has its default or
   * refuses). Called after `init` and on reconfiguration.
   * Slurm: `int jobcomp_p_set_location(char *location)`.
   * @returns SLURM_SUCCESS, or SLURM_ERROR (logged; the records that follow are still offered).
   */
  jobcomp_p_set_location: (location: string | null) => MaybePromise<Rc>;

  /**
   * Log one finished job. Slurm: `int jobcomp_p_log_record(job_record_t *job_ptr)`.
   * @returns SLURM_SUCCESS, or SLURM_ERROR (logged by the controller).
   */
  jobcomp_p_log_record: (job: jobcomp_record_t) => MaybePromise<Rc>;

  /** sacct --completion's source in Slurm; not called by tslurm. Default: none. */
  jobcomp_p_get_jobs?: (cond: unknown) => MaybePromise<readonly unknown[] | null>;
}

/** Every jobcomp API function. */
export const jobcompSymbols = {
  jobcomp_p_set_location: 'required',
  jobcomp_p_log_record: 'required',
  jobcomp_p_get_jobs: 'optional',
} as const satisfies SymbolTable<JobcompPlugin>;
