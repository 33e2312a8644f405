// The select/linear engine: whole nodes, never shared. A node is usable when no job holds it,
// its memory covers the request and it has the per-node gres; the CPUs it counts towards the
// job are those its tasks can use (Slurm's _get_avail_cpus), but the job gets all of them.
// Node weights work as slurmctld's _pick_best_nodes makes them work for linear: the nodes of
// the lowest weight are tried first, then those up to the next weight, and so on.
import type { Allocation, NodeAlloc } from './allocation.js';
import { bitsOf, setBits } from './bits.js';
import { hasGres, type NodeCatalog } from './catalog.js';
import { NodeGresPick } from './gres-pick.js';
import { linearFit } from './linear-fit.js';
import { fitShortcuts } from './fit-shortcuts.js';
import type { Engine, FitInput, NodeCounts } from './place.js';
import type { Bitstr } from '../../src/plugin-api/index.js';
import type { SelectRequest } from './request.js';
import type { Usage } from './usage.js';

/** CPUs of `node` the job's tasks can use, counting towards its CPU total. */
export function linearAvailCpus(node: NodeCatalog, r: SelectRequest): number {
  if (r.overcommit) return node.cpus;
  let tasks = Math.floor(node.cpus / r.cpusPerTask);
  if (r.ntasksPerNode > 0) tasks = Math.min(tasks, r.ntasksPerNode);
  return tasks * r.cpusPerTask;
}

/** Can `node` ever hold the job (memory, gres, CPUs per task), ignoring other jobs? */
export function linearNodeFits(node: NodeCatalog, r: SelectRequest): boolean {
  if (r.memPerNode > node.memory) return false;
  if (r.memPerCpu > 0 && r.memPerCpu * node.cpus > node.memory) return false;
  if (!r.gresPerNode.every((spec) => hasGres(node, spec, spec.count))) return false;
  return linearAvailCpus(node, r) > 0 && linearAvailCpus(node, r) >= r.pnMinCpus;
}

export const linearEngine: Engine = {
  usable(r, i, usage) {
    return usage.jobs(i) === 0 && linearNodeFits(usage.node(i), r);
  },

  fit({ request: r, cand, required, counts, usage }: FitInput): Allocation | null {
    const n = usage.size;
    if (required === null) return fitIdle(r, cand, counts, usage);
    const usable = setBits(cand).filter((i) => linearEngine.usable(r, i, usage, counts) || required?.test(i));
    if (required && !setBits(required).every((i) => linearEngine.usable(r, i, usage, counts))) return null;
    const weights = [...new Set(usable.map((i) => usage.node(i).weight))].sort((a, b) => a - b);
    for (const w of weights) {
      const tier = bitsOf(n, usable.filter((i) => usage.node(i).weight <= w || required?.test(i)));
      const chosen = linearFit({
        n,
        cand: tier,
        availCpus: (i) => linearAvailCpus(usage.node(i), r),
        req: required,
        contiguous: r.contiguous,
        minNodes: counts.min,
        maxNodes: counts.max,
        reqNodes: counts.req,
        minCpus: r.minCpus,
      });
      if (chosen) return allocate(r, chosen, usage);
    }
    return null;
  },
};

// fit without required nodes, visiting only the nodes no job runs on (the others are never
// usable), a run of idle nodes of one kind at a time, and passing the tiers to linearFit as
// segments: the same choice, without a walk over every node of the cluster per tier.
function fitIdle(r: SelectRequest, cand: Bitstr, counts: NodeCounts, usage: Usage): Allocation | null {
  const n = usage.size;
  const usable: number[] = [];
  usage.forEachSegment(cand, 'idle', fitShortcuts.enabled, (start, end) => {
    if (linearNodeFits(usage.node(start), r)) usable.push(start, end);
  });
  const weightOf = (k: number) => usage.node(usable[k]!).weight;
  const weights = new Set<number>();
  for (let k = 0; k < usable.length; k += 2) weights.add(weightOf(k));
  const tiers = [...weights].sort((a, b) => a - b);
  for (const w of tiers) {
    const tier = tiers.length === 1 ? usable : usable.filter((_, k) => weightOf(k - (k & 1)) <= w);
    const chosen = linearFit({
      n,
      cand: null,
      candSegments: tier,
      availCpus: (i) => linearAvailCpus(usage.node(i), r),
      req: null,
      contiguous: r.contiguous,
      minNodes: counts.min,
      maxNodes: counts.max,
      reqNodes: counts.req,
      minCpus: r.minCpus,
    });
    if (chosen) return allocate(r, chosen, usage);
  }
  return null;
}

// Whole nodes: all CPUs; the memory asked for, else all of it; the per-node gres asked for.
function allocate(r: SelectRequest, chosen: readonly number[], usage: Usage): Allocation | null {
  const nodes: NodeAlloc[] = [];
  for (const i of chosen) {
    const node = usage.node(i);
    const gres = new NodeGresPick(usage, i);
    for (const spec of r.gresPerNode) if (gres.take(spec, spec.count) < spec.count) return null;
    const mem = r.memPerNode || r.memPerCpu * node.cpus || node.memory;
    nodes.push({ index: i, cores: node.cores, cpus: node.cpus, mem, gres: gres.result() });
  }
  return { jobId: r.jobId, whole: true, nodes };
}
