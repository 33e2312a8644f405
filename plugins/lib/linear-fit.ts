// select/linear's node choice: Slurm's _job_test (src/plugins/select/linear/select_linear.c).
// The candidates form runs of consecutive nodes; required nodes are taken first; then runs
// are used best fit first: a run holding required nodes, else the first run large enough,
// the tightest such run (fewest CPUs), or, when none is large enough, the largest — so free
// runs of 3 and 5 nodes give a 3-node job the run of 3. --contiguous takes one run only.
import type { Bitstr } from '../../src/plugin-api/index.js';
import { enoughNodes } from './cons-fit.js';

export interface LinearFitArgs {
  readonly n: number;
  /** Nodes the job may use; null when given as candList. */
  readonly cand: Bitstr | null;
  /**
   * The same as ascending segments, start and end in one flat list (only without required
   * nodes): runs are built from them alone.
   */
  readonly candSegments?: readonly number[];
  /** CPUs node i offers the job (Slurm's _get_avail_cpus). */
  readonly availCpus: (i: number) => number;
  readonly req: Bitstr | null;
  readonly contiguous: boolean;
  readonly minNodes: number;
  readonly maxNodes: number;
  readonly reqNodes: number;
  readonly minCpus: number;
}

interface Run {
  start: number;
  end: number;
  req: number;
  cpus: number;
  nodes: number;
  /** The most CPUs one node of the run offers. */
  most: number;
}

/** The chosen nodes (ascending), or null. */
export function linearFit(a: LinearFitArgs): number[] | null {
  const candCount = a.candSegments !== undefined ? segmentNodes(a.candSegments) : a.cand!.setCount();
  if (candCount < a.minNodes) return null;
  const chosen = new Set<number>();
  let remCpus = a.minCpus;
  let remNodes = Math.max(a.minNodes, a.reqNodes);
  let maxNodes = a.maxNodes;
  const sparse = a.candSegments !== undefined && a.req === null;
  const runs: Run[] = sparse ? sparseRuns(a, a.candSegments!) : [];
  let cur: Run = { start: 0, end: -1, req: -1, cpus: 0, nodes: 0, most: 0 };
  for (let i = 0; !sparse && i < a.n; i++) {
    if (a.cand!.test(i)) {
      if (cur.nodes === 0) cur.start = i;
      if (a.req?.test(i) && maxNodes > 0) {
        if (cur.req === -1) cur.req = i;
        chosen.add(i);
        remNodes--;
        maxNodes--;
        remCpus -= a.availCpus(i);
      } else {
        cur.cpus += a.availCpus(i);
        cur.nodes++;
        cur.most = Math.max(cur.most, a.availCpus(i));
      }
    } else if (cur.nodes === 0) {
      cur.req = -1;
    } else {
      cur.end = i - 1;
      runs.push(cur);
      cur = { start: 0, end: -1, req: -1, cpus: 0, nodes: 0, most: 0 };
    }
  }
  if (cur.nodes !== 0 && !sparse) {
    cur.end = a.n - 1;
    runs.push(cur);
  }

  const finished = () => maxNodes <= 0 || (remNodes <= 0 && remCpus <= 0);
  const take = (i: number) => {
    if (chosen.has(i)) return;
    chosen.add(i);
    remNodes--;
    maxNodes--;
    remCpus -= a.availCpus(i);
  };
  let ok = false;
  while (runs.length > 0 && maxNodes > 0) {
    let best: Run | undefined;
    let bestSufficient = false;
    for (const [k, run] of runs.entries()) {
      if (run.nodes === 0) continue;
      if (a.contiguous && a.req && run.req === -1) continue;
      // Beyond Slurm: nodes too small to hold the CPUs within the node limit are not enough.
      const sufficient =
        run.cpus >= remCpus &&
        run.most * Math.min(maxNodes, run.nodes) >= remCpus &&
        enoughNodes(run.nodes, remNodes, a.minNodes, a.reqNodes);
      if (
        best === undefined ||
        (best.req === -1 && run.req !== -1) ||
        (sufficient && !bestSufficient) ||
        (sufficient && run.cpus < best.cpus) ||
        (!sufficient && run.cpus > best.cpus)
      ) {
        best = run;
        bestSufficient = sufficient;
      }
      // --contiguous: every required node must be in this one run.
      if (a.contiguous && a.req && runs.slice(k + 1).some((r) => r.req !== -1)) {
        best = undefined;
        break;
      }
    }
    if (best === undefined) break;
    if (a.contiguous && (best.cpus < remCpus || !enoughNodes(best.nodes, remNodes, a.minNodes, a.reqNodes))) break;
    if (best.req !== -1) {
      // Work up from the first required node, then down from it.
      for (let i = best.req; i <= best.end && !finished(); i++) take(i);
      for (let i = best.req - 1; i >= best.start && !finished(); i--) take(i);
    } else {
      for (let i = best.start; i <= best.end && !finished(); i++) take(i);
    }
    if (a.contiguous || (remNodes <= 0 && remCpus <= 0)) {
      ok = true;
      break;
    }
    best.cpus = 0;
    best.nodes = 0;
  }
  if (!ok && remCpus <= 0 && enoughNodes(0, remNodes, a.minNodes, a.reqNodes)) ok = true;
  return ok ? [...chosen].sort((x, y) => x - y) : null;
}

// The runs of consecutive candidates, from their segments (no required nodes): the nodes of
// a segment are alike, so it adds its length times one node's CPUs.
function sparseRuns(a: LinearFitArgs, segments: readonly number[]): Run[] {
  const runs: Run[] = [];
  let cur: Run | null = null;
  for (let k = 0; k < segments.length; k += 2) {
    const start = segments[k]!;
    const end = segments[k + 1]!;
    if (cur !== null && start !== cur.end + 1) {
      runs.push(cur);
      cur = null;
    }
    cur ??= { start, end, req: -1, cpus: 0, nodes: 0, most: 0 };
    const cpus = a.availCpus(start);
    cur.cpus += cpus * (end - start + 1);
    cur.nodes += end - start + 1;
    cur.most = Math.max(cur.most, cpus);
    cur.end = end;
  }
  if (cur !== null) runs.push(cur);
  return runs;
}

function segmentNodes(segments: readonly number[]): number {
  let count = 0;
  for (let k = 0; k < segments.length; k += 2) count += segments[k + 1]! - segments[k]! + 1;
  return count;
}
