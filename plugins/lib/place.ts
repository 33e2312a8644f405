// Placing one job with a select engine (linear or cons_tres), the parts both share: the
// feature constraint's options and node counts, excluded and required nodes.
//
// Feature forms honoured (see src/ctld/feature-expr.ts): plain expressions filter every node;
// a matching OR `[a|b]` tries each alternative in turn, all nodes sharing it; counts
// (`a*2`, `[a*2&b*4]`) make the plugin first choose that many usable nodes with the feature
// (lowest weight, then lowest index), which then count as required nodes.
import type { Bitstr, FeatureOption } from '../../src/plugin-api/index.js';
import type { Allocation } from './allocation.js';
import { bitsOf, isSubset, setBits } from './bits.js';
import type { NodeCatalog } from './catalog.js';
import { ANY_NODE, type SelectRequest } from './request.js';
import type { Usage } from './usage.js';

export interface NodeCounts {
  readonly min: number;
  readonly max: number;
  readonly req: number;
}

export interface FitInput {
  readonly request: SelectRequest;
  /** Candidate nodes, already narrowed to the feature option. */
  readonly cand: Bitstr;
  /** Nodes that must be in the allocation (⊆ cand), or null. */
  readonly required: Bitstr | null;
  readonly counts: NodeCounts;
  readonly usage: Usage;
}

/** A node-choice algorithm with its idea of a usable node. */
export interface Engine {
  /** Can node i take (part of) the job at all under `usage`? */
  usable(request: SelectRequest, i: number, usage: Usage, counts: NodeCounts): boolean;
  /** The allocation on `cand`, or null. */
  fit(input: FitInput): Allocation | null;
}

/** The allocation for `request` on the candidates `bitmap`, trying each feature option. */
export function place(
  engine: Engine,
  catalog: readonly NodeCatalog[],
  request: SelectRequest,
  bitmap: Bitstr,
  counts: NodeCounts,
  usage: Usage,
): Allocation | null {
  for (const option of request.featureOptions) {
    const alloc = placeOption(engine, catalog, request, bitmap, counts, usage, option);
    if (alloc) return alloc;
  }
  return null;
}

function placeOption(
  engine: Engine,
  catalog: readonly NodeCatalog[],
  request: SelectRequest,
  bitmap: Bitstr,
  counts: NodeCounts,
  usage: Usage,
  option: FeatureOption,
): Allocation | null {
  const cand = candidatesOf(catalog, request, bitmap, option);
  if (request.reqNodes && !isSubset(request.reqNodes, cand)) return null;
  let required = request.reqNodes ? request.reqNodes.copy() : null;
  let min = counts.min;
  if (option.counts.length > 0) {
    const picked = pickCounted(engine, catalog, request, setBits(cand), required, counts, usage, option);
    if (picked === null) return null;
    required = bitsOf(catalog.length, picked);
    min = Math.max(min, picked.length);
    if (min > counts.max) return null;
  }
  const req = Math.max(counts.req, min);
  return engine.fit({ request, cand, required, counts: { min, max: counts.max, req }, usage });
}

// The candidates left after -x and the feature option: `bitmap` itself for a job with neither
// (the common case: the engines only read it), else a copy with the others cleared.
function candidatesOf(catalog: readonly NodeCatalog[], request: SelectRequest, bitmap: Bitstr, option: FeatureOption): Bitstr {
  if (bitmap.size !== catalog.length) return bitsOf(catalog.length, setBits(bitmap).filter((i) => i < catalog.length));
  if (option === ANY_NODE && request.excNodes === null) return bitmap;
  const cand = bitmap.copy();
  for (let i = cand.nextSet(0); i >= 0; i = cand.nextSet(i + 1)) {
    if (request.excNodes?.test(i) || !option.filter(catalog[i]!.features)) cand.clear(i);
  }
  return cand;
}

// The nodes the counts ask for, required ones first; null if some count cannot be met.
function pickCounted(
  engine: Engine,
  catalog: readonly NodeCatalog[],
  request: SelectRequest,
  candIdx: readonly number[],
  required: Bitstr | null,
  counts: NodeCounts,
  usage: Usage,
  option: FeatureOption,
): number[] | null {
  const taken = new Set<number>(required ? setBits(required) : []);
  const assigned = new Set<number>();
  const byPreference = [...candIdx].sort((x, y) => catalog[x]!.weight - catalog[y]!.weight || x - y);
  for (const count of option.counts) {
    let have = 0;
    for (const i of taken) {
      if (have < count.count && !assigned.has(i) && count.test(catalog[i]!.features)) {
        assigned.add(i);
        have++;
      }
    }
    for (const i of byPreference) {
      if (have >= count.count) break;
      if (taken.has(i) || !count.test(catalog[i]!.features) || !engine.usable(request, i, usage, counts)) continue;
      taken.add(i);
      assigned.add(i);
      have++;
    }
    if (have < count.count) return null;
  }
  return [...taken].sort((x, y) => x - y);
}
