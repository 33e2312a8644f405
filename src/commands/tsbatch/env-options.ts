// The SBATCH_* input variables of sbatch(1) for tsbatch's options: the source between the
// script's #SBATCH lines and the command line.
import { envFlagIsSet } from '../../cli/slurm-opt/env-flag.js';
import type { RawTsbatchOptions } from './options.js';

/**
 * The SBATCH_* variables of sbatch(1) "INPUT ENVIRONMENT VARIABLES" for these options, in
 * the order sbatch reads them (SBATCH_REQUEUE after SBATCH_NO_REQUEUE: observed, both set
 * give Requeue=1).
 */
const ENV_VALUES: ReadonlyArray<readonly [keyof RawTsbatchOptions, string]> = [
  ['array', 'SBATCH_ARRAY_INX'],
  ['constraint', 'SBATCH_CONSTRAINT'],
  ['error', 'SBATCH_ERROR'],
  ['exclusive', 'SBATCH_EXCLUSIVE'],
  ['export', 'SBATCH_EXPORT'],
  ['gpus', 'SBATCH_GPUS'],
  ['gres', 'SBATCH_GRES'],
  ['input', 'SBATCH_INPUT'],
  ['jobName', 'SBATCH_JOB_NAME'],
  ['memPerCpu', 'SBATCH_MEM_PER_CPU'],
  ['mem', 'SBATCH_MEM_PER_NODE'],
  ['openMode', 'SBATCH_OPEN_MODE'],
  ['output', 'SBATCH_OUTPUT'],
  ['partition', 'SBATCH_PARTITION'],
  ['reservation', 'SBATCH_RESERVATION'],
  ['time', 'SBATCH_TIMELIMIT'],
];

const ENV_FLAGS: ReadonlyArray<readonly [keyof RawTsbatchOptions, string, boolean]> = [
  ['requeue', 'SBATCH_NO_REQUEUE', false],
  ['overcommit', 'SBATCH_OVERCOMMIT', true],
  ['requeue', 'SBATCH_REQUEUE', true],
  ['wait', 'SBATCH_WAIT', true],
];

/** The options the environment sets. */
export function envOptions(env: NodeJS.ProcessEnv): RawTsbatchOptions {
  const raw: Record<string, string | boolean> = {};
  for (const [key, name] of ENV_VALUES) {
    const value = env[name];
    // SBATCH_EXCLUSIVE takes --exclusive's value; empty is a bare --exclusive (observed).
    if (value !== undefined) raw[key] = key === 'exclusive' && value === '' ? 'exclusive' : value;
  }
  for (const [key, name, value] of ENV_FLAGS) {
    if (envFlagIsSet(env[name])) raw[key] = value;
  }
  return raw as RawTsbatchOptions;
}
