// One source of tsbatch options (command line, #SBATCH lines or SBATCH_* variables) checked
// with sbatch's messages, and the sources merged: command line over environment over script
// (sbatch(1) "INPUT ENVIRONMENT VARIABLES"). A bad value fails when its source is read, even
// if a later source would replace it, as sbatch's setters do (observed).
import { MEM_OPTIONS_EXCLUSIVE, parseNodeCount, positiveInt } from '../../cli/job-option-values.js';
import { parseBeginTime, TimeSpecError } from '../../core/begin-time.js';
import { UserError } from '../../core/errors.js';
import { parseMemoryMB } from '../../core/memory-size.js';
import { parseTimeLimitOption } from '../../core/time-string.js';
import { checkJobExtras } from '../../cli/job-extras.js';
import { parsePropagate } from '../tsrun/step-options.js';
import type { JobExtras } from '../../protocol/job-desc.js';
import { FatalError } from './fatal.js';
import type { RawTsbatchOptions } from './options.js';

type ExclusiveMode = 'exclusive' | 'user' | 'mcs' | 'oversubscribe';

type Checked = 'ntasks' | 'nodes' | 'cpusPerTask' | 'ntasksPerNode' | 'mem' | 'memPerCpu' | 'exclusive' | 'time' | 'begin' | 'killOnInvalidDep' | 'openMode' | 'propagate';

/** Checked option values; a key is present only when its source gave it. */
export interface TsbatchValues extends Omit<JobExtras, 'nice'> {
  jobName?: string;
  partition?: string;
  nodelist?: string;
  exclude?: string;
  constraint?: string;
  gres?: string;
  gpus?: string;
  overcommit?: boolean;
  contiguous?: boolean;
  output?: string;
  error?: string;
  input?: string;
  chdir?: string;
  export?: string;
  array?: string;
  dependency?: string;
  hold?: boolean;
  parsable?: boolean;
  wait?: boolean;
  testOnly?: boolean;
  wrap?: string;
  requeue?: boolean;
  comment?: string;
  reservation?: string;
  quiet?: boolean;
  verbose?: number;
  cluster?: string;
  nice?: number;
  ntasks?: number;
  nodes?: { min: number; max: number };
  cpusPerTask?: number;
  ntasksPerNode?: number;
  mem?: number;
  memPerCpu?: number;
  exclusive?: ExclusiveMode;
  time?: number;
  /** Unix seconds. */
  begin?: number;
  killOnInvalidDep?: boolean;
  openMode?: 'append' | 'truncate';
  /** --propagate: the rlimits the script takes from sbatch (absent: all). */
  propagate?: string[];
}

type Parsers = { [K in Checked]?: (value: NonNullable<RawTsbatchOptions[K]>, now: Date) => TsbatchValues[K] };

// The options sbatch checks when it reads them; the rest pass as given. Bad sizes, times and
// modes exit 255 (sbatch's exit(-1)), bad counts 1 (observed).
const PARSERS: Parsers = {
  ntasks: (v) => positiveInt(v, '--ntasks'),
  nodes: (v) => parseNodeCount(v),
  cpusPerTask: (v) => positiveInt(v, '--cpus-per-task'),
  ntasksPerNode: (v) => positiveInt(v, '--ntasks-per-node'),
  mem: (v) => parseMemoryMB(v, '--mem'),
  memPerCpu: (v) => parseMemoryMB(v, '--mem-per-cpu'),
  time: (v) => parseTimeLimitOption(v, '--time'),
  // A bare --exclusive (true) is sbatch's own "exclusive" mode.
  exclusive: (v) => oneOf(v === true ? 'exclusive' : String(v).toLowerCase(), ['exclusive', 'user', 'mcs', 'oversubscribe'] as const, '--exclusive'),
  begin: (v, now) => parseBegin(v, now),
  propagate: (v) => parsePropagate(v === true ? 'ALL' : String(v)),
  killOnInvalidDep: (v) => oneOf(v.toLowerCase(), ['yes', 'no'] as const, '--kill-on-invalid-dep') === 'yes',
  // Only the first letter counts ("axyz" is append, observed).
  openMode: (v) => ({ a: 'append', t: 'truncate' } as const)[v[0]?.toLowerCase() as 'a' | 't'] ?? invalid('--open-mode'),
};

/** One source's values, checked in the order they were given. */
export function checkValues(raw: RawTsbatchOptions, now: Date): TsbatchValues {
  const values: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(raw) as Array<[string, never]>) {
    if (value === undefined) continue;
    const parse = (PARSERS as Record<string, ((v: never, now: Date) => unknown) | undefined>)[key];
    values[key] = parse ? parse(value, now) : value;
  }
  return { ...values, ...checkJobExtras(raw, 'sbatch') } as TsbatchValues;
}

const MEMORY = ['mem', 'memPerCpu'] as const;

/**
 * Command line over environment over script. The memory options are one choice: sbatch
 * counts the command line and the script together, so two of them there are an error, and
 * one of them there drops the environment's other (observed: SBATCH_MEM_PER_NODE with
 * `#SBATCH --mem-per-cpu` is MinMemoryCPU).
 */
export function mergeValues(script: TsbatchValues, env: TsbatchValues, cli: TsbatchValues): TsbatchValues {
  const fromCli = MEMORY.filter((key) => key in script || key in cli);
  const fromEnv = MEMORY.filter((key) => key in env);
  if (fromCli.length > 1) throw new FatalError(MEM_OPTIONS_EXCLUSIVE);
  if (fromEnv.length > 1) {
    throw new FatalError('SLURM_MEM_PER_CPU, SLURM_MEM_PER_GPU, and SLURM_MEM_PER_NODE are mutually exclusive.');
  }
  const merged: TsbatchValues = { ...script, ...env, ...cli };
  const recorded = { ...script.recorded, ...env.recorded, ...cli.recorded };
  if (Object.keys(recorded).length > 0) merged.recorded = recorded;
  for (const key of fromEnv) if (fromCli.length === 1 && key !== fromCli[0]) delete merged[key];
  // -v adds up wherever it is given.
  merged.verbose = (script.verbose ?? 0) + (cli.verbose ?? 0);
  return merged;
}

// parse_time() prints its own line first (kept as the cause, for the CLI to print); it
// returns 0 for blank text, which sbatch calls invalid too, without that line.
export function parseBegin(text: string, now: Date): number {
  let seconds: number;
  try {
    seconds = parseBeginTime(text, now);
  } catch (error) {
    if (error instanceof TimeSpecError) throw new UserError('Invalid --begin specification', { exitCode: 255, cause: error });
    throw error;
  }
  return seconds === 0 ? invalid('--begin') : seconds;
}

function oneOf<T extends string>(value: string, allowed: readonly T[], option: string): T {
  return (allowed as readonly string[]).includes(value) ? (value as T) : invalid(option);
}

function invalid(option: string): never {
  throw new UserError(`Invalid ${option} specification`, { exitCode: 255 });
}
