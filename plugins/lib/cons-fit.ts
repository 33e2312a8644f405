// cons_tres's node choice: Slurm's _eval_nodes (src/plugins/select/cons_tres/job_test.c,
// 22.05), the default path (no topology, no LLN/spread/busy variants). Required nodes first;
// then sets of consecutive usable nodes of equal weight, best set first: lowest weight, then
// the tightest sufficient set, else the largest; with one node left to find, the single node
// with the fewest sufficient CPUs. Each node gets _cpus_to_use's share: what remains of the
// job's CPUs after keeping one core for each node still to come. Checked against real Slurm
// 22.05 (4-CPU nodes, SLURM_JOB_CPUS_PER_NODE): -N2 -n3 → 2,1; -n5 → 4,1; -N3 -n4 → 2,1(x2);
// -N2-3 -n3 → 1(x3); -N2-3 -n5 → 3,1(x2); -N2-3 -n9 → 4(x2),1.
import type { Bitstr } from '../../src/plugin-api/index.js';
import { FitItems } from './fit-items.js';

export interface ConsFitArgs {
  /** Table size. */
  readonly n: number;
  /**
   * The usable nodes: either `items` (ascending, without required nodes: sets are built
   * from them alone), or `avail`, the usable CPUs of every node (0: the node cannot take
   * the job), which `req` needs.
   */
  readonly items?: FitItems;
  readonly avail?: Int32Array;
  /** Or, for a job that can use any free CPU of any open node (no required nodes), those nodes. */
  readonly plain?: PlainNodes;
  readonly weight: (i: number) => number;
  readonly vpus: (i: number) => number;
  readonly req: Bitstr | null;
  readonly contiguous: boolean;
  readonly minNodes: number;
  readonly maxNodes: number;
  readonly reqNodes: number;
  /** CPUs the job needs in all. */
  readonly minCpus: number;
  readonly pnMinCpus: number;
  /** Whole nodes: every chosen node gives all its avail CPUs (_cpus_to_use does nothing). */
  readonly whole: boolean;
  /** Gres the job needs in all (--gpus): units still wanted, and what node i offers of each. */
  readonly gresNeed: readonly number[];
  readonly gresOffer: (i: number, k: number) => number;
}

// A plain job's sets list no items.
const NO_ITEMS = new FitItems();

/** The open nodes a plain job may use, and what the free-CPU index tells of them. */
export interface PlainNodes {
  /** The runs of usable nodes, a change of weight ending one (unless --contiguous). */
  forEachRun(visit: (start: number, end: number) => void): void;
  freeOf(i: number): number;
  sum(start: number, end: number): number;
  max(start: number, end: number): number;
  /** The first node of start..end with the fewest free CPUs of at least `need`, or -1. */
  bestFit(start: number, end: number, need: number): number;
}

