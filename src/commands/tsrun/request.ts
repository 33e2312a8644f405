// Raw tsrun options → a validated step request, with srun's own messages and exit statuses
// (observed on Slurm 22.05: a bad number exits 1, a bad --time/--mem/-m/-N range exits 255).
import { UserError } from '../../core/errors.js';
import os from 'node:os';
import { nameForUid, uidForName } from '../../os/users.js';
import { gidForName } from '../../os/groups.js';
import { MEM_OPTIONS_EXCLUSIVE, parseNodeCount, positiveInt } from '../../cli/job-option-values.js';
import { parseMemoryMB } from '../../core/memory-size.js';
import { parseTimeLimitOption } from '../../core/time-string.js';
import { INFINITE } from '../../core/slurm-constants.js';
import { parseDistribution, type TaskDistribution } from '../../core/task-dist.js';
import { checkJobExtras, nonNegative, HINT_HELP } from '../../cli/job-extras.js';
import { parseCpuBind, parsePropagate, type CpuBind } from './step-options.js';
import type { JobExtras } from '../../protocol/job-desc.js';
import type { RawTsrunOptions } from './options.js';

export interface StepRequest {
  /** The shared job options (account, --signal, --gpus-per-*, ...), for a job tsrun creates. */
  extras: JobExtras;
  /** --exact (or --exclusive for a step): the step gets only the CPUs it asks for. */
  exact: boolean;
  /** --overlap: the step shares its CPUs with other steps. */
  overlap: boolean;
  cpuBind: CpuBind | undefined;
  /** -W: seconds after the first task ends before the rest are killed (0: never). */
  waitAfterFirst: number | undefined;
  /** -I: seconds to wait for the allocation (0: it must be granted at once). */
  immediate: number | undefined;
  /** --jobid: run the step inside this job. */
  jobId: number | undefined;
  /** -d: the dependency of a job tsrun creates. */
  dependency: string | undefined;
  taskProlog: string | undefined;
  taskEpilog: string | undefined;
  prolog: string | undefined;
  epilog: string | undefined;
  quitOnInterrupt: boolean;
  /** --pty: task 0 runs on a pseudo-terminal. */
  pty: boolean;
  /** --uid/--gid (root only): who the job and its tasks belong to instead of the caller. */
  runAs: { uid: number; gid: number; name: string } | undefined;
  /** --slurmd-debug: how far above `error` the step daemon reports on stderr (as given; srun caps it at 4). */
  slurmdDebug: number | undefined;
  openMode: 'append' | 'truncate' | undefined;
  /** --propagate: the rlimits the tasks take from tsrun (undefined: all, as PropagateResourceLimits=ALL). */
  propagate: string[] | undefined;
  noAllocate: boolean;
  /** -H: the job is submitted held. */
  hold: boolean;
  /** Tasks; undefined when neither -n nor a default gave one (then one per node, as srun). */
  ntasks: number | undefined;
  minNodes: number | undefined;
  maxNodes: number | undefined;
  cpusPerTask: number;
  cpusPerTaskGiven: boolean;
  ntasksPerNode: number | undefined;
  partition: string | undefined;
  reservation?: string;
  nodelist: string | undefined;
  exclude: string | undefined;
  constraint: string | undefined;
  memPerNode: number | undefined;
  memPerCpu: number | undefined;
  gres: string | undefined;
  gpus: string | undefined;
  exclusive: boolean;
  overcommit: boolean;
  /** -m parsed; undefined for srun's default (block, or cyclic when tasks < nodes). */
  distribution: TaskDistribution | undefined;
  /** Minutes, INFINITE when not limited. */
  timeLimit: number;
  jobName: string | undefined;
  label: boolean;
  output: string | undefined;
  error: string | undefined;
  input: string | undefined;
  unbuffered: boolean;
  export: string | undefined;
  chdir: string | undefined;
  killOnBadExit: boolean;
  multiProg: boolean;
  mpi: string | undefined;
  testOnly: boolean;
  quiet: boolean;
  command: string[];
}

