// What running jobs hold on each node: cores, memory, gres units, how many jobs, and whether a
// whole-node job owns it. Cheap to clone, for WILL_RUN's "as if these jobs had ended".
// Two bitmaps are kept up to date as jobs come and go, so that a placement visits only the
// nodes that could take it instead of all of them (10,000 nodes, 100,000 jobs a pass): `open`
// (no whole-node job, a core free) and `idle` (no job at all).
//
// forEachSegment() goes further: consecutive nodes of one kind (the same catalog entry but for the
// name) that jobs use alike (the same cores, memory and gres units taken, by some job or by
// none) look the same to every request, so a run of them is handed out as one segment. A
// third bitmap, `alike` (node i is like node i - 1), is kept up to date for that. On a
// cluster of a few node kinds, a placement then costs in proportion to the different states
// its nodes are in, not to the cluster's size.
import type { Bitstr, gres_spec_t } from '../../src/plugin-api/index.js';
import type { Allocation } from './allocation.js';
import { gresTotal, kindRunEnds, type NodeCatalog } from './catalog.js';
import { nextInBoth, runEndInBoth, wordsOf } from './word-scan.js';
import { FreeIndex } from './free-index.js';
import { GresFreeIndex } from './gres-free-index.js';

export class Usage {
  // forEachSegment's working words, made on first use.
  private scratch: Uint32Array | undefined;
  // Made on first use, then kept up to date; never in a clone.
  private freeIndex: FreeIndex | undefined;
  private gresIndex: GresFreeIndex | undefined;
  private indexable = true;
  /** Counts the changes (jobs added and removed): an answer worked out at one count still holds at the same. */
  version = 0;

  private constructor(
    private readonly catalog: readonly NodeCatalog[],
    private readonly cores: Int32Array,
    private readonly mem: Float64Array,
    private readonly jobCount: Int32Array,
    private readonly owned: Uint8Array,
    // node index → gres name → unit in use (1) or free (0); only nodes with gres.
    private readonly gres: Map<number, Map<string, Uint8Array>>,
    // Bit i (word i >>> 5): node i is open / idle.
    private readonly openWords: Uint32Array,
    private readonly idleWords: Uint32Array,
    private readonly alikeWords: Uint32Array,
    // Per node, the last index of the run of nodes of its kind (shared by clones).
    private readonly kindEnd: Int32Array,
    // The nodes whose weight differs from the node before's, ascending (shared by clones): a
    // cluster has few of them, so a run is cut at them without scanning its nodes.
    private readonly weightBreaks: Int32Array,
  ) {}

  /** No job anywhere. */
  static empty(catalog: readonly NodeCatalog[]): Usage {
    const n = catalog.length;
    const open = new Uint32Array((n + 31) >>> 5);
    const idle = new Uint32Array((n + 31) >>> 5);
    for (let i = 0; i < n; i++) {
      idle[i >>> 5]! |= 1 << (i & 31);
      if (catalog[i]!.cores > 0) open[i >>> 5]! |= 1 << (i & 31);
    }
    const kindEnd = kindRunEnds(catalog);
    const alike = new Uint32Array((n + 31) >>> 5);
    const breaks: number[] = [];
    for (let i = 1; i < n; i++) {
      if (kindEnd[i - 1]! >= i) alike[i >>> 5]! |= 1 << (i & 31);
      if (catalog[i]!.weight !== catalog[i - 1]!.weight) breaks.push(i);
    }
    return new Usage(catalog, new Int32Array(n), new Float64Array(n), new Int32Array(n), new Uint8Array(n), new Map(), open, idle, alike, kindEnd, Int32Array.from(breaks));
  }

  /**
   * A copy to change freely. It keeps no free-CPU index (freeCpuIndex answers undefined): a
   * copy is for WILL_RUN's "as if these jobs had ended", where thousands of node changes
   * come between two placements and keeping an index up to date would cost more than it saves.
   */
  clone(): Usage {
    const gres = new Map([...this.gres].map(([i, byName]) => [i, new Map([...byName].map(([k, v]) => [k, v.slice()]))]));
    return new Usage(
      this.catalog,
      this.cores.slice(),
      this.mem.slice(),
      this.jobCount.slice(),
      this.owned.slice(),
      gres,
      this.openWords.slice(),
      this.idleWords.slice(),
      this.alikeWords.slice(),
      this.kindEnd,
      this.weightBreaks,
    ).withoutIndex();
  }

  private withoutIndex(): this {
    this.indexable = false;
    return this;
  }

