// Generic resource requests: `--gres` (per node) and `--gpus`, `--gpus-per-node`,
// `--gpus-per-task` (Slurm's tres_per_job / tres_per_node / tres_per_task), parsed the way
// Slurm's gres.c reads `name[:type][:count]` lists. What real Slurm 22.05 accepts and
// refuses, checked with srun on a cluster without GPUs: `--gres=gpu:0`, `--gres=none` and
// `--gpus=0` ask for nothing; `gpu:`, `:2`, `gpu::2`, `gpu:-1`, `--gpus=x`,
// `--gpus=-1` are "Invalid generic resource (gres) specification".
import { UserError } from '../core/errors.js';
import type { gres_spec_t } from '../plugin-api/records.js';

/** What a job asks for, by scope. Each list holds distinct name/type pairs, counts > 0. */
export interface GresRequest {
  /** `--gres` and `--gpus-per-node`: on every allocated node. */
  readonly perNode: readonly gres_spec_t[];
  /** `--gpus`: over the whole allocation. */
  readonly perJob: readonly gres_spec_t[];
  /** `--gpus-per-task`: for every task. */
  readonly perTask: readonly gres_spec_t[];
}

export interface GresOptions {
  gres?: string;
  gpus?: string;
  gpusPerNode?: string;
  gpusPerTask?: string;
}

export const INVALID_GRES_TEXT = 'Invalid generic resource (gres) specification';

const NAME = /^[A-Za-z_][\w.-]*$/;
// A count: digits with an optional K/M/G/T/P multiplier of 1024 (Slurm's suffix_mult).
const COUNT = /^(\d+)([kmgtp]?)$/i;
const SUFFIX: Record<string, number> = { '': 1, k: 1024, m: 1024 ** 2, g: 1024 ** 3, t: 1024 ** 4, p: 1024 ** 5 };

/** `--gres` value: comma-separated `name[:type][:count]`; `none` is an empty request. */
export function parseGresOption(text: string): gres_spec_t[] {
  if (text === 'none') return [];
  return dedupe(text.split(',').map(parseGresEntry)).filter((spec) => spec.count > 0);
}

/** `--gpus`/`--gpus-per-node`/`--gpus-per-task` value: `[type:]count`, comma-separated. */
export function parseGpusOption(text: string): gres_spec_t[] {
  const specs = text.split(',').map((entry) => {
    const parts = entry.split(':');
    if (parts.length > 2) throw invalidGres();
    const count = parseCount(parts[parts.length - 1]!);
    if (parts.length === 1) return { name: 'gpu', count };
    return { name: 'gpu', type: checkName(parts[0]!), count };
  });
  return dedupe(specs).filter((spec) => spec.count > 0);
}

/** The request a job makes from its command-line options (each optional). */
export function buildGresRequest(options: GresOptions): GresRequest {
  const perNode = [
    ...(options.gres === undefined ? [] : parseGresOption(options.gres)),
    ...(options.gpusPerNode === undefined ? [] : parseGpusOption(options.gpusPerNode)),
  ];
  return {
    perNode: dedupe(perNode),
    perJob: options.gpus === undefined ? [] : parseGpusOption(options.gpus),
    perTask: options.gpusPerTask === undefined ? [] : parseGpusOption(options.gpusPerTask),
  };
}

/**
 * A request naming a gres (or gres type) no node of the cluster has is refused as Slurm does
 * (`srun --gres=gpu:1` on a cluster without GPUs): UserError ESLURM_INVALID_GRES.
 */
export function checkGresKnown(request: GresRequest, nodes: readonly { readonly gres_list: readonly gres_spec_t[] }[]): void {
  const known = new Set<string>();
  for (const node of nodes) {
    for (const gres of node.gres_list) {
      known.add(gres.name);
      if (gres.type !== undefined) known.add(`${gres.name}:${gres.type}`);
    }
  }
  for (const spec of [...request.perNode, ...request.perJob, ...request.perTask]) {
    if (!known.has(spec.type === undefined ? spec.name : `${spec.name}:${spec.type}`)) throw invalidGres();
  }
}

/** A gres list back in Slurm's syntax: `gpu:a100:2,nvme:1`. */
export function formatGres(specs: readonly gres_spec_t[]): string {
  return specs.map((s) => [s.name, ...(s.type === undefined ? [] : [s.type]), String(s.count)].join(':')).join(',');
}

// name, name:count, name:type, name:type:count (a second field of digits is a count).
function parseGresEntry(entry: string): gres_spec_t {
  const parts = entry.split(':');
  const name = checkName(parts[0]!);
  if (parts.length === 1) return { name, count: 1 };
  if (parts.length === 2) {
    const second = parts[1]!;
    if (COUNT.test(second)) return { name, count: parseCount(second) };
    return { name, type: checkName(second), count: 1 };
  }
  if (parts.length === 3) return { name, type: checkName(parts[1]!), count: parseCount(parts[2]!) };
  throw invalidGres();
}

function checkName(text: string): string {
  if (!NAME.test(text)) throw invalidGres();
  return text;
}

function parseCount(text: string): number {
  const match = COUNT.exec(text);
  if (!match) throw invalidGres();
  const count = Number(match[1]) * SUFFIX[match[2]!.toLowerCase()]!;
  if (!Number.isSafeInteger(count)) throw invalidGres();
  return count;
}

// The same name/type twice in one request is refused rather than guessed at.
function dedupe(specs: gres_spec_t[]): gres_spec_t[] {
  const seen = new Set<string>();
  for (const spec of specs) {
    const key = `${spec.name}:${spec.type ?? ''}`;
    if (seen.has(key)) throw invalidGres();
    seen.add(key);
  }
  return specs;
}

function invalidGres(): UserError {
  return new UserError(INVALID_GRES_TEXT, { code: 'ESLURM_INVALID_GRES' });
}
