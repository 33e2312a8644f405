// srun's -m/--distribution: parsed as Slurm 22.05 does (verify_dist_type in
// src/common/proc_args.c), into the node-level method the step layout uses plus the
// canonical text srun exports as SLURM_DISTRIBUTION ("block:cyclic", "block,pack").
import { UserError, UserErrorList } from './errors.js';

export type NodeDistribution = 'block' | 'cyclic' | 'plane' | 'arbitrary';

export interface TaskDistribution {
  /** How tasks go over nodes. Absent when only `pack`/`nopack` was given: see defaultDistribution. */
  node: NodeDistribution | undefined;
  /** Socket and core levels ("cyclic", "block", "fcyclic"): accepted, not used for placement. */
  socket?: string;
  core?: string;
  planeSize?: number;
  /** `,pack` / `,nopack`: fill nodes in turn instead of spreading (block only). */
  pack?: boolean;
}

const LOWER_LEVEL = new Set(['cyclic', 'block', 'fcyclic']);
// srun exits 255 (exit(-1)) when an option does not parse; observed on Slurm 22.05.
const BAD_OPTION_EXIT = 255;
const INVALID = 'Invalid --distribution specification';

function invalid(extra?: string): UserError {
  const options = { code: 'ESLURM_BAD_DIST', exitCode: BAD_OPTION_EXIT } as const;
  return extra === undefined ? new UserError(INVALID, options) : new UserErrorList([extra, INVALID], options);
}

/**
 * Parses a -m value. `planeSizeEnv` is SLURM_DIST_PLANESIZE, used for a bare "plane".
 * Throws srun's messages ("Invalid --distribution specification", preceded for plane by
 * "Invalid plane size or size not specified").
 */
export function parseDistribution(arg: string, planeSizeEnv?: string): TaskDistribution {
  // Slurm matches the first five letters only, so "planet=2" is a plane too.
  if (arg.slice(0, 5).toLowerCase() === 'plane') return parsePlane(arg, planeSizeEnv);
  if (arg === '' || arg.startsWith(',')) throw invalid();
  const comma = arg.indexOf(',');
  const base = comma < 0 ? arg : arg.slice(0, comma);
  const flag = comma < 0 ? undefined : arg.slice(comma + 1).toLowerCase();
  const dist = parseBase(base.toLowerCase());
  if (flag === undefined || flag === '') return dist;
  // A base that was itself a flag ("pack,nopack") is refused here; 22.05 accepts it with both set.
  if (dist.pack !== undefined || (flag !== 'pack' && flag !== 'nopack')) throw invalid();
  return { ...dist, pack: flag === 'pack' };
}

function parseBase(base: string): TaskDistribution {
  if (base === 'pack' || base === 'nopack') return { node: undefined, pack: base === 'pack' };
  const levels = base.split(':').filter((level) => level !== '');
  if (levels.length === 0 || levels.length > 3) throw invalid();
  // "*" means the default of its level: block for nodes, cyclic for sockets, and the
  // socket method for cores.
  const [first = '*', second, third] = levels;
  const node = first === '*' ? 'block' : first;
  const socket = second === '*' ? 'cyclic' : second;
  const core = third === '*' ? socket : third;
  if (levels.length === 1) {
    if (node === 'hostfile' || node === 'arbitrary') return { node: 'arbitrary' };
    if (node === 'block' || node === 'cyclic') return { node };
    throw invalid();
  }
  if (node !== 'block' && node !== 'cyclic') throw invalid();
  if (!LOWER_LEVEL.has(socket!) || (core !== undefined && !LOWER_LEVEL.has(core))) throw invalid();
  return core === undefined ? { node, socket: socket! } : { node, socket: socket!, core };
}

function parsePlane(arg: string, planeSizeEnv: string | undefined): TaskDistribution {
  const eq = arg.indexOf('=');
  const text = eq >= 0 ? arg.slice(eq + 1) : planeSizeEnv;
  // strtol's rules: leading blanks and a sign are fine, anything after the digits is not.
  const size = text !== undefined && /^\s*[+-]?\d+$/.test(text) ? Number(text) : NaN;
  if (!Number.isInteger(size) || size <= 0 || size > 0x7fff_ffff) {
    throw invalid('Invalid plane size or size not specified');
  }
  return { node: 'plane', planeSize: size };
}

/**
 * The node method when -m gave none. srun picks cyclic when there are no more tasks than
 * nodes and block otherwise (src/srun/libsrun/launch.c); the layouts agree, but
 * SLURM_DISTRIBUTION and PMI_process_mapping show the difference.
 */
export function defaultDistribution(ntasks: number, nnodes: number): NodeDistribution {
  return ntasks <= nnodes ? 'cyclic' : 'block';
}

/** SLURM_DISTRIBUTION's text: "cyclic", "block:cyclic:cyclic", "plane", "block,pack". */
export function formatDistribution(dist: TaskDistribution, fallback: NodeDistribution = 'block'): string {
  const levels = [dist.node ?? fallback, dist.socket, dist.core].filter((l) => l !== undefined);
  const flag = dist.pack === undefined ? '' : dist.pack ? ',pack' : ',nopack';
  return levels.join(':') + flag;
}
