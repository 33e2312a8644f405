// cons_tres's node choice: Slurm's _eval_nodes (src/plugins/select/cons_tres/job_test.c,
// 22.05), the default path (no topology, no LLN/spread/busy variants). Required nodes first;
// then sets of consecutive usable nodes of equal weight, best set first: lowest weight, then
// the tightest sufficient set, else the largest; with one node left to find, the single node
// with the fewest sufficient CPUs. Each node gets _cpus_to_use's share: what remains of the
// job's CPUs after keeping one core for each node still to come. Checked against real Slurm
// 22.05 (4-CPU nodes, SLURM_JOB_CPUS_PER_NODE): -N2 -n3 → 2,1; -n5 → 4,1; -N3 -n4 → 2,1(x2);
// -N2-3 -n3 → 1(x3); -N2-3 -n5 → 3,1(x2); -N2-3 -n9 → 4(x2),1.
import type { Bitstr } from '../../src/plugin-api/records.js';

/** Nodes start..end that offer the job `avail` CPUs each, and alike in weight and gres. */
export interface FitItem {
  readonly start: number;
  readonly end: number;
  readonly avail: number;
}

export interface ConsFitArgs {
  /** Table size. */
  readonly n: number;
  /**
   * The usable nodes: either `items` (ascending, without required nodes: sets are built
   * from them alone), or `avail`, the usable CPUs of every node (0: the node cannot take
   * the job), which `req` needs.
   */
  readonly items?: readonly FitItem[];
  readonly avail?: Int32Array;
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

/** CPUs per chosen node (Map in ascending node order), or null if the job does not fit. */
export function consFit(a: ConsFitArgs): Map<number, number> | null {
  const chosen = new Map<number, number>();
  const gresLeft = [...a.gresNeed];
  const perJobGres = gresLeft.some((g) => g > 0);
  const gresDone = () => gresLeft.every((g) => g <= 0);
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

  const sets = a.items !== undefined && a.req === null ? itemSets(a, a.items) : consecutiveSets(a, a.avail!);
  while (sets.length > 0 && maxNodes > 0) {
    const best = bestSet(sets, a, remCpus, remNodes, maxNodes, gresLeft);
    if (best === undefined) break;
    if (a.contiguous && !best.sufficient) break;
    const set = best.set;
    if (set.req !== -1) {
      // Work up from the first required node, then down from it.
      for (const item of set.items) {
        for (let i = Math.max(item.start, set.req); i <= item.end && !full(); i++) pick(i, item.avail);
      }
      for (let k = set.items.length - 1; k >= 0; k--) {
        const item = set.items[k]!;
        for (let i = Math.min(item.end, set.req - 1); i >= item.start && !full(); i--) pick(i, item.avail);
      }
    } else {
      const items = remNodes <= 1 ? singleBestFit(set) : set.items;
      for (const item of items) {
        // With one node left to take, nodes too small for the rest are passed over.
        for (let i = item.start; i <= item.end && !full() && !(maxNodes === 1 && item.avail < remCpus); i++) pick(i, item.avail);
        if (full()) break;
      }
    }
    if (done()) return sorted(chosen);
    set.cpus = 0;
    set.nodes = 0;
  }
  if (remCpus <= 0 && gresDone() && enoughNodes(0, remNodes, a.minNodes, a.reqNodes)) return sorted(chosen);
  return null;

  // One node left to find: only the one with the fewest CPUs that still suffice (the first
  // such), or the whole set when none does.
  function singleBestFit(set: ConsecSet): readonly FitItem[] {
    let best: FitItem | undefined;
    for (const item of set.items) {
      if (item.avail < remCpus || chosen.has(item.start)) continue;
      if (!gresLeft.every((need, k) => need <= a.gresOffer(item.start, k))) continue;
      if (best === undefined || item.avail < best.avail) {
        best = item;
        if (item.avail === remCpus) break;
      }
    }
    return best === undefined ? set.items : [{ start: best.start, end: best.start, avail: best.avail }];
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
  /** Its usable nodes but the required ones, ascending. */
  items: FitItem[];
}

function consecutiveSets(a: ConsFitArgs, avail: Int32Array): ConsecSet[] {
  const sets: ConsecSet[] = [];
  const fresh = (): ConsecSet => ({ start: 0, end: -1, req: -1, cpus: 0, nodes: 0, most: 0, weight: NaN, gres: a.gresNeed.map(() => 0), items: [] });
  let cur = fresh();
  const close = (end: number) => {
    cur.end = end;
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
      cur.items.push({ start: i, end: i, avail: avail[i]! });
    } else if (cur.nodes === 0) {
      cur.req = -1;
      cur.weight = NaN;
    } else {
      close(i - 1);
    }
  }
  if (cur.nodes !== 0) close(a.n - 1);
  return sets;
}

// consecutiveSets without required nodes, from the usable items alone: a gap between two of
// them (unusable nodes) or a change of weight ends a set, as the walk over every node would.
function itemSets(a: ConsFitArgs, items: readonly FitItem[]): ConsecSet[] {
  const sets: ConsecSet[] = [];
  const gresCount = a.gresNeed.length;
  let cur: ConsecSet | null = null;
  for (const item of items) {
    const weight = a.weight(item.start);
    if (cur !== null && (item.start !== cur.end + 1 || (!a.contiguous && weight !== cur.weight))) {
      sets.push(cur);
      cur = null;
    }
    cur ??= { start: item.start, end: -1, req: -1, cpus: 0, nodes: 0, most: 0, weight, gres: new Array<number>(gresCount).fill(0), items: [] };
    const count = item.end - item.start + 1;
    cur.cpus += item.avail * count;
    cur.nodes += count;
    if (item.avail > cur.most) cur.most = item.avail;
    for (let k = 0; k < gresCount; k++) cur.gres[k]! += a.gresOffer(item.start, k) * count;
    cur.weight = weight;
    cur.end = item.end;
    cur.items.push(item);
  }
  if (cur !== null) sets.push(cur);
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
  for (const [k, set] of sets.entries()) {
    if (set.nodes === 0) continue;
    if (a.contiguous && a.req && set.req === -1) continue;
    // Beyond Slurm: a set whose nodes are too small to hold the CPUs within the node limit is
    // not large enough (else -N2 -n128 picks a set of many 4-CPU nodes and fails).
    const sufficient =
      set.cpus >= remCpus &&
      set.most * Math.min(maxNodes, set.nodes) >= remCpus &&
      enoughNodes(set.nodes, remNodes, a.minNodes, a.reqNodes) &&
      gresLeft.every((need, g) => need <= set.gres[g]!);
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
    if (a.contiguous && a.req && sets.slice(k + 1).some((s) => s.req !== -1)) return undefined;
  }
  return best === undefined ? undefined : { set: best, sufficient: bestSufficient };
}

/** Slurm's _enough_nodes: with a range of node counts, the minimum is enough. */
export function enoughNodes(avail: number, remNodes: number, minNodes: number, reqNodes: number): boolean {
  const needed = reqNodes > minNodes ? remNodes + minNodes - reqNodes : remNodes;
  return avail >= needed;
}

function sorted(chosen: Map<number, number>): Map<number, number> {
  return new Map([...chosen].sort((x, y) => x[0] - y[0]));
}
