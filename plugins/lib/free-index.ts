// An index of the free CPUs of the open nodes (0 for the others), kept up to date node by
// node as jobs come and go, for the requests that can use any free CPU (see isPlain in
// cons-engine.ts). It answers what cons_tres's node choice asks of a set of consecutive
// nodes without visiting them: their free CPUs in all (a Fenwick tree), the most one of them
// has (a max segment tree), and the first node with the fewest free CPUs that still suffice
// (a bitmap per free-CPU count); and, for a request that needs K CPUs on a node, the nodes
// with at least K (a bitmap per K). A placement then costs in proportion to the sets, not to
// the nodes, of a big cluster.
export class FreeIndex {
  private readonly size: number;
  private readonly free: Int32Array;
  // Fenwick tree over free (1-based).
  private readonly sums: Float64Array;
  // Max segment tree over free: leaves at [leaves, 2 * leaves).
  private readonly leaves: number;
  private readonly most: Int32Array;
  // Free-CPU count → its nodes (bit i in word i >>> 5) and how many; the counts in use,
  // ascending. Indexed by the count (a node's CPUs: small integers).
  private readonly byCount: (Uint32Array | undefined)[] = [];
  private readonly population: number[] = [];
  private readonly counts: number[] = [];
  // K → the nodes with at least K free CPUs (bit i in word i >>> 5), K from 1 to the most any
  // node has had; a node whose count moves flips its bit in the bitmaps between the two.
  private readonly atLeast: Uint32Array[] = [];

  /** The index of `free` (node i: its free CPUs if open, else 0). */
  constructor(free: Int32Array) {
    this.size = free.length;
    this.free = free.slice();
    this.sums = new Float64Array(this.size + 1);
    for (let i = 0; i < this.size; i++) {
      const j = i + 1;
      this.sums[j]! += this.free[i]!;
      const parent = j + (j & -j);
      if (parent <= this.size) this.sums[parent]! += this.sums[j]!;
    }
    let leaves = 1;
    while (leaves < Math.max(this.size, 1)) leaves <<= 1;
    this.leaves = leaves;
    this.most = new Int32Array(2 * leaves);
    this.most.set(this.free, leaves);
    for (let k = leaves - 1; k >= 1; k--) this.most[k] = Math.max(this.most[2 * k]!, this.most[2 * k + 1]!);
    for (let i = 0; i < this.size; i++) {
      if (this.free[i]! > 0) this.mark(i, this.free[i]!, true);
      this.moveAtLeast(i, 0, this.free[i]!);
    }
  }

  /** Free CPUs of node i (0 when it is not open). */
  freeOf(i: number): number {
    return this.free[i]!;
  }

  /** Node i now has `value` free CPUs (0: not open). */
  set(i: number, value: number): void {
    const old = this.free[i]!;
    if (old === value) return;
    this.free[i] = value;
    for (let j = i + 1; j <= this.size; j += j & -j) this.sums[j]! += value - old;
    let k = this.leaves + i;
    this.most[k] = value;
    for (k >>= 1; k >= 1; k >>= 1) this.most[k] = Math.max(this.most[2 * k]!, this.most[2 * k + 1]!);
    if (old > 0) this.mark(i, old, false);
    if (value > 0) this.mark(i, value, true);
    this.moveAtLeast(i, old, value);
  }

  /** Free CPUs of nodes start..end in all. */
  sum(start: number, end: number): number {
    return this.prefix(end + 1) - this.prefix(start);
  }

  /** The most free CPUs one of nodes start..end has. */
  max(start: number, end: number): number {
    let best = 0;
    for (let lo = start + this.leaves, hi = end + this.leaves + 1; lo < hi; lo >>= 1, hi >>= 1) {
      if (lo & 1) best = Math.max(best, this.most[lo++]!);
      if (hi & 1) best = Math.max(best, this.most[--hi]!);
    }
    return best;
  }

  /** The first of nodes start..end with the fewest free CPUs of at least `need`, or -1. */
  bestFit(start: number, end: number, need: number): number {
    for (const count of this.counts) {
      if (count < need) continue;
      const i = firstSetIn(this.byCount[count]!, start, end);
      if (i !== -1) return i;
    }
    return -1;
  }

  /** Clears in `words` every node with fewer than `least` free CPUs. */
  narrowAtLeast(words: Uint32Array, least: number): void {
    if (least <= 0) return;
    const enough = this.atLeast[Math.ceil(least)];
    if (enough === undefined) {
      words.fill(0);
      return;
    }
    for (let w = 0; w < words.length; w++) words[w]! &= enough[w]!;
  }

  // Node i's free CPUs went from `from` to `to`: its bit in the at-least bitmaps between them.
  private moveAtLeast(i: number, from: number, to: number): void {
    const word = i >>> 5;
    const bit = 1 << (i & 31);
    if (to > from) {
      for (let k = from + 1; k <= to; k++) (this.atLeast[k] ??= new Uint32Array((this.size + 31) >>> 5))[word]! |= bit;
    } else {
      for (let k = to + 1; k <= from; k++) this.atLeast[k]![word]! &= ~bit;
    }
  }

  private prefix(j: number): number {
    let total = 0;
    for (; j > 0; j -= j & -j) total += this.sums[j]!;
    return total;
  }

  private mark(i: number, count: number, on: boolean): void {
    let words = this.byCount[count];
    if (words === undefined) this.byCount[count] = words = new Uint32Array((this.size + 31) >>> 5);
    if (on) words[i >>> 5]! |= 1 << (i & 31);
    else words[i >>> 5]! &= ~(1 << (i & 31));
    const population = (this.population[count] ?? 0) + (on ? 1 : -1);
    this.population[count] = population;
    // A count appearing or vanishing changes the ascending list, in place.
    if (on && population === 1) {
      let k = this.counts.length;
      while (k > 0 && this.counts[k - 1]! > count) k--;
      this.counts.splice(k, 0, count);
    } else if (population === 0) {
      this.counts.splice(this.counts.indexOf(count), 1);
    }
  }
}

// The first bit set in `words` within start..end, or -1.
function firstSetIn(words: Uint32Array, start: number, end: number): number {
  const last = end >>> 5;
  let w = start >>> 5;
  let word = words[w]! & (~0 << (start & 31));
  while (word === 0) {
    if (++w > last) return -1;
    word = words[w]!;
  }
  const i = (w << 5) + 31 - Math.clz32(word & -word);
  return i <= end ? i : -1;
}