  /**
   * The runs of open (`idleOnly`: idle and open) nodes among `cand`, with the gres and free
   * CPUs asked for, each handed to `visit(start, end)`; a change of weight ends a run too,
   * unless `contiguous`.
   */
  forEachOpenRun(cand: Bitstr, contiguous: boolean, visit: (start: number, end: number) => void, gres: readonly gres_spec_t[] = [], leastCpus = 1, idleOnly = false): void {
    const size = this.catalog.length;
    const within = this.within(cand, 'open');
    if (idleOnly) for (let w = 0; w < within.length; w++) within[w]! &= this.idleWords[w]!;
    // Only nodes with that many units of each gres free (untyped requests: see freeGresIndex),
    // and with that many CPUs free (an open node has at least one).
    for (const spec of gres) this.freeGresIndex()!.narrow(within, spec.name, spec.count);
    if (leastCpus > 1) this.freeCpuIndex()!.narrowAtLeast(within, leastCpus);
    const breaks = this.weightBreaks;
    let k = 0; // the first break after the run's start (runs come in ascending order)
    for (let i = nextInBoth(within, within, 0, size); i >= 0; ) {
      const end = runEndInBoth(within, within, i, size);
      let from = i;
      if (!contiguous) {
        while (k < breaks.length && breaks[k]! <= from) k++;
        for (; k < breaks.length && breaks[k]! <= end; k++) {
          visit(from, breaks[k]! - 1);
          from = breaks[k]!;
        }
      }
      visit(from, end);
      i = nextInBoth(within, within, end + 1, size);
    }
  }

  // The open (idle) nodes among `cand`, in the working words.
  private within(cand: Bitstr, of: 'open' | 'idle' | 'unowned'): Uint32Array {
    const within = wordsOf(cand, this.catalog.length, (this.scratch ??= new Uint32Array(this.openWords.length)));
    if (of === 'unowned') {
      // Jobs that share cores may go where every core is taken: only whole-node jobs keep them out.
      for (let i = 0; i < this.catalog.length; i++) if (this.owned[i] === 1 || this.catalog[i]!.cores === 0) within[i >>> 5]! &= ~(1 << (i & 31));
      return within;
    }
    const base = of === 'idle' ? this.idleWords : this.openWords;
    for (let w = 0; w < within.length; w++) within[w]! &= base[w]!;
    return within;
  }

  /** The free-CPU index of the open nodes (see free-index.ts); undefined in a clone. */
  freeCpuIndex(): FreeIndex | undefined {
    if (this.freeIndex === undefined && this.indexable) {
      const free = new Int32Array(this.catalog.length);
      for (let i = 0; i < free.length; i++) free[i] = this.openFreeCpus(i);
      this.freeIndex = new FreeIndex(free);
    }
    return this.freeIndex;
  }

  /** Free units per gres name and node (see gres-free-index.ts); undefined in a clone. */
  freeGresIndex(): GresFreeIndex | undefined {
    if (this.gresIndex === undefined && this.indexable) {
      this.gresIndex = new GresFreeIndex(this.catalog.length);
      for (let i = 0; i < this.catalog.length; i++) this.indexGres(i);
    }
    return this.gresIndex;
  }

  private indexGres(i: number): void {
    for (const name of this.catalog[i]!.gresUnits.keys()) this.gresIndex!.set(i, name, this.freeGres(i, { name, count: 0 }));
  }

  // Free CPUs of node i if it is open, else 0.
  private openFreeCpus(i: number): number {
    return (this.openWords[i >>> 5]! & (1 << (i & 31))) !== 0 ? this.freeCores(i) * this.catalog[i]!.vpus : 0;
  }

  /**
   * The open (`idle`: idle) nodes among `cand` as segments, ascending, each handed to
   * `visit(start, end)`: one node, or (`merge`) a run of nodes alike.
   */
  forEachSegment(cand: Bitstr, of: 'open' | 'idle' | 'unowned', merge: boolean, visit: (start: number, end: number) => void): void {
    const size = this.catalog.length;
    const within = this.within(cand, of);
    const alike = this.alikeWords;
    for (let i = nextInBoth(within, within, 0, size); i >= 0; ) {
      let end = i;
      const next = i + 1;
      if (merge && next < size && (alike[next >>> 5]! & within[next >>> 5]! & (1 << (next & 31))) !== 0) {
        end = runEndInBoth(alike, within, next, size);
      }
      visit(i, end);
      i = nextInBoth(within, within, end + 1, size);
    }
  }

  /** Number of nodes in the table. */
  get size(): number {
    return this.catalog.length;
  }

  node(i: number): NodeCatalog {
    return this.catalog[i]!;
  }

  freeCores(i: number): number {
    return Math.max(0, this.catalog[i]!.cores - this.cores[i]!);
  }

  /**
   * Cores a job that shares them with up to `share` jobs may take on node `i` (OverSubscribe):
   * each core counts `share` times, and no job gets more cores than the node has.
   */
  sharedCores(i: number, share: number): number {
    if (share <= 1) return this.freeCores(i);
    return Math.max(0, Math.min(this.catalog[i]!.cores, this.catalog[i]!.cores * share - this.cores[i]!));
  }

  freeMem(i: number): number {
    return this.catalog[i]!.memory - this.mem[i]!;
  }

  jobs(i: number): number {
    return this.jobCount[i]!;
  }

  /** A whole-node job holds node `i`. */
  ownedWhole(i: number): boolean {
    return this.owned[i] === 1;
  }

