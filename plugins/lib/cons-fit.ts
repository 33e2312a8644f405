// cons_tres's node choice: Slurm's _eval_nodes (src/plugins/select/cons_tres/job_test.c,
// 22.05), the default path (no topology, no LLN/spread/busy variants). Required nodes first;
// then sets of consecutive usable nodes of equal weight, best set first: lowest weight, then
// the tightest sufficient set, else the largest; with one node left to find, the single node
// with the fewest sufficient CPUs. Each node gets _cpus_to_use's share: what remains of the
// job's CPUs after keeping one core for each node still to come. Checked against real Slurm
// 22.05 (4-CPU nodes, SLURM_JOB_CPUS_PER_NODE): -N2 -n3 → 2,1; -n5 → 4,1; -N3 -n4 → 2,1(x2);
// -N2-3 -n3 → 1(x3); -N2-3 -n5 → 3,1(x2); -N2-3 -n9 → 4(x2),1.
import type { Bitstr } from '../../src/plugin-api/records.js';

export interface ConsFitArgs {
  /** Table size. */
  readonly n: number;
  /** Usable CPUs per node (0: the node cannot take the job); only candidates are non-zero. */
  readonly avail: Int32Array;
  /** The nodes whose avail is non-zero, ascending, when known (and no node is required): sets are built from them alone. */
  readonly usable?: readonly number[];
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
  const avail = a.avail.slice();
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

  if (a.req) {
    for (let i = a.req.nextSet(0); i >= 0 && maxNodes > 0; i = a.req.nextSet(i + 1)) {
      const cpus = cpusToUse(i, avail[i]!);
      if (cpus <= 0) return null;
      take(i, cpus);
    }
    if (done()) return sorted(chosen);
    if (maxNodes <= 0) return null;
  }

  const sets = consecutiveSets(a, avail);
  while (sets.length > 0 && maxNodes > 0) {
    const best = bestSet(sets, a, remCpus, remNodes, maxNodes, gresLeft);
    if (best === undefined) break;
    if (a.contiguous && !best.sufficient) break;
    const set = best.set;
    if (set.req !== -1) {
      for (let i = set.req; i <= set.end && !(maxNodes === 0 || done()); i++) pick(i);
      for (let i = set.req - 1; i >= set.start && !(maxNodes === 0 || done()); i--) pick(i);
    } else {
      if (remNodes <= 1) singleBestFit(set);
      for (let i = set.start; i <= set.end && !(maxNodes === 0 || done()); i++) {
        if (maxNodes === 1 && avail[i]! < remCpus) continue;
        pick(i);
      }
    }
    if (done()) return sorted(chosen);
    set.cpus = 0;
    set.nodes = 0;
  }
  if (remCpus <= 0 && gresDone() && enoughNodes(0, remNodes, a.minNodes, a.reqNodes)) return sorted(chosen);
  return null;

  function pick(i: number): void {
    if (chosen.has(i) || avail[i]! <= 0) return;
    take(i, cpusToUse(i, avail[i]!));
  }

  // One node left to find: use the one with the fewest CPUs that still suffice.
  function singleBestFit(set: ConsecSet): void {
    let bestNode = -1;
    for (let i = set.start; i <= set.end; i++) {
      if (chosen.has(i) || avail[i]! <= 0 || avail[i]! < remCpus) continue;
      if (!gresLeft.every((need, k) => need <= a.gresOffer(i, k))) continue;
      if (bestNode === -1 || avail[i]! < avail[bestNode]!) {
        bestNode = i;
        if (avail[i] === remCpus) break;
      }
    }
    if (bestNode === -1) return;
    for (let i = set.start; i <= set.end; i++) if (i !== bestNode) avail[i] = 0;
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
}

function consecutiveSets(a: ConsFitArgs, avail: Int32Array): ConsecSet[] {
  const sets: ConsecSet[] = [];
  const fresh = (): ConsecSet => ({ start: 0, end: -1, req: -1, cpus: 0, nodes: 0, most: 0, weight: NaN, gres: a.gresNeed.map(() => 0) });
  let cur = fresh();
  const close = (end: number) => {
    cur.end = end;
    sets.push(cur);
    cur = fresh();
  };
  if (a.usable !== undefined && a.req === null) return sparseSets(a, avail, a.usable);
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

// consecutiveSets without required nodes, visiting the usable nodes alone: a gap between two
// of them (unusable nodes) or a change of weight ends a set, as the full scan would.
function sparseSets(a: ConsFitArgs, avail: Int32Array, usable: readonly number[]): ConsecSet[] {
  const sets: ConsecSet[] = [];
  const gresCount = a.gresNeed.length;
  let cur: ConsecSet | null = null;
  let prev = -2;
  for (const i of usable) {
    const weight = a.weight(i);
    if (cur !== null && (i !== prev + 1 || (!a.contiguous && weight !== cur.weight))) {
      cur.end = prev;
      sets.push(cur);
      cur = null;
    }
    if (cur === null) cur = { start: i, end: -1, req: -1, cpus: 0, nodes: 0, most: 0, weight, gres: new Array<number>(gresCount).fill(0) };
    const cpus = avail[i]!;
    cur.cpus += cpus;
    cur.nodes++;
    if (cpus > cur.most) cur.most = cpus;
    for (let k = 0; k < gresCount; k++) cur.gres[k]! += a.gresOffer(i, k);
    cur.weight = weight;
    prev = i;
  }
  if (cur !== null) {
    cur.end = prev === a.n - 1 ? a.n - 1 : prev;
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
