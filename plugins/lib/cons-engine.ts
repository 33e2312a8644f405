// The cons_tres engine: what each node can give the job (Slurm's _can_job_run_on_node and
// _select_cores, simplified to CPU counts), consFit's choice, the CPUs the tasks keep
// (cons-dist.ts), then the allocation: whole cores, memory (--mem per node, --mem-per-cpu times the CPUs, all of it for --exclusive
// without a request, else none), and gres units (lowest free indices first).
import type { Allocation, NodeAlloc } from './allocation.js';
import { hasGres, type NodeCatalog } from './catalog.js';
import { distributeCpus } from './cons-dist.js';
import { consFit, type PlainNodes } from './cons-fit.js';
import { FitItems } from './fit-items.js';
import type { FreeIndex } from './free-index.js';
import { fitShortcuts } from './fit-shortcuts.js';
import { NodeGresPick } from './gres-pick.js';
import type { Engine, FitInput, NodeCounts } from './place.js';
import type { SelectRequest } from './request.js';
import type { Usage } from './usage.js';
import type { Bitstr, gres_spec_t } from '../../src/plugin-api/index.js';

/** CPUs node `node` can give the job under `usage` (0: none). */
export function consAvailCpus(node: NodeCatalog, r: SelectRequest, usage: Usage, counts: NodeCounts): number {
  const i = node.index;
  for (const spec of r.gresPerNode) if (!hasGres(node, spec)) return 0;
  for (const spec of r.gresPerJob) if (!hasGres(node, spec)) return 0;
  if (usage.ownedWhole(i) || (r.exclusive && usage.jobs(i) > 0)) return 0;
  let cores = usage.sharedCores(i, r.share);
  const freeMem = usage.freeMem(i);
  if (r.memPerNode > freeMem) return 0;
  if (r.memPerCpu > 0) cores = Math.min(cores, Math.floor(Math.floor(freeMem / r.memPerCpu) / node.vpus));
  for (const spec of r.gresPerNode) if (usage.freeGres(i, spec) < spec.count) return 0;
  if (r.exclusive) return cores === node.cores ? node.cpus : 0;
  let cpus = cores * node.vpus;
  if (!r.overcommit) {
    const tasks = Math.floor(cpus / r.cpusPerTask);
    // One node only (-N1): all the tasks must fit on it (Slurm's min_tasks_this_node).
    const minTasks = r.ntasksPerNode || (counts.max === 1 && r.numTasks > 0 ? r.numTasks : 1);
    if (tasks < minTasks) return 0;
    if (r.ntasksPerNode > 0) cpus = Math.min(cpus, roundUp(r.ntasksPerNode * r.cpusPerTask, node.vpus));
  }
  return cpus >= r.pnMinCpus ? cpus : 0;
}

export const consEngine: Engine = {
  usable(r, i, usage, counts) {
    return consAvailCpus(usage.node(i), r, usage, counts) > 0;
  },

  fit({ request: r, cand, required, counts, usage }: FitInput): Allocation | null {
    // One of avail (with required nodes), plain (a job that takes any free CPU) or items.
    const least = required === null && fitShortcuts.enabled ? plainThreshold(r, counts) : undefined;
    const index = least !== undefined && (r.gresPerNode.length === 0 || usage.freeGresIndex()) ? usage.freeCpuIndex() : undefined;
    const plain = index !== undefined;
    const chosen = consFit({
      n: usage.size,
      avail: required ? availWith(required, r, cand, counts, usage) : undefined,
      plain: index ? plainNodes(cand, r.contiguous, usage, index, r.gresPerNode, least!.least, least!.idle) : undefined,
      items: required === null && !plain ? availItems(r, cand, counts, usage) : undefined,
      weight: (i: number) => usage.node(i).weight,
      vpus: (i: number) => usage.node(i).vpus,
      req: required,
      contiguous: r.contiguous,
      minNodes: counts.min,
      maxNodes: counts.max,
      reqNodes: counts.req,
      minCpus: r.minCpus,
      pnMinCpus: r.pnMinCpus,
      whole: r.exclusive,
      gresNeed: r.gresPerJob.length === 0 ? NO_NEED : r.gresPerJob.map((g) => g.count),
      gresOffer: (i: number, k: number) => usage.freeGres(i, r.gresPerJob[k]!),
    });
    return chosen && allocate(r, chosen, usage);
  },
};

const NO_NEED: readonly number[] = Object.freeze([]);

// The usable nodes as items: only open nodes (no whole-node job, a core free) can give CPUs,
// found a word of the bitmaps at a time, and a run of nodes alike (kind and usage) is one item.
function availItems(r: SelectRequest, cand: Bitstr, counts: NodeCounts, usage: Usage): FitItems {
  const items = scratchItems.clear();
  usage.forEachSegment(cand, r.share > 1 ? 'unowned' : 'open', fitShortcuts.enabled, (start, end) => {
    const avail = consAvailCpus(usage.node(start), r, usage, counts);
    if (avail > 0) items.push(start, end, avail);
  });
  return items;
}

