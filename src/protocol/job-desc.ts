// A job submission as it travels to the controller (Slurm's job_desc_msg_t, trimmed to what
// tslurm keeps), described once as a schema: tsbatch and tsrun build it, tsctld checks it on
// receipt (check-body.ts) and again when it replays its journal (state/quarantine.ts).
// Sizes are MB, time limits minutes (INFINITE when not given), times Unix seconds.
//
// The limits are slurmctld 22.05's: string lengths from _test_job_desc_fields (job_mgr.c;
// exceeding one is ESLURM_PATHNAME_TOO_LONG, observed for name, comment, work dir, output,
// partition, reservation, array and the 4 MB script), counts at least 1, MaxArraySize 1001.
// Adding a field: add it to `jobDescEntries` (v.optional(...) for one older journals lack),
// and, when it has a Slurm errno of its own, to JOB_DESC_ERRNO; the type follows.
import * as v from 'valibot';
import type { ErrnoName } from '../core/errno.js';
import { INFINITE } from '../core/slurm-constants.js';
import { count, int, jobId, minutes, pid, posixId, text, unixTime } from './schema-kit.js';

/** slurm.conf MaxArraySize's default: task ids run from 0 to 1000. */
export const MAX_ARRAY_SIZE = 1001;
/** Task ids share a uint32 with NO_VAL (no task) and INFINITE (`_*`). */
const MAX_TASK_ID = 0xfffffffd;
/** MAXPATHLEN, slurmctld's bound on every path of a job. */
const PATH_MAX = 4096;
/** slurmctld's bound on most other strings of a job (name, comment, partition, ...). */
const NAME_MAX = 1024;
/** SchedulerParameters=max_script_size's default. */
const SCRIPT_MAX = 4 * 1024 * 1024;
/** Hostlists (req_nodes): 64 KB. */
const HOSTLIST_MAX = 64 * 1024;

export const DEPENDENCY_TYPES = ['after', 'afterany', 'afterok', 'afternotok', 'aftercorr', 'afterburstbuffer', 'singleton'] as const;

const DependencyJobSchema = v.strictObject({
  jobId,
  /** `12_3`: array task 3 of job 12. */
  arrayTaskId: v.optional(int(0, MAX_TASK_ID)),
  /** `after:12+5`: minutes after the start. */
  delayMinutes: v.optional(int(1, INFINITE - 1)),
  /** `12_*`: every task of array job 12 (Slurm stores task id INFINITE); arrayTaskId is then unset. */
  allTasks: v.optional(v.boolean()),
});

/** One `--dependency` term: `afterok:12:13+5`, `singleton`. */
const DependencyTermSchema = v.pipe(
  v.strictObject({
    type: v.picklist(DEPENDENCY_TYPES),
    /** The job ids it names; empty for singleton. */
    jobs: v.array(DependencyJobSchema),
  }),
  v.check((term) => (term.type === 'singleton') === (term.jobs.length === 0), 'singleton names no job, every other type at least one'),
);

export const DependencySpecSchema = v.strictObject({
  /** `,` (all must hold) or `?` (any one is enough). */
  combine: v.picklist(['all', 'any']),
  terms: v.array(DependencyTermSchema),
  /** The text as given, for `scontrol show job` (Dependency=...); slurmctld's bound is 128 KB. */
  text: text(128 * 1024),
});

export const ArraySpecSchema = v.strictObject({
  /** The task ids, ascending, no duplicates, each below MaxArraySize. */
  taskIds: v.pipe(
    v.array(int(0, MAX_ARRAY_SIZE - 1)),
    v.minLength(1),
    v.check((ids) => ids.every((id, i) => i === 0 || id > ids[i - 1]!), 'must be ascending without duplicates'),
  ),
  /** `%N`: at most N tasks running at once; undefined when not limited. */
  maxRunning: v.optional(count(1)),
  /** The text as given (`0-15%4`); slurmctld's bound on array_inx is 4 KB. */
  text: text(4 * 1024),
});

/** `--signal=[R:|B:]SIG[@TIME]`. */
const JobSignalSchema = v.strictObject({
  signal: int(1, 127),
  /** Seconds before the time limit. */
  seconds: int(0, 0xffff),
  /** `B:`: only the batch shell gets it (sbatch). */
  batchOnly: v.boolean(),
  /** `R:`: also before a reservation ends. */
  reservation: v.boolean(),
  /** As given. */
  text: text(NAME_MAX),
});

