// srun-only option values: --cpu-bind and --propagate, read as srun 22.05 reads them, with
// its messages (observed, /work/ref/option-errors.txt and srun-option-values.txt).
import { UserError } from '../../core/errors.js';

/** --cpu-bind as the tasks see it (SLURM_CPU_BIND_*; srun(1) "OUTPUT ENVIRONMENT VARIABLES"). */
export interface CpuBind {
  verbose: 'quiet' | 'verbose';
  /** none, rank, map_cpu:, mask_cpu:, sockets, cores, threads, ldoms, ... */
  type: string;
  /** The map or mask list, '' for the other types. */
  list: string;
}

const PLAIN_TYPES = ['none', 'rank', 'sockets', 'cores', 'threads', 'ldoms', 'boards', 'rank_ldom'];
const LIST_TYPES = ['map_cpu', 'mask_cpu', 'map_ldom', 'mask_ldom'];

/** `[{quiet|verbose},]type`; srun prints two lines for a bad one and exits 1. */
export function parseCpuBind(value: string): CpuBind {
  let verbose: CpuBind['verbose'] = 'quiet';
  let type: string | undefined;
  let list = '';
  const refuse = (): never => {
    throw new UserError(`unrecognized --cpu-bind argument "${value}"\nfatal: Failed to parse --cpu-bind= values.`);
  };
  // A list type takes the rest of the value, commas included (map_cpu:0,1,2).
  const listAt = value.search(/(?:^|,)(map_cpu|mask_cpu|map_ldom|mask_ldom):/);
  const head = listAt === -1 ? value : value.slice(0, listAt);
  for (const word of head.split(',').filter((w) => w !== '')) {
    const lower = word.toLowerCase();
    if (lower === 'quiet' || lower === 'q') verbose = 'quiet';
    else if (lower === 'verbose' || lower === 'v') verbose = 'verbose';
    else if (lower === 'no' || lower === 'none') type = 'none';
    else if (PLAIN_TYPES.includes(lower)) type = lower;
    else refuse();
  }
  if (listAt !== -1) {
    const rest = value.slice(listAt).replace(/^,/, '');
    const colon = rest.indexOf(':');
    const name = rest.slice(0, colon).toLowerCase();
    list = rest.slice(colon + 1);
    if (!LIST_TYPES.includes(name) || list === '' || !/^[0-9a-fA-Fx,*]+$/.test(list)) refuse();
    type = `${name}:`;
  }
  return { verbose, type: type ?? refuse(), list };
}

/** The variables srun exports for --cpu-bind, which the tasks inherit. */
export function cpuBindEnv(bind: CpuBind): Record<string, string> {
  return {
    SLURM_CPU_BIND_VERBOSE: bind.verbose,
    SLURM_CPU_BIND_TYPE: bind.type,
    SLURM_CPU_BIND_LIST: bind.list,
    SLURM_CPU_BIND: `${bind.verbose},${bind.type}${bind.list}`,
  };
}

/** The rlimits --propagate names (srun(1)); ALL and NONE stand for all or none. */
export const RLIMITS = ['AS', 'CORE', 'CPU', 'DATA', 'FSIZE', 'MEMLOCK', 'NOFILE', 'NPROC', 'RSS', 'STACK'] as const;

export function parsePropagate(value: string): string[] {
  const names: string[] = [];
  for (const raw of value.split(',')) {
    const name = raw.trim().toUpperCase().replace(/^RLIMIT_/, '');
    if (name === 'ALL') names.push(...RLIMITS);
    else if (name === 'NONE') continue;
    else if ((RLIMITS as readonly string[]).includes(name)) names.push(name);
    else throw new UserError(`Bad rlimit name: ${raw.trim()}\n--propagate=${value} is not valid.`);
  }
  return [...new Set(names)];
}
