// PMI_process_mapping, MPICH's "(vector,(first_node,node_count,tasks_per_node),...)": each
// triple is a run of consecutive nodes taking that many consecutive ranks each, and the
// triples repeat until every rank is placed. Built per distribution as Slurm 22.05's mpi/pmi2
// does (src/plugins/mpi/pmi2/setup.c _get_proc_mapping); checked against PMI2_Info_GetJobAttr.
import type { StepLayout } from './step-layout.js';

type Tids = readonly (readonly number[])[];
/** What pmiProcessMapping reads of a step layout: the distribution, tasks per node and each node's global task ids. */
export type ProcessMappingLayout = Readonly<Pick<StepLayout, 'distribution'>> & { tasksPerNode: readonly number[]; tids: Tids };

/** The PMI_process_mapping value for a step's layout. */
export function pmiProcessMapping(layout: ProcessMappingLayout): string {
  const ntasks = layout.tasksPerNode.reduce((a, b) => a + b, 0);
  let triples: string[];
  switch (layout.distribution) {
    case 'cyclic':
      triples = cyclicTriples(layout.tids, ntasks);
      break;
    case 'plane':
      triples = planeTriples(layout.tids, ntasks);
      break;
    case 'arbitrary':
      // Slurm claims every task is on a node of its own: MPICH then uses no shared memory,
      // which is slower but never wrong.
      triples = [`(0,${ntasks},1)`];
      break;
    default:
      triples = blockTriples(layout.tasksPerNode);
  }
  return `(vector,${triples.join(',')})`;
}

// Runs of neighbouring nodes with equal task counts.
function blockTriples(counts: readonly number[]): string[] {
  const triples: string[] = [];
  let start = 0;
  for (let i = 1; i <= counts.length; i += 1) {
    if (i < counts.length && counts[i] === counts[start]) continue;
    triples.push(`(${start},${i - start},${counts[start]})`);
    start = i;
  }
  return triples;
}

// Each sweep over the nodes gives one rank per node while the ranks stay consecutive.
function cyclicTriples(tids: Tids, ntasks: number): string[] {
  const triples: string[] = [];
  const { round, nextIs } = cursor(tids);
  let mapped = 0;
  while (mapped < ntasks) {
    const before = mapped;
    for (let start = 0; start < tids.length; ) {
      while (start < tids.length && !nextIs(start, mapped)) start += 1;
      if (start >= tids.length) break;
      let end = start;
      while (end < tids.length && nextIs(end, mapped)) {
        round[end]! += 1;
        mapped += 1;
        end += 1;
      }
      triples.push(`(${start},${end - start},1)`);
      start = end;
    }
    if (mapped === before) throw notAPermutation();
  }
  return triples;
}

// A block of consecutive ranks on one node (the plane, or less at the end), then the
// following nodes for as long as each holds exactly the next block of the same size.
function planeTriples(tids: Tids, ntasks: number): string[] {
  const triples: string[] = [];
  const { round, nextIs } = cursor(tids);
  let mapped = 0;
  while (mapped < ntasks) {
    const before = mapped;
    for (let start = 0; start < tids.length; ) {
      while (start < tids.length && !nextIs(start, mapped)) start += 1;
      if (start >= tids.length) break;
      let block = 0;
      while (nextIs(start, mapped)) {
        block += 1;
        round[start]! += 1;
        mapped += 1;
      }
      let end = start + 1;
      while (end < tids.length && round[end]! + block - 1 < tids[end]!.length) {
        // Slurm counts how many of the node's remaining ranks follow on; a longer run than
        // the block also ends the triple.
        const rest = tids[end]!.slice(round[end]!);
        let i = 0;
        while (i < rest.length && rest[i] === mapped + i) i += 1;
        if (i !== block) break;
        round[end]! += block;
        mapped += block;
        end += 1;
      }
      triples.push(`(${start},${end - start},${block})`);
      start = end;
    }
    if (mapped === before) throw notAPermutation();
  }
  return triples;
}

// round[n] is how many of node n's ranks are mapped; nextIs tells whether its next one is `rank`.
function cursor(tids: Tids) {
  const round = tids.map(() => 0);
  const nextIs = (node: number, rank: number): boolean =>
    round[node]! < tids[node]!.length && tids[node]![round[node]!] === rank;
  return { round, nextIs };
}

// The tids of a layout hold each rank 0..n-1 once; anything else would loop forever.
function notAPermutation(): RangeError {
  return new RangeError('PMI_process_mapping: the layout does not hold ranks 0..n-1 once each');
}
