// One job's allocation as the select plugins record it, and its conversion to and from
// Slurm's job_resources_t.
import { Bitstr, type gres_spec_t, type job_resources_t } from '../../src/plugin-api/index.js';
import { setBits } from './bits.js';
import type { NodeCatalog } from './catalog.js';

/** Gres units given on one node: the unit indices of one name (see gres_spec_t.indices). */
export interface GresUnits {
  readonly name: string;
  readonly type?: string;
  readonly indices: readonly number[];
}

export interface NodeAlloc {
  readonly index: number;
  /** Cores taken; the job's CPUs there are cores × the node's vpus. */
  readonly cores: number;
  readonly cpus: number;
  readonly mem: number;
  readonly gres: readonly GresUnits[];
}

export interface Allocation {
  readonly jobId: number;
  /** The nodes are the job's alone (`--exclusive`, or select/linear). */
  readonly whole: boolean;
  /** How many jobs may hold its cores (OverSubscribe); absent: 1. */
  readonly share?: number;
  /** Ascending node index. */
  readonly nodes: readonly NodeAlloc[];
}

/** The job_resources_t of an allocation, for a table of `nodeCount` nodes. */
export function toJobResources(alloc: Allocation, nodeCount: number): job_resources_t {
  // One walk over the nodes (a pass converts thousands of allocations).
  const count = alloc.nodes.length;
  const cpus: number[] = [];
  const memory: number[] = [];
  const gres: gres_spec_t[][] = [];
  const bits = new Bitstr(nodeCount);
  let ncpus = 0;
  for (let k = 0; k < count; k++) {
    const n = alloc.nodes[k]!;
    cpus.push(n.cpus);
    memory.push(n.mem);
    gres.push(n.gres.length === 0 ? [] : n.gres.map(gresSpec));
    bits.set(n.index);
    ncpus += n.cpus;
  }
  return { nhosts: count, node_bitmap: bits, ncpus, cpus, memory_allocated: memory, gres_allocated: gres, whole_node: alloc.whole };
}

function gresSpec(units: GresUnits): gres_spec_t {
  return {
    name: units.name,
    ...(units.type !== undefined && { type: units.type }),
    count: units.indices.length,
    indices: [...units.indices],
  };
}

/**
 * The allocation a job_resources_t describes (a job recovered at start, or one whose
 * job_resrcs the host set from job_test). Gres entries without indices get none here; the
 * caller picks units for them. Returns null if the record does not fit the node table.
 */
export function fromJobResources(jobId: number, res: job_resources_t, catalog: readonly NodeCatalog[]): Allocation | null {
  const indices = setBits(res.node_bitmap);
  if (indices.length !== res.nhosts || res.cpus.length !== res.nhosts) return null;
  const nodes: NodeAlloc[] = [];
  for (const [k, index] of indices.entries()) {
    const node = catalog[index];
    if (node === undefined) return null;
    const cpus = res.cpus[k]!;
    nodes.push({
      index,
      cores: Math.min(node.cores, Math.ceil(cpus / node.vpus)),
      cpus,
      mem: res.memory_allocated[k] ?? 0,
      gres: (res.gres_allocated[k] ?? []).map((g) => ({
        name: g.name,
        ...(g.type !== undefined && { type: g.type }),
        indices: g.indices ? [...g.indices] : [],
      })),
    });
  }
  return { jobId, whole: res.whole_node, nodes };
}