// The open candidates of a plain job with at least `least` free CPUs (`idle`: idle ones), through the usage's free-CPU index.
function plainNodes(cand: Bitstr, contiguous: boolean, usage: Usage, index: FreeIndex, gres: readonly gres_spec_t[], least: number, idle: boolean): PlainNodes {
  return {
    forEachRun: (visit) => usage.forEachOpenRun(cand, contiguous, visit, gres, least, idle),
    freeOf: (i) => index.freeOf(i),
    sum: (start, end) => index.sum(start, end),
    max: (start, end) => index.max(start, end),
    bestFit: (start, end, need) => index.bestFit(start, end, need),
  };
}

// One list serves every placement in turn (consFit keeps nothing of it).
const scratchItems = new FitItems();

/**
 * For a request any open node takes all its free CPUs for, provided it has at least some
 * (no memory, tasks per node or per-job gres), once the nodes without the untyped per-node
 * gres it asks for are left out: that least number. consAvailCpus is then the free CPUs of
 * the nodes with that many, 0 elsewhere. `--exclusive`: the idle nodes, all their CPUs.
 * Undefined for other requests.
 */
function plainThreshold(r: SelectRequest, counts: NodeCounts): { least: number; idle: boolean } | undefined {
  if (r.gresPerJob.length > 0 || r.memPerNode > 0 || r.memPerCpu > 0 || r.share > 1) return undefined;
  if (r.gresPerNode.some((spec) => spec.type !== undefined || spec.count <= 0)) return undefined;
  // consAvailCpus answers a whole node before counting tasks.
  if (r.exclusive) return { least: 1, idle: true };
  if (r.ntasksPerNode > 0) return undefined;
  if (r.overcommit) return { least: r.pnMinCpus, idle: false };
  // consAvailCpus: the tasks that must fit on one node (all of them with -N1), and pn_min_cpus.
  const minTasks = counts.max === 1 && r.numTasks > 0 ? r.numTasks : 1;
  return { least: Math.max(minTasks * r.cpusPerTask, r.pnMinCpus, 1), idle: false };
}

// Every node's usable CPUs, for a job with required nodes: the open ones', and the required
// ones' even when busy (the fit then fails on them).
function availWith(required: Bitstr, r: SelectRequest, cand: Bitstr, counts: NodeCounts, usage: Usage): Int32Array {
  const n = usage.size;
  const avail = new Int32Array(n);
  usage.forEachSegment(cand, r.share > 1 ? 'unowned' : 'open', false, (i) => {
    avail[i] = consAvailCpus(usage.node(i), r, usage, counts);
  });
  for (let i = required.nextSet(0); i >= 0; i = required.nextSet(i + 1)) {
    if (i < n && cand.test(i)) avail[i] = consAvailCpus(usage.node(i), r, usage, counts);
  }
  return avail;
}

// The allocation of the chosen nodes; null if gres units cannot be found after all.
function allocate(r: SelectRequest, chosen: Map<number, number>, usage: Usage): Allocation | null {
  const jobLeft = r.gresPerJob.map((g) => g.count);
  const nodes: NodeAlloc[] = [];
  const offered: number[] = [];
  for (const cpus of chosen.values()) offered.push(cpus);
  const kept = distributeCpus({
    avail: offered,
    cpusPerTask: r.cpusPerTask,
    ntasksPerNode: r.ntasksPerNode,
    overcommit: r.overcommit,
  });
  const wantsGres = r.gresPerNode.length > 0 || r.gresPerJob.length > 0;
  let k = 0;
  for (const i of chosen.keys()) {
    const node = usage.node(i);
    const cores = r.exclusive ? node.cores : Math.min(node.cores, Math.ceil(kept[k++]! / node.vpus));
    let units: NodeAlloc['gres'] = NO_GRES;
    if (wantsGres) {
      const gres = new NodeGresPick(usage, i);
      for (const spec of r.gresPerNode) if (gres.take(spec, spec.count) < spec.count) return null;
      r.gresPerJob.forEach((spec, g) => (jobLeft[g]! -= gres.take(spec, jobLeft[g]!)));
      units = gres.result();
    }
    nodes.push({ index: i, cores, cpus: cores * node.vpus, mem: memoryFor(r, node, cores * node.vpus), gres: units });
  }
  if (jobLeft.some((left) => left > 0)) return null;
  return { jobId: r.jobId, whole: r.exclusive, ...(r.share > 1 && { share: r.share }), nodes };
}

const NO_GRES: NodeAlloc['gres'] = Object.freeze([]);

function memoryFor(r: SelectRequest, node: NodeCatalog, cpus: number): number {
  if (r.memPerNode > 0) return r.memPerNode;
  if (r.memPerCpu > 0) return r.memPerCpu * cpus;
  return r.exclusive ? node.memory : 0;
}

function roundUp(cpus: number, vpus: number): number {
  return Math.ceil(cpus / vpus) * vpus;
}
