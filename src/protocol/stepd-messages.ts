// Every request a tsstepd node daemon serves, each with the schema of its body, checked on
// receipt by the RPC server as the controller's are (ctld-messages.ts): launches of a step's
// tasks (from tsrun, forwarded along the tree), batch scripts and their kill and signal
// orders (from the controller), sbcast's files, and a job's end. The types of the launch and
// batch specs (stepd/launch-spec.ts, stepd/batch-spec.ts) are these schemas' outputs.
import * as v from 'valibot';
import type { PluginChoices } from '../config/types.js';
import { INFINITE } from '../core/slurm-constants.js';
import { KILL_CAUSES } from './node-messages.js';
import { count, int, jobId, MAX_COUNT, minutes, noBody, port, posixId, signal, text, unixTime } from './schema-kit.js';
import { stepId } from './step-messages.js';

/** Who a job's processes run as: the credential's user. */
const UserSchema = v.strictObject({ uid: posixId, gid: posixId });

/** Run as this user, its groups looked up on the node. */
export const RunAsSchema = v.strictObject({
  uid: posixId,
  gid: posixId,
  /** Every group the user is in on this node, primary first (getgrouplist). */
  groups: v.array(posixId),
  name: v.string(),
});

const PluginChoicesSchema = v.strictObject({
  select: v.string(),
  mpiDefault: v.string(),
  jobContainer: v.string(),
  proctrack: v.string(),
  /** Set when `proctrack` is the default the host allowed: the plugin to load if it cannot. */
  proctrackFallback: v.optional(v.string()),
  sched: v.string(),
  auth: v.string(),
  pluginDirs: v.array(v.string()),
});

// Every plugin choice of the cluster model travels: one added to config/types.ts and not here
// fails to compile (rather than every launch being refused for an unknown field).
type UnsentChoice = Exclude<keyof PluginChoices, keyof v.InferOutput<typeof PluginChoicesSchema>>;
export const EVERY_PLUGIN_CHOICE_SENT: [UnsentChoice] extends [never] ? true : UnsentChoice = true;

/** The cluster's plugin settings (plugin-host/create.ts: the daemon needs no more of the cluster file). */
export const PluginSettingsSchema = v.strictObject({
  clusterName: v.string(),
  plugins: PluginChoicesSchema,
  options: v.record(v.string(), v.unknown()),
});

const seconds = int(0, INFINITE);

/** The facts of a step every node of it is told. */
export const StepFactsSchema = v.strictObject({
  jobId,
  stepId,
  jobName: v.string(),
  partition: v.string(),
  clusterName: v.string(),
  /** Every node of the step, in node-id order, and the tasks on each. */
  nodeNames: v.pipe(v.array(v.string()), v.minLength(1)),
  tasksPerNode: v.array(count(0)),
  tids: v.array(v.array(int(0, MAX_COUNT))),
  ntasks: count(1),
  /** The job's nodes (a step may use fewer) and CPUs per node, compressed as Slurm prints them. */
  jobNodelist: v.string(),
  jobCpusPerNode: v.string(),
  jobNumNodes: count(1),
  /** -c when given (Slurm sets SLURM_CPUS_PER_TASK only then). */
  cpusPerTask: v.optional(count(1)),
  /** -m when given (Slurm sets SLURM_DISTRIBUTION only then). */
  distribution: v.optional(v.string()),
  /** How the tasks were laid out over the nodes, given or not (the mpi plugins' `task_dist`). */
  taskDist: v.picklist(['block', 'cyclic', 'plane', 'arbitrary']),
  mpiType: v.string(),
  submitDir: v.string(),
  submitHost: v.string(),
  launchNodeAddr: v.string(),
  umask: v.string(),
  /** --propagate: the submitter's soft limits the tasks start with, `NAME=value` (CORE, NOFILE, ...). */
  rlimits: v.optional(v.array(v.string())),
  /** --slurmd-debug: the step daemon's stderr log level (2 error ... 6 debug2). */
  slurmdDebug: v.optional(int(0, 9)),
  /** SLURM_PRIO_PROCESS: the submitter's nice value. */
  prioProcess: v.optional(int(-20, 19)),
  label: v.boolean(),
  /** Minutes, or INFINITE. */
  timeLimit: minutes,
  /** SLURM_CONF: the cluster's configuration file. */
  confFile: v.optional(v.string()),
  /** A step of an existing allocation (salloc, a batch script), not of tsrun's own job. */
  insideJob: v.optional(v.boolean()),
  /** The job's owner (SLURM_JOB_UID, SLURM_JOB_GID, SLURM_JOB_USER). */
  jobUid: v.optional(posixId),
  jobGid: v.optional(posixId),
  jobUser: v.optional(v.string()),
  /** -A and --qos of tsrun's own job (SLURM_JOB_ACCOUNT, SLURM_JOB_QOS); a job step inherits them. */
  account: v.optional(v.string()),
  qos: v.optional(v.string()),
  /** --task-prolog, --task-epilog: run per task by the step daemon, as the user. */
  taskProlog: v.optional(v.string()),
  taskEpilog: v.optional(v.string()),
  /** slurm.conf's TaskProlog, TaskEpilog: run per task around the user's (stepd/task-scripts.ts). */
  confTaskProlog: v.optional(v.string()),
  confTaskEpilog: v.optional(v.string()),
  /** SLURM_WORKING_CLUSTER: `cluster:controller host:port:protocol version:select plugin id`. */
  workingCluster: v.optional(v.string()),
  /** tsrun's port the nodes reach it on (SLURM_SRUN_COMM_PORT), with launchNodeAddr; 0: none. */
  srunPort: v.optional(int(0, 65535)),
  /** Seconds between samples of the tasks' use (JobAcctGatherFrequency; 0: final figures only). */
  acctGatherFrequency: v.optional(int(0, 65535)),
  /** srun --pty: task 0 runs on a terminal of this size (SLURM_PTY_WIN_ROW, SLURM_PTY_WIN_COL). */
  pty: v.optional(v.strictObject({ rows: int(1, 65535), cols: int(1, 65535) })),
});