  /** Free units of `spec`'s gres (of its type, if given) on node `i`. */
  freeGres(i: number, spec: gres_spec_t): number {
    const used = this.gres.get(i)?.get(spec.name);
    if (used === undefined) return gresTotal(this.catalog[i]!, spec);
    const types = this.catalog[i]!.gresUnits.get(spec.name);
    if (types === undefined) return 0;
    let free = 0;
    for (let k = 0; k < types.length; k++) {
      if ((spec.type === undefined || types[k] === spec.type) && !used?.[k]) free++;
    }
    return free;
  }

  /** Free units of `spec` on node `i` (matching its type, if given), ascending. */
  freeUnitList(i: number, spec: gres_spec_t): number[] {
    const types = this.catalog[i]!.gresUnits.get(spec.name);
    if (types === undefined) return [];
    const used = this.gres.get(i)?.get(spec.name);
    const out: number[] = [];
    for (let k = 0; k < types.length; k++) {
      if ((spec.type === undefined || types[k] === spec.type) && !used?.[k]) out.push(k);
    }
    return out;
  }

  /** Could `alloc` be added without over-committing any node? */
  fits(alloc: Allocation): boolean {
    return alloc.nodes.every((n) => {
      const i = n.index;
      if (this.owned[i] || (alloc.whole && this.jobCount[i]! > 0)) return false;
      if (n.cores > this.sharedCores(i, alloc.share ?? 1) || n.mem > this.freeMem(i)) return false;
      const byName = this.gres.get(i);
      return n.gres.every((g) => g.indices.every((k) => !byName?.get(g.name)?.[k]));
    });
  }

  add(alloc: Allocation): void {
    this.apply(alloc, 1);
  }

  remove(alloc: Allocation): void {
    this.apply(alloc, -1);
  }

  private apply(alloc: Allocation, sign: 1 | -1): void {
    this.version++;
    this.update(alloc, sign);
    for (const n of alloc.nodes) {
      this.setAlike(n.index);
      this.setAlike(n.index + 1);
    }
  }

  // Bit i of `alike`: node i is of node i - 1's kind and used alike.
  private setAlike(i: number): void {
    if (i <= 0 || i >= this.catalog.length) return;
    const j = i - 1;
    const same =
      this.kindEnd[j]! >= i &&
      this.cores[i] === this.cores[j] &&
      this.mem[i] === this.mem[j] &&
      this.owned[i] === this.owned[j] &&
      (this.jobCount[i] === 0) === (this.jobCount[j] === 0) &&
      // Nodes of one kind: without gres (most nodes), no units to compare.
      (this.catalog[i]!.gresUnits.size === 0 || sameUnits(this.gres.get(i), this.gres.get(j)));
    if (same) this.alikeWords[i >>> 5]! |= 1 << (i & 31);
    else this.alikeWords[i >>> 5]! &= ~(1 << (i & 31));
  }

  private update(alloc: Allocation, sign: 1 | -1): void {
    for (const n of alloc.nodes) {
      const i = n.index;
      this.cores[i] = Math.max(0, this.cores[i]! + sign * n.cores);
      this.mem[i] = Math.max(0, this.mem[i]! + sign * n.mem);
      this.jobCount[i] = Math.max(0, this.jobCount[i]! + sign);
      if (alloc.whole) this.owned[i] = sign === 1 ? 1 : 0;
      for (const g of n.gres) {
        const units = this.gresArray(i, g.name);
        if (units === undefined) continue;
        for (const k of g.indices) if (k < units.length) units[k] = sign === 1 ? 1 : 0;
      }
      const bit = 1 << (i & 31);
      if (this.owned[i] === 0 && this.cores[i]! < this.catalog[i]!.cores) this.openWords[i >>> 5]! |= bit;
      else this.openWords[i >>> 5]! &= ~bit;
      if (this.jobCount[i] === 0) this.idleWords[i >>> 5]! |= bit;
      else this.idleWords[i >>> 5]! &= ~bit;
      this.freeIndex?.set(i, this.openFreeCpus(i));
      if (this.gresIndex !== undefined && n.gres.length > 0) this.indexGres(i);
    }
  }

  private gresArray(i: number, name: string): Uint8Array | undefined {
    const size = this.catalog[i]!.gresUnits.get(name)?.length;
    if (size === undefined) return undefined;
    let byName = this.gres.get(i);
    if (byName === undefined) this.gres.set(i, (byName = new Map()));
    let units = byName.get(name);
    if (units === undefined) byName.set(name, (units = new Uint8Array(size)));
    return units;
  }
}

// Same gres units in use (a node without an entry uses none).
function sameUnits(a: Map<string, Uint8Array> | undefined, b: Map<string, Uint8Array> | undefined): boolean {
  if (a === b) return true;
  return unitsWithin(a, b) && unitsWithin(b, a);
}

// Every unit `a` uses, `b` uses too.
function unitsWithin(a: Map<string, Uint8Array> | undefined, b: Map<string, Uint8Array> | undefined): boolean {
  if (a === undefined) return true;
  for (const [name, units] of a) {
    const other = b?.get(name);
    for (let k = 0; k < units.length; k++) if (units[k] !== 0 && other?.[k] !== 1) return false;
  }
  return true;
}
