// Raw tsrun options → a validated step request, with srun's own messages and exit statuses
// (observed on Slurm 22.05: a bad number exits 1, a bad --time/--mem/-m/-N range exits 255).
import { UserError } from '../../core/errors.js';
import { MEM_OPTIONS_EXCLUSIVE, parseNodeCount, positiveInt } from '../../cli/job-option-values.js';
import { parseMemoryMB } from '../../core/memory-size.js';
import { parseTimeLimitOption } from '../../core/time-string.js';
import { INFINITE } from '../../core/slurm-constants.js';
import { parseDistribution, type TaskDistribution } from '../../core/task-dist.js';
import type { RawTsrunOptions } from './options.js';

export interface StepRequest {
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
  const nodes = parseNodes(raw.nodes);
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
    exclusive: raw.exclusive === true,
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
  };
}