/** Which tasks read tsrun's stdin, or the file each task of a node reads (local-id order). */
export const StdinSchema = v.union([v.picklist(['all', 'none']), int(0, MAX_COUNT), v.strictObject({ files: v.array(v.string()) })]);

/** One node's part of a step and where its daemon listens. */
const RemoteNodeSchema = v.strictObject({
  name: v.string(),
  host: text(1024),
  port,
  spec: v.strictObject({
    /** This node's position in `step.nodeNames`. */
    nodeId: int(0, MAX_COUNT),
    /** CPUs this job holds on this node (SLURM_CPUS_ON_NODE). */
    cpusOnNode: count(0),
    /** GPU indices allocated on this node, for CUDA_VISIBLE_DEVICES (empty: variable not set). */
    gpus: v.array(int(0, MAX_COUNT)),
    /** The program of each task on this node, in local-id order (they differ only with --multi-prog). */
    argv: v.array(v.array(v.string())),
    stdin: StdinSchema,
    /** The step's memory on this node in MB (--mem, or --mem-per-cpu x CPUs); absent or 0: none. */
    memLimitMb: v.optional(count(0)),
  }),
});

export const RemoteLaunchSchema = v.strictObject({
  step: StepFactsSchema,
  cwd: v.string(),
  env: v.array(v.string()),
  killWaitSeconds: seconds,
  /** The plugins the step runs with (the daemon loads the same ones tsrun named). */
  plugins: PluginSettingsSchema,
  /** The step is its job's only one (tsrun made the job): the job's container ends with it. */
  endsJob: v.boolean(),
  /** Every node of the step, in node-id order. */
  nodes: v.pipe(v.array(RemoteNodeSchema), v.minLength(1)),
  /** tsrun's I/O listener and the key each node's hello must carry. */
  io: v.strictObject({ host: text(1024), port, key: text(1024) }),
  treeWidth: count(1),
  /** Who runs the tasks: the credential's user (a forwarding daemon passes it on). */
  user: v.optional(UserSchema),
});

/** The `launch` request to one daemon: it runs `nodes[span[0]]` and forwards the rest of the span. */
export const LaunchRequestSchema = v.pipe(
  v.strictObject({ launch: RemoteLaunchSchema, span: v.tuple([int(0, MAX_COUNT), int(1, MAX_COUNT)]) }),
  v.check(({ launch, span }) => span[0] < span[1] && span[1] <= launch.nodes.length, 'span must name nodes of the launch, first before last'),
);