/** Options srun and sbatch share beyond the counts; each absent when not given. */
const jobExtrasEntries = {
  account: v.optional(text(NAME_MAX)),
  qos: v.optional(text(NAME_MAX)),
  wckey: v.optional(text(NAME_MAX)),
  /** --mail-type in scontrol's order, ALL spelled out; '' for NONE. */
  mailType: v.optional(text(NAME_MAX)),
  mailUser: v.optional(text(NAME_MAX)),
  /** --nice: lowers the priority by this much. */
  nice: v.optional(int(-2147483645, 2147483645)),
  /** --time-min, minutes. */
  timeMin: v.optional(minutes),
  signal: v.optional(JobSignalSchema),
  /** --gpus-per-node / --gpus-per-task as given (`[type:]n`). */
  gpusPerNode: v.optional(text(NAME_MAX)),
  gpusPerTask: v.optional(text(NAME_MAX)),
  /** --mem-per-gpu, MB. */
  memPerGpu: v.optional(int(0, Number.MAX_SAFE_INTEGER)),
  cpusPerGpu: v.optional(count(1)),
  /** --mincpus: only nodes with at least this many CPUs. */
  minCpusPerNode: v.optional(count(1)),
  /** --tmp, MB: only nodes with this much TmpDisk. */
  tmpDisk: v.optional(int(0, Number.MAX_SAFE_INTEGER)),
  hint: v.optional(text(NAME_MAX)),
  reboot: v.optional(v.boolean()),
  /** Options recorded as given (long name → value), with nothing in tslurm acting on them. */
  recorded: v.optional(v.record(text(NAME_MAX), text(NAME_MAX))),
};

const JobExtrasSchema = v.strictObject(jobExtrasEntries);
export type JobSignal = v.InferOutput<typeof JobSignalSchema>;
export type JobExtras = v.InferOutput<typeof JobExtrasSchema>;

/** The keys of JobExtras, for copying them from one record to another. */
export const JOB_EXTRA_KEYS = ['account', 'qos', 'wckey', 'mailType', 'mailUser', 'nice', 'timeMin', 'signal', 'gpusPerNode', 'gpusPerTask', 'memPerGpu', 'cpusPerGpu', 'minCpusPerNode', 'tmpDisk', 'hint', 'reboot', 'recorded'] as const satisfies ReadonlyArray<keyof JobExtras>;

/** The JobExtras fields `from` has set. */
export function pickJobExtras(from: JobExtras): JobExtras {
  const out: Record<string, unknown> = {};
  for (const key of JOB_EXTRA_KEYS) if (from[key] !== undefined) out[key] = from[key];
  return out as JobExtras;
}

const jobDescEntries = {
  ...jobExtrasEntries,
  /** The batch script text, starting with `#!` (for --wrap, the generated script); '' for tsrun's job. */
  script: text(SCRIPT_MAX),
  /** Arguments after the script name, given to the script as $1... */
  argv: v.array(v.string()),
  /**
   * scontrol's Command=: the script name as sbatch sends it (made absolute when it was found
   * through the working directory or PATH); undefined for --wrap and a script read from stdin.
   */
  command: v.optional(text(PATH_MAX)),
  name: text(NAME_MAX),
  partition: v.optional(text(NAME_MAX)),
  /** -n; undefined when not given. */
  ntasks: v.optional(count(1)),
  /** -N: sbatch takes `-N 0` (observed on Slurm 22.05), so the least may be 0, the most not. */
  minNodes: v.optional(count(0)),
  maxNodes: v.optional(count(1)),
  cpusPerTask: v.optional(count(1)),
  ntasksPerNode: v.optional(count(1)),
  /** MB; 0 is "all the node's memory", as --mem=0 is. */
  memPerNode: v.optional(int(0, Number.MAX_SAFE_INTEGER)),
  memPerCpu: v.optional(int(0, Number.MAX_SAFE_INTEGER)),
  nodelist: v.optional(text(HOSTLIST_MAX)),
  exclude: v.optional(text(HOSTLIST_MAX)),
  constraint: v.optional(text(NAME_MAX)),
  gres: v.optional(text(NAME_MAX)),
  gpus: v.optional(text(NAME_MAX)),
  exclusive: v.boolean(),
  /** `--exclusive=user|mcs|oversubscribe`: share nodes only with the same user / MCS label, or freely; undefined otherwise. */
  exclusiveMode: v.optional(v.picklist(['user', 'mcs', 'oversubscribe'])),
  overcommit: v.boolean(),
  contiguous: v.boolean(),
  /** Minutes, or INFINITE (then the partition's default/max applies). */
  timeLimit: minutes,
  /** -o/-e/-i patterns as given (undefined: Slurm's defaults). */
  output: v.optional(text(PATH_MAX)),
  error: v.optional(text(PATH_MAX)),
  input: v.optional(text(PATH_MAX)),
  /** -D, absolute; the submit directory when not given. */
  workDir: v.pipe(text(PATH_MAX), v.startsWith('/', 'must be an absolute path')),
  /** The environment the script starts from, after --export (NAME=value strings). */
  environment: v.array(v.string()),
  /** --export as given (SLURM_EXPORT_ENV in the job), undefined when not given. */
  exportText: v.optional(v.string()),
  array: v.optional(ArraySpecSchema),
  dependency: v.optional(DependencySpecSchema),
  /** --hold: submitted held (priority 0, JobHeldUser). */
  hold: v.boolean(),
  /** --begin, Unix seconds; 0 when not given. */
  beginTime: unixTime,
  /** --requeue / --no-requeue; undefined: the cluster default (requeue allowed). */
  requeue: v.optional(v.boolean()),
  /** --kill-on-invalid-dep=yes|no; undefined: cluster default (no). */
  killOnInvalidDep: v.optional(v.boolean()),
  /** --open-mode=append|truncate. */
  openMode: v.optional(v.picklist(['append', 'truncate'])),
  /** --comment. */
  comment: v.optional(text(NAME_MAX)),
  /** --reservation: the advance reservation the job runs in (absent in older journals). */
  reservation: v.optional(text(NAME_MAX)),
  /**
   * tsrun's job (Slurm's BatchFlag=0): no script runs; the tsrun process with this pid holds
   * the allocation and runs the steps itself. Undefined for a batch job. `detached`: salloc
   * --no-shell's allocation, which outlives the command that asked for it (it ends when
   * cancelled or timed out). `ownStep`: tsrun's own job, whose step 0 it runs itself (the
   * accounting store records that step with the job).
   */
  interactive: v.optional(v.strictObject({ pid, detached: v.optional(v.boolean()), ownStep: v.optional(v.boolean()) })),
  /** Who submitted it: the controller trusts these only from an authenticated peer. */
  userId: posixId,
  groupId: posixId,
  userName: text(NAME_MAX),
  submitHost: text(NAME_MAX),
  /** The command line that submitted it, as sacct's SubmitLine shows it. */
  submitLine: v.optional(text(64 * 1024)),
  /** The submitting process's session id (Slurm's alloc_sid, scontrol's AllocNode:Sid=host:sid). */
  submitSid: v.optional(posixId),
  submitDir: text(PATH_MAX),
  /** The submitter's umask (octal), soft limits (`NOFILE=1024`, --propagate) and nice value: the batch script's. */
  umask: v.optional(v.pipe(v.string(), v.regex(/^0?[0-7]{1,4}$/))),
  rlimits: v.optional(v.array(v.pipe(v.string(), v.regex(/^[A-Z]+=(\d+|unlimited)$/)))),
  prioProcess: v.optional(int(-20, 19)),
};

