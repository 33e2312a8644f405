// Choosing gres units on one node: lowest free indices first, per-node requests before the
// node's share of per-job ones, never the same unit twice.
import type { gres_spec_t } from '../../src/plugin-api/index.js';
import type { GresUnits } from './allocation.js';
import type { Usage } from './usage.js';

export class NodeGresPick {
  private readonly taken = new Map<string, number[]>();

  constructor(
    private readonly usage: Usage,
    private readonly i: number,
  ) {}

  /** Takes up to `count` free units of `spec`; returns how many it took. */
  take(spec: gres_spec_t, count: number): number {
    const mine = this.taken.get(spec.name);
    const free = this.usage.freeUnitList(this.i, spec);
    const units = (mine === undefined ? free : free.filter((k) => !mine.includes(k))).slice(0, count);
    this.taken.set(spec.name, mine === undefined ? units : [...mine, ...units]);
    return units.length;
  }

  /** The units taken, one entry per gres name; `type` set when all its units share one. */
  result(): GresUnits[] {
    const types = this.usage.node(this.i).gresUnits;
    const out: GresUnits[] = [];
    for (const [name, indices] of this.taken) {
      if (indices.length === 0) continue;
      // One request per name (the usual case) took its units in ascending order already.
      const sorted = isAscending(indices) ? indices : [...indices].sort((a, b) => a - b);
      const unitTypes = types.get(name);
      const first = unitTypes?.[sorted[0]!];
      let type = first;
      for (const k of sorted) if (unitTypes?.[k] !== first) type = undefined;
      out.push(type === undefined ? { name, indices: sorted } : { name, type, indices: sorted });
    }
    return out;
  }
}

function isAscending(list: readonly number[]): boolean {
  for (let k = 1; k < list.length; k++) if (list[k]! < list[k - 1]!) return false;
  return true;
}
