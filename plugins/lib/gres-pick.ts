// Choosing gres units on one node: lowest free indices first, per-node requests before the
// node's share of per-job ones, never the same unit twice.
import type { gres_spec_t } from '../../src/plugin-api/records.js';
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
    const mine = this.taken.get(spec.name) ?? [];
    const units = this.usage.freeUnitList(this.i, spec).filter((k) => !mine.includes(k)).slice(0, count);
    this.taken.set(spec.name, [...mine, ...units]);
    return units.length;
  }

  /** The units taken, one entry per gres name; `type` set when all its units share one. */
  result(): GresUnits[] {
    const types = this.usage.node(this.i).gresUnits;
    return [...this.taken]
      .filter(([, indices]) => indices.length > 0)
      .map(([name, indices]) => {
        const sorted = [...indices].sort((a, b) => a - b);
        const unitTypes = sorted.map((k) => types.get(name)?.[k]);
        const type = unitTypes.every((t) => t === unitTypes[0]) ? unitTypes[0] : undefined;
        return type === undefined ? { name, indices: sorted } : { name, type, indices: sorted };
      });
  }
}
