// A job submission as it travels to the controller (Slurm's job_desc_msg_t, trimmed to what
// tslurm keeps). Plain JSON data: tsbatch builds it, tsctld validates and records it.
// Sizes are MB, time limits minutes (INFINITE when not given), times Unix seconds.

/** One `--dependency` term: `afterok:12:13+5`, `singleton`. */
export interface DependencyTerm {
  type: 'after' | 'afterany' | 'afterok' | 'afternotok' | 'aftercorr' | 'afterburstbuffer' | 'singleton';
  /** The job ids it names (`12_3` is job 12, array task 3); empty for singleton. */
  jobs: Array<{
    jobId: number;
    arrayTaskId?: number;
    /** `after:12+5`: minutes after the start. */
    delayMinutes?: number;
    /** `12_*`: every task of array job 12 (Slurm stores task id INFINITE); arrayTaskId is then unset. */
    allTasks?: boolean;
  }>;
}

export interface DependencySpec {
  /** `,` (all must hold) or `?` (any one is enough). */
  combine: 'all' | 'any';
  terms: DependencyTerm[];
  /** The text as given, for `scontrol show job` (Dependency=...). */
  text: string;
}

export interface ArraySpec {
  /** The task ids, ascending, no duplicates. */
  taskIds: number[];
  /** `%N`: at most N tasks running at once; undefined when not limited. */
  maxRunning: number | undefined;
  /** The text as given (`0-15%4`). */
  text: string;
}

export interface JobDescriptor {
  /** The batch script text, starting with `#!` (for --wrap, the generated script). */
  script: string;
  /** Arguments after the script name, given to the script as $1... */
  argv: string[];
  /**
   * scontrol's Command=: the script name as sbatch sends it (made absolute when it was found
   * through the working directory or PATH); undefined for --wrap and a script read from stdin.
   */
  command?: string;
  name: string;
  partition: string | undefined;
  /** -n; undefined when not given. */
  ntasks: number | undefined;
  minNodes: number | undefined;
  maxNodes: number | undefined;
  cpusPerTask: number | undefined;
  ntasksPerNode: number | undefined;
  memPerNode: number | undefined;
  memPerCpu: number | undefined;
  nodelist: string | undefined;
  exclude: string | undefined;
  constraint: string | undefined;
  gres: string | undefined;
  gpus: string | undefined;
  exclusive: boolean;
  /** `--exclusive=user|mcs|oversubscribe`: share nodes only with the same user / MCS label, or freely; undefined otherwise. */
  exclusiveMode?: 'user' | 'mcs' | 'oversubscribe';
  overcommit: boolean;
  contiguous: boolean;
  /** Minutes, or INFINITE (then the partition's default/max applies). */
  timeLimit: number;
  /** -o/-e/-i patterns as given (undefined: Slurm's defaults). */
  output: string | undefined;
  error: string | undefined;
  input: string | undefined;
  /** -D, absolute; the submit directory when not given. */
  workDir: string;
  /** The environment the script starts from, after --export (NAME=value strings). */
  environment: string[];
  /** --export as given (SLURM_EXPORT_ENV in the job), undefined when not given. */
  exportText: string | undefined;
  array: ArraySpec | undefined;
  dependency: DependencySpec | undefined;
  /** --hold: submitted held (priority 0, JobHeldUser). */
  hold: boolean;
  /** --begin, Unix seconds; 0 when not given. */
  beginTime: number;
  /** --requeue / --no-requeue; undefined: the cluster default (requeue allowed). */
  requeue: boolean | undefined;
  /** --kill-on-invalid-dep=yes|no; undefined: cluster default (no). */
  killOnInvalidDep: boolean | undefined;
  /** --open-mode=append|truncate. */
  openMode: 'append' | 'truncate' | undefined;
  /** --comment. */
  comment: string | undefined;
  /** --reservation: the advance reservation the job runs in (absent in older journals). */
  reservation?: string;
  /**
   * tsrun's job (Slurm's BatchFlag=0): no script runs; the tsrun process with this pid holds
   * the allocation and runs the steps itself. Undefined for a batch job. `detached`: salloc
   * --no-shell's allocation, which outlives the command that asked for it (it ends when
   * cancelled or timed out).
   */
  interactive?: { pid: number; detached?: boolean };
  /** Who submitted it: the controller trusts these only from an authenticated peer. */
  userId: number;
  groupId: number;
  userName: string;
  submitHost: string;
  submitDir: string;
}