/** What the batch step daemon needs to run a job's script (slurmd's batch_job_launch_msg_t). */
export const BatchSpecSchema = v.strictObject({
  jobId,
  nodeName: v.string(),
  plugins: PluginSettingsSchema,
  /** The script, already written to disk, and its arguments. */
  script: v.string(),
  argv: v.array(v.string()),
  workDir: v.string(),
  /** The script's complete environment (the job's, with the batch SLURM_* variables). */
  env: v.array(v.string()),
  /** Absolute paths; stderr equal to stdout means one file for both. */
  stdout: v.string(),
  stderr: v.string(),
  stdin: v.string(),
  openMode: v.picklist(['append', 'truncate']),
  /** SIGTERM, then SIGKILL after this many seconds (KillWait). */
  killWaitSeconds: seconds,
  /** Seconds between samples of the script's use (JobAcctGatherFrequency; 0: final figures only). */
  acctGatherFrequency: v.optional(int(0, 65535)),
  /** The job's memory on this node in MB (--mem, or --mem-per-cpu × CPUs); 0 or absent: none asked for. */
  memLimitMb: v.optional(int(0, Number.MAX_SAFE_INTEGER)),
  /** The job's user (the controller's record of who submitted it). */
  user: v.optional(UserSchema),
  /** Run the script as this user, its groups looked up on the node (set by a root tsstepd). */
  runAs: v.optional(RunAsSchema),
  /** The submitter's umask (octal) and soft limits (`NAME=value`), the script's. */
  umask: v.optional(v.string()),
  rlimits: v.optional(v.array(v.string())),
  /** slurm.conf's TaskProlog, TaskEpilog: run before and after the script, as for a task. */
  confTaskProlog: v.optional(v.string()),
  confTaskEpilog: v.optional(v.string()),
});

/** Why the controller asked the batch step to end (written before it sends SIGTERM). */
export const KillRequestSchema = v.strictObject({
  cause: v.picklist(KILL_CAUSES),
  /** Unix seconds. */
  at: unixTime,
  /** Who cancelled, for `CANCELLED AT ... DUE TO ...`; unused for now. */
  by: v.optional(posixId),
});

/**
 * Standard base64 with its padding, checked by a loop: valibot's base64() regex overflows the
 * stack on the tens of megabytes a file can carry.
 */
function isBase64(text: string): boolean {
  if (text.length % 4 !== 0) return false;
  const body = text.endsWith('==') ? text.length - 2 : text.endsWith('=') ? text.length - 1 : text.length;
  for (let i = 0; i < body; i++) {
    const c = text.charCodeAt(i);
    const ok = (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || (c >= 48 && c <= 57) || c === 43 || c === 47;
    if (!ok) return false;
  }
  return true;
}

/** sbcast's file for one node, its data in base64. */
export const BcastBodySchema = v.strictObject({
  jobId,
  nodeName: v.string(),
  /** Absolute path on the node. */
  dest: v.pipe(text(4096), v.startsWith('/', 'must be an absolute path')),
  data: v.pipe(v.string(), v.check(isBase64, 'must be base64')),
  /** The source's st_mode (type bits included); the file is created with its permission bits. */
  mode: int(0, 0xffff),
  /** -f: replace an existing file (else it is an error, EEXIST). */
  force: v.boolean(),
  /** -p: the source's access and modification times (Unix seconds); null: not preserved. */
  times: v.nullable(v.strictObject({ atime: v.number(), mtime: v.number() })),
  /** The cluster's plugins, for the embedded step host (a node daemon has its own cluster file). */
  plugins: v.optional(PluginSettingsSchema),
});

export const STEPD_BODIES = {
  launch: LaunchRequestSchema,
  'batch-launch': v.strictObject({ spec: BatchSpecSchema, script: text(4 * 1024 * 1024), gen: count(0) }),
  'batch-kill': v.strictObject({ jobId, request: KillRequestSchema }),
  /** `shellOnly`: to the batch shell alone (scancel -b), else to everything of the batch step. */
  'batch-signal': v.strictObject({ jobId, signal, shellOnly: v.optional(v.boolean()) }),
  bcast: BcastBodySchema,
  'job-end': v.strictObject({ jobId }),
  /** The batch steps the host runs, and those ended whose result the controller has not taken yet. */
  'batch-jobs': noBody,
  ping: noBody,
} satisfies Record<string, v.GenericSchema>;

export type StepdOp = keyof typeof STEPD_BODIES;
export type StepdBody<K extends StepdOp> = v.InferOutput<(typeof STEPD_BODIES)[K]>;
export type StepFacts = v.InferOutput<typeof StepFactsSchema>;
export type RemoteLaunch = v.InferOutput<typeof RemoteLaunchSchema>;
export type LaunchRequest = v.InferOutput<typeof LaunchRequestSchema>;
export type BatchSpec = v.InferOutput<typeof BatchSpecSchema>;
export type KillRequest = v.InferOutput<typeof KillRequestSchema>;
export type RunAs = v.InferOutput<typeof RunAsSchema>;