/** -N min[-max]; srun passes 0 on to the controller, which answers "Node count specification invalid". */
function parseNodes(value: string | undefined): { min?: number; max?: number } {
  if (value === undefined) return {};
  const { min, max } = parseNodeCount(value);
  if (min === 0 || max === 0) throw UserError.fromErrno('ESLURM_INVALID_NODE_COUNT', 'Unable to allocate resources');
  return { min, max: value.includes('-') ? max : undefined };
}

function parseKillOnBadExit(value: string | boolean | undefined): boolean {
  if (value === undefined || value === false) return false;
  if (value === true) return true;
  return value.trim() !== '0';
}

export function buildStepRequest(raw: RawTsrunOptions, command: string[]): StepRequest {
  if (raw.hint === 'help') throw new UserError(HINT_HELP, { bare: true });
  if (typeof raw.hetGroup === 'string') refuseHetGroup(raw.hetGroup);
  // -Z runs on the -w nodes without an allocation; without them srun refuses (observed).
  if (raw.noAllocate === true && raw.nodelist === undefined) throw new UserError('must specify a node list with -Z, --no-allocate.');
  const nodes = parseNodes(raw.nodes);
  const extras = checkJobExtras(raw, 'srun');
  // false: not given (tsalloc passes its flag so).
  const exclusive = raw.exclusive === undefined || raw.exclusive === false ? undefined : parseExclusive(raw.exclusive);
  const cpusPerTask = positiveInt(raw.cpusPerTask, '--cpus-per-task');
  if (raw.mem !== undefined && raw.memPerCpu !== undefined) {
    throw new UserError(MEM_OPTIONS_EXCLUSIVE);
  }
  return {
    ntasks: positiveInt(raw.ntasks, '--ntasks'),
    minNodes: nodes.min,
    maxNodes: nodes.max,
    cpusPerTask: cpusPerTask ?? 1,
    cpusPerTaskGiven: cpusPerTask !== undefined,
    ntasksPerNode: positiveInt(raw.ntasksPerNode, '--ntasks-per-node'),
    partition: raw.partition,
    ...(raw.reservation !== undefined && { reservation: raw.reservation }),
    nodelist: raw.nodelist,
    exclude: raw.exclude,
    constraint: raw.constraint,
    memPerNode: raw.mem === undefined ? undefined : parseMemoryMB(raw.mem, '--mem'),
    memPerCpu: raw.memPerCpu === undefined ? undefined : parseMemoryMB(raw.memPerCpu, '--mem-per-cpu'),
    gres: raw.gres,
    gpus: raw.gpus,
    exclusive: exclusive !== undefined,
    overcommit: raw.overcommit === true,
    distribution: raw.distribution === undefined ? undefined : parseDistribution(raw.distribution, process.env.SLURM_DIST_PLANESIZE),
    timeLimit: raw.time === undefined ? INFINITE : parseTimeLimitOption(raw.time, '--time'),
    jobName: raw.jobName,
    label: raw.label === true,
    output: raw.output,
    error: raw.error,
    input: raw.input,
    unbuffered: raw.unbuffered === true,
    export: raw.export,
    chdir: raw.chdir,
    killOnBadExit: parseKillOnBadExit(raw.killOnBadExit),
    multiProg: raw.multiProg === true,
    mpi: raw.mpi,
    testOnly: raw.testOnly === true,
    quiet: raw.quiet === true,
    command,
    extras,
    exact: raw.exact === true || exclusive !== undefined,
    overlap: raw.overlap !== undefined,
    cpuBind: typeof raw.cpuBind === 'string' ? parseCpuBind(raw.cpuBind) : undefined,
    waitAfterFirst: typeof raw.wait === 'string' ? nonNegative(raw.wait, '--wait') : undefined,
    immediate: raw.immediate === undefined ? undefined : raw.immediate === true ? 0 : nonNegative(String(raw.immediate), 'immediate'),
    jobId: typeof raw.jobid === 'string' ? positiveInt(raw.jobid, '--jobid') : undefined,
    dependency: typeof raw.dependency === 'string' ? raw.dependency : undefined,
    taskProlog: stringOption(raw.taskProlog),
    taskEpilog: stringOption(raw.taskEpilog),
    prolog: noneAsUndefined(raw.prolog),
    epilog: noneAsUndefined(raw.epilog),
    quitOnInterrupt: raw.quitOnInterrupt === true,
    pty: raw.pty === true,
    runAs: runAsOption(raw.uid, raw.gid),
    slurmdDebug: raw.slurmdDebug === undefined ? undefined : slurmdDebugIncrement(String(raw.slurmdDebug)),
    openMode: raw.openMode === undefined ? undefined : parseOpenMode(String(raw.openMode)),
    propagate: raw.propagate === undefined ? undefined : parsePropagate(raw.propagate === true ? 'ALL' : String(raw.propagate)),
    noAllocate: raw.noAllocate === true,
    hold: raw.hold === true,
  };
}