// What holds across fields: at least as many nodes at most as at least (reported on maxNodes).
function nodesInOrder<S extends v.GenericSchema<unknown, { minNodes?: number | undefined; maxNodes?: number | undefined }>>(schema: S) {
  return v.pipe(
    schema,
    v.rawCheck<v.InferOutput<S>>(({ dataset, addIssue }) => {
      if (!dataset.typed) return;
      const { minNodes, maxNodes } = dataset.value;
      if (minNodes === undefined || maxNodes === undefined || maxNodes >= minNodes) return;
      addIssue({
        message: `must be at least minNodes (${minNodes}), got ${maxNodes}`,
        path: [{ type: 'object', origin: 'value', input: dataset.value as Record<string, unknown>, key: 'maxNodes', value: maxNodes }],
      });
    }),
  );
}

/** A job description as a client sends it: no field the controller does not know. */
export const JobDescSchema = nodesInOrder(v.strictObject(jobDescEntries));

/** As the journal holds it: fields of other builds are kept, the known ones checked alike. */
export const StoredJobDescSchema = nodesInOrder(v.looseObject(jobDescEntries));

export type DependencySpec = v.InferOutput<typeof DependencySpecSchema>;
export type DependencyTerm = DependencySpec['terms'][number];
export type ArraySpec = v.InferOutput<typeof ArraySpecSchema>;
export type JobDescriptor = v.InferOutput<typeof JobDescSchema>;

/** The Slurm errno of a refused field (a length beyond slurmctld's is ESLURM_PATHNAME_TOO_LONG). */
export const JOB_DESC_ERRNO: Partial<Record<keyof JobDescriptor, ErrnoName>> = {
  ntasks: 'ESLURM_BAD_TASK_COUNT',
  ntasksPerNode: 'ESLURM_BAD_TASK_COUNT',
  minNodes: 'ESLURM_INVALID_NODE_COUNT',
  maxNodes: 'ESLURM_INVALID_NODE_COUNT',
  cpusPerTask: 'ESLURM_INVALID_CPU_COUNT',
  memPerNode: 'ESLURM_INVALID_TASK_MEMORY',
  memPerCpu: 'ESLURM_INVALID_TASK_MEMORY',
  timeLimit: 'ESLURM_INVALID_TIME_LIMIT',
  beginTime: 'ESLURM_INVALID_TIME_VALUE',
  array: 'ESLURM_INVALID_ARRAY',
  dependency: 'ESLURM_DEPENDENCY',
  partition: 'ESLURM_INVALID_PARTITION_NAME',
  reservation: 'ESLURM_RESERVATION_INVALID',
  userId: 'ESLURM_USER_ID_MISSING',
  groupId: 'ESLURM_USER_ID_MISSING',
  script: 'ESLURM_JOB_SCRIPT_MISSING',
};
