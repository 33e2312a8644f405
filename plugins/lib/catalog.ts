// What the select plugins need to know about each node, computed once in select_p_node_init:
// cores and CPUs per core, memory, weight, features as a set, and the node's gres units.
import type { gres_spec_t, node_record_t } from '../../src/plugin-api/index.js';

export interface NodeCatalog {
  readonly index: number;
  readonly name: string;
  readonly cpus: number;
  /** Allocation units: cores, each `vpus` CPUs (threads). */
  readonly cores: number;
  readonly vpus: number;
  readonly memory: number;
  readonly weight: number;
  readonly features: ReadonlySet<string>;
  /** Per gres name, the type of each unit (undefined when untyped), in gres_list order. */
  readonly gresUnits: ReadonlyMap<string, readonly (string | undefined)[]>;
  /** Units per gres name (key `name`) and per name and type (key `name:type`). */
  readonly gresTotals: ReadonlyMap<string, number>;
}

/** The catalog of a node table. */
export function buildCatalog(nodes: readonly node_record_t[]): NodeCatalog[] {
  return nodes.map((node) => {
    // CR_Core: a job gets whole cores. A node whose CPUs= does not match its layout is
    // treated as single-threaded cores, one per CPU.
    const layoutCores = node.tot_sockets * node.cores;
    const matches = layoutCores > 0 && layoutCores * node.threads === node.cpus;
    const gresUnits = new Map<string, (string | undefined)[]>();
    for (const gres of node.gres_list) {
      const units = gresUnits.get(gres.name) ?? [];
      for (let k = 0; k < gres.count; k++) units.push(gres.type);
      gresUnits.set(gres.name, units);
    }
    const gresTotals = new Map<string, number>();
    for (const [name, types] of gresUnits) {
      gresTotals.set(name, types.length);
      for (const type of types) if (type !== undefined) gresTotals.set(`${name}:${type}`, (gresTotals.get(`${name}:${type}`) ?? 0) + 1);
    }
    return {
      index: node.index,
      name: node.name,
      cpus: node.cpus,
      cores: matches ? layoutCores : node.cpus,
      vpus: matches ? node.threads : 1,
      memory: node.real_memory,
      weight: node.weight,
      features: new Set(node.features),
      gresUnits,
      gresTotals,
    };
  });
}

/** Does the node have `spec`'s gres (and type) configured at all, in at least that count? */
export function hasGres(node: NodeCatalog, spec: gres_spec_t, count = 1): boolean {
  return gresTotal(node, spec) >= count;
}

/** Units of `spec`'s gres (of its type, if given) configured on the node. */
export function gresTotal(node: NodeCatalog, spec: gres_spec_t): number {
  if (node.gresTotals.size === 0) return 0;
  return node.gresTotals.get(spec.type === undefined ? spec.name : `${spec.name}:${spec.type}`) ?? 0;
}

/** Is `name` (with `type`, if given) configured on any node? */
export function gresKnown(catalog: readonly NodeCatalog[], spec: gres_spec_t): boolean {
  return catalog.some((node) => hasGres(node, spec));
}

/**
 * Per node, the last index of the run of consecutive nodes of its kind: the same CPUs,
 * cores, threads, memory, weight, features and gres (all but the name and index).
 */
export function kindRunEnds(catalog: readonly NodeCatalog[]): Int32Array {
  // Worked out once per catalog: every empty usage of it asks.
  const known = kindEndsOf.get(catalog);
  if (known !== undefined) return known;
  const ends = new Int32Array(catalog.length);
  kindEndsOf.set(catalog, ends);
  const kinds = catalog.map(kindOf);
  for (let i = catalog.length - 1; i >= 0; i--) {
    ends[i] = i + 1 < catalog.length && kinds[i + 1] === kinds[i] ? ends[i + 1]! : i;
  }
  return ends;
}

const kindEndsOf = new WeakMap<readonly NodeCatalog[], Int32Array>();

function kindOf(node: NodeCatalog): string {
  const gres = [...node.gresUnits].map(([name, types]) => `${name}=${types.map((t) => t ?? '').join('+')}`);
  return JSON.stringify([node.cpus, node.cores, node.vpus, node.memory, node.weight, [...node.features].sort(), gres]);
}