/** CPUs per chosen node (Map in ascending node order), or null if the job does not fit. */
export function consFit(a: ConsFitArgs): Map<number, number> | null {
  const chosen = new Map<number, number>();
  const gresLeft = [...a.gresNeed];
  const perJobGres = gresLeft.some((g) => g > 0);
  const gresDone = () => !perJobGres || gresLeft.every((g) => g <= 0);
  let maxNodes = a.maxNodes;
  let remCpus = a.minCpus;
  let remMaxCpus = a.minCpus;
  let remNodes = perJobGres ? Math.min(a.minNodes, a.reqNodes) : Math.max(a.minNodes, a.reqNodes);

  const take = (i: number, cpus: number) => {
    chosen.set(i, cpus);
    remCpus -= cpus;
    remMaxCpus -= cpus;
    remNodes--;
    maxNodes--;
    for (let k = 0; k < gresLeft.length; k++) gresLeft[k]! -= a.gresOffer(i, k);
  };
  const cpusToUse = (i: number, cpus: number) => {
    if (a.whole) return cpus;
    const vpus = a.vpus(i);
    // Slurm 22.05 keeps a core for each node still wanted (rem_nodes, the -N maximum when a
    // range is given; later Slurm uses the minimum): -N2-3 -n3 gets 1(x3) there.
    const rem = remMaxCpus - Math.max(remNodes - 1, 0) * vpus;
    const use = cpus > rem ? Math.max(rem, a.pnMinCpus) : cpus;
    return Math.min(cpus, Math.ceil(use / vpus) * vpus);
  };
  const done = () => remNodes <= 0 && remCpus <= 0 && gresDone();
  const full = () => maxNodes === 0 || done();
  const pick = (i: number, cpus: number) => {
    if (!chosen.has(i)) take(i, cpusToUse(i, cpus));
  };

  if (a.req) {
    for (let i = a.req.nextSet(0); i >= 0 && maxNodes > 0; i = a.req.nextSet(i + 1)) {
      const cpus = cpusToUse(i, a.avail![i]!);
      if (cpus <= 0) return null;
      take(i, cpus);
    }
    if (done()) return sorted(chosen);
    if (maxNodes <= 0) return null;
  }

  const plain = a.req === null ? a.plain : undefined;
  const items = a.items !== undefined && a.req === null ? a.items : plain ? NO_ITEMS : new FitItems();
  const sets = plain ? plainSets(a, plain) : a.items !== undefined && a.req === null ? itemSets(a, items) : consecutiveSets(a, a.avail!, items);
  const { start, end, avail } = items;
  while (sets.length > 0 && maxNodes > 0) {
    const best = bestSet(sets, a, remCpus, remNodes, maxNodes, gresLeft);
    if (best === undefined) break;
    if (a.contiguous && !best.sufficient) break;
    const set = best.set;
    if (set.req !== -1) {
      // Work up from the first required node, then down from it.
      for (let k = set.first; k < set.last; k++) {
        for (let i = Math.max(start[k]!, set.req); i <= end[k]! && !full(); i++) pick(i, avail[k]!);
      }
      for (let k = set.last - 1; k >= set.first; k--) {
        for (let i = Math.min(end[k]!, set.req - 1); i >= start[k]! && !full(); i--) pick(i, avail[k]!);
      }
    } else if (plain) {
      // Every node of a plain set is usable: its free CPUs are its avail.
      const only = remNodes <= 1 ? bestFreeNode(plain, set) : -1;
      if (only !== -1) {
        if (!full()) pick(only, plain.freeOf(only));
      } else {
        for (let i = set.start; i <= set.end && !full(); i++) {
          const cpus = plain.freeOf(i);
          if (!(maxNodes === 1 && cpus < remCpus)) pick(i, cpus);
        }
      }
    } else {
      const only = remNodes <= 1 ? singleBestFit(set) : -1;
      if (only !== -1) {
        if (!full()) pick(start[only]!, avail[only]!);
      } else {
        for (let k = set.first; k < set.last && !full(); k++) {
          // With one node left to take, nodes too small for the rest are passed over.
          for (let i = start[k]!; i <= end[k]! && !full() && !(maxNodes === 1 && avail[k]! < remCpus); i++) pick(i, avail[k]!);
        }
      }
    }
    if (done()) return sorted(chosen);
    set.cpus = 0;
    set.nodes = 0;
  }
  if (remCpus <= 0 && gresDone() && enoughNodes(0, remNodes, a.minNodes, a.reqNodes)) return sorted(chosen);
  return null;

  // singleBestFit for a plain set: the first node with the fewest free CPUs that suffice.
  function bestFreeNode(nodes: PlainNodes, set: ConsecSet): number {
    return remCpus <= set.most ? nodes.bestFit(set.start, set.end, Math.max(remCpus, 1)) : -1;
  }

  // One node left to find: the item whose nodes have the fewest CPUs that still suffice (its
  // first node is the one), or -1 when none does (the whole set is walked then).
  function singleBestFit(set: ConsecSet): number {
    let best = -1;
    for (let k = set.first; k < set.last; k++) {
      const cpus = avail[k]!;
      if (cpus < remCpus || (best !== -1 && cpus >= avail[best]!)) continue;
      if (perJobGres && !gresLeft.every((need, g) => need <= a.gresOffer(start[k]!, g))) continue;
      best = k;
      if (cpus === remCpus) break;
    }
    return best;
  }
}

interface ConsecSet {
  start: number;
  end: number;
  /** First required node in the set, or -1. */
  req: number;
  cpus: number;
  nodes: number;
  /** The most CPUs one node of the set offers. */
  most: number;
  weight: number;
  gres: number[];
  /** Its usable nodes but the required ones: items first..last-1. */
  first: number;
  last: number;
}

function consecutiveSets(a: ConsFitArgs, avail: Int32Array, items: FitItems): ConsecSet[] {
  const sets: ConsecSet[] = [];
  const fresh = (): ConsecSet => ({ start: 0, end: -1, req: -1, cpus: 0, nodes: 0, most: 0, weight: NaN, gres: a.gresNeed.map(() => 0), first: items.count, last: items.count });
  let cur = fresh();
  const close = (end: number) => {
    cur.end = end;
    cur.last = items.count;
    sets.push(cur);
    cur = fresh();
  };
  for (let i = 0; i < a.n; i++) {
    const required = a.req?.test(i) ?? false;
    const usable = required || avail[i]! > 0;
    // Without --contiguous, a change of weight ends the set.
    if (usable && !a.contiguous && !Number.isNaN(cur.weight) && a.weight(i) !== cur.weight) {
      if (cur.nodes === 0) cur.req = -1;
      else close(i - 1);
    }
    if (usable) {
      if (cur.nodes === 0) cur.start = i;
      if (required) {
        if (cur.req === -1) cur.req = i;
        continue;
      }
      cur.cpus += avail[i]!;
      cur.nodes++;
      cur.most = Math.max(cur.most, avail[i]!);
      for (let k = 0; k < cur.gres.length; k++) cur.gres[k]! += a.gresOffer(i, k);
      cur.weight = a.weight(i);
      items.push(i, i, avail[i]!);
    } else if (cur.nodes === 0) {
      cur.req = -1;
      cur.weight = NaN;
      cur.first = items.count;
    } else {
      close(i - 1);
    }
  }
  if (cur.nodes !== 0) close(a.n - 1);
  return sets;
}