/**
 * tslurm has no heterogeneous jobs, so every job is one component (index 0), and srun's
 * answers inside such a job are the answers (observed on srun 22.05).
 */
function refuseHetGroup(value: string): never {
  if (!/^\d+(-\d+)?(,\d+(-\d+)?)*$/.test(value)) {
    throw new UserError(`_parse_single_range: Invalid range: \`${value}'\nInvalid --het-group value: ${value}`);
  }
  const highest = Math.max(...value.split(/[,-]/).map(Number));
  if (highest > 0) throw new UserError(`Requested het-group offset exceeds highest hetjob index (${highest} > 0)`);
  throw new UserError('No directives to start application on any available hetjob components');
}

/**
 * srun's --uid and --gid: root's only (srun's refusal otherwise), a name or a number each; the
 * other one stays the caller's (observed: `srun --uid=nobody id` runs with gid 0 as root).
 */
function runAsOption(uidText: unknown, gidText: unknown): StepRequest['runAs'] {
  if (uidText === undefined && gidText === undefined) return undefined;
  const root = process.getuid?.() === 0;
  const me = os.userInfo();
  let uid = me.uid;
  if (typeof uidText === 'string') {
    if (!root) throw new UserError('--uid only permitted by root user', { exitCode: 255 });
    uid = uidForName(uidText) ?? invalidId('--uid');
  }
  let gid = me.gid;
  if (typeof gidText === 'string') {
    if (!root) throw new UserError('--gid only permitted by root user', { exitCode: 255 });
    gid = /^\d+$/.test(gidText) ? Number(gidText) : (gidForName(gidText) ?? invalidId('--gid'));
  }
  return { uid, gid, name: nameForUid(uid) };
}

function invalidId(option: string): never {
  throw new UserError(`Invalid ${option} specification`, { exitCode: 255 });
}

// Slurm's log level names and numbers (log.h), which --slurmd-debug takes either of.
const LOG_LEVELS = ['quiet', 'fatal', 'error', 'info', 'verbose', 'debug', 'debug2', 'debug3', 'debug4', 'debug5'];

/**
 * --slurmd-debug=LEVEL as srun reads it: a number or a level name, an increment over the step
 * daemon's `error`; srun caps it at 4 (what it cannot read, a negative number too, is capped).
 */
function slurmdDebugIncrement(value: string): number {
  if (/^\d+$/.test(value)) return Number(value);
  const named = LOG_LEVELS.indexOf(value.toLowerCase());
  return named >= 0 ? named : Number.POSITIVE_INFINITY;
}

function stringOption(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

// --prolog=none and --epilog=none turn slurm.conf's SrunProlog/SrunEpilog off.
function noneAsUndefined(value: unknown): string | undefined {
  return typeof value === 'string' && value.toLowerCase() !== 'none' ? value : undefined;
}

// Only the first letter counts ("axyz" is append), as sbatch reads it.
function parseOpenMode(value: string): 'append' | 'truncate' {
  const mode = ({ a: 'append', t: 'truncate' } as const)[value[0]?.toLowerCase() as 'a' | 't'];
  if (!mode) throw new UserError('Invalid --open-mode specification', { exitCode: 255 });
  return mode;
}

function parseExclusive(value: string | boolean): string {
  if (value === true) return 'exclusive';
  const mode = String(value).toLowerCase();
  if (!['exclusive', 'user', 'mcs', 'oversubscribe'].includes(mode)) throw new UserError('Invalid --exclusive specification', { exitCode: 255 });
  return mode;
}