// The sets of a plain job: the runs of open nodes, their figures from the free-CPU index.
// The set objects are kept for the next placement (consFit lets none escape): a pass places
// thousands of jobs over a dozen runs each.
function plainSets(a: ConsFitArgs, nodes: PlainNodes): ConsecSet[] {
  let count = 0;
  nodes.forEachRun((start, end) => {
    const set = (plainPool[count++] ??= { start: 0, end: -1, req: -1, cpus: 0, nodes: 0, most: 0, weight: 0, gres: [], first: 0, last: 0 });
    set.start = start;
    set.end = end;
    set.cpus = nodes.sum(start, end);
    set.nodes = end - start + 1;
    set.most = nodes.max(start, end);
    set.weight = a.weight(start);
  });
  return plainPool.slice(0, count);
}
const plainPool: ConsecSet[] = [];

// consecutiveSets without required nodes, from the usable items alone: a gap between two of
// them (unusable nodes) or a change of weight ends a set, as the walk over every node would.
function itemSets(a: ConsFitArgs, items: FitItems): ConsecSet[] {
  const sets: ConsecSet[] = [];
  const gresCount = a.gresNeed.length;
  const { start, end, avail } = items;
  let cur: ConsecSet | null = null;
  for (let k = 0; k < items.count; k++) {
    const first = start[k]!;
    const weight = a.weight(first);
    if (cur !== null && (first !== cur.end + 1 || (!a.contiguous && weight !== cur.weight))) {
      cur.last = k;
      sets.push(cur);
      cur = null;
    }
    cur ??= { start: first, end: -1, req: -1, cpus: 0, nodes: 0, most: 0, weight, gres: new Array<number>(gresCount).fill(0), first: k, last: k };
    const count = end[k]! - first + 1;
    const cpus = avail[k]!;
    cur.cpus += cpus * count;
    cur.nodes += count;
    if (cpus > cur.most) cur.most = cpus;
    for (let g = 0; g < gresCount; g++) cur.gres[g]! += a.gresOffer(first, g) * count;
    cur.end = end[k]!;
  }
  if (cur !== null) {
    cur.last = items.count;
    sets.push(cur);
  }
  return sets;
}

function bestSet(
  sets: readonly ConsecSet[],
  a: ConsFitArgs,
  remCpus: number,
  remNodes: number,
  maxNodes: number,
  gresLeft: readonly number[],
): { set: ConsecSet; sufficient: boolean } | undefined {
  let best: ConsecSet | undefined;
  let bestSufficient = false;
  // Indexed loops and no closures: this runs once per set taken, for every placement.
  for (let k = 0; k < sets.length; k++) {
    const set = sets[k]!;
    if (set.nodes === 0) continue;
    if (a.contiguous && a.req && set.req === -1) continue;
    // Beyond Slurm: a set whose nodes are too small to hold the CPUs within the node limit is
    // not large enough (else -N2 -n128 picks a set of many 4-CPU nodes and fails).
    const sufficient =
      set.cpus >= remCpus &&
      set.most * Math.min(maxNodes, set.nodes) >= remCpus &&
      enoughNodes(set.nodes, remNodes, a.minNodes, a.reqNodes) &&
      gresCovered(gresLeft, set.gres);
    let better =
      best === undefined || (best.req === -1 && set.req !== -1) || set.weight < best.weight;
    if (!better && best !== undefined && set.weight === best.weight) {
      better =
        (sufficient && !bestSufficient) ||
        (sufficient && set.cpus < best.cpus) ||
        (!sufficient && set.cpus > best.cpus);
    }
    if (!better && !bestSufficient && a.contiguous && sufficient) better = true;
    if (better) {
      best = set;
      bestSufficient = sufficient;
    }
    // --contiguous with required nodes: they must all be in one set.
    if (a.contiguous && a.req && laterRequired(sets, k + 1)) return undefined;
  }
  return best === undefined ? undefined : { set: best, sufficient: bestSufficient };
}

// Every gres still wanted is offered in `offer`.
function gresCovered(left: readonly number[], offer: readonly number[]): boolean {
  for (let g = 0; g < left.length; g++) if (!(left[g]! <= offer[g]!)) return false;
  return true;
}

// A set from `from` on holds a required node.
function laterRequired(sets: readonly ConsecSet[], from: number): boolean {
  for (let k = from; k < sets.length; k++) if (sets[k]!.req !== -1) return true;
  return false;
}

/** Slurm's _enough_nodes: with a range of node counts, the minimum is enough. */
export function enoughNodes(avail: number, remNodes: number, minNodes: number, reqNodes: number): boolean {
  const needed = reqNodes > minNodes ? remNodes + minNodes - reqNodes : remNodes;
  return avail >= needed;
}

function sorted(chosen: Map<number, number>): Map<number, number> {
  // Usually taken in ascending order already (one set, walked upwards).
  let last = -1;
  for (const i of chosen.keys()) {
    if (i < last) return new Map([...chosen].sort((x, y) => x[0] - y[0]));
    last = i;
  }
  return chosen;
}
