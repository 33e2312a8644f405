// Which nodes have how many units of a gres free, per gres name, kept up to date as jobs come
// and go: a bitmap of nodes per free count. A job asking for `--gres=gpu:2` on each node then
// narrows its candidates to the nodes with two GPUs free a word at a time (see
// Usage.forEachOpenRun), instead of checking the nodes one by one.
export class GresFreeIndex {
  // Per name: free units of each node (-1: the node has none of that gres), and per free
  // count the nodes with that many.
  private readonly byName = new Map<string, { free: Int16Array; byCount: Uint32Array[] }>();

  constructor(private readonly size: number) {}

  /** Node i now has `free` units of `name` free (it has the gres). */
  set(i: number, name: string, free: number): void {
    let entry = this.byName.get(name);
    if (entry === undefined) this.byName.set(name, (entry = { free: new Int16Array(this.size).fill(-1), byCount: [] }));
    const old = entry.free[i]!;
    if (old === free) return;
    if (old >= 0) entry.byCount[old]![i >>> 5]! &= ~(1 << (i & 31));
    entry.free[i] = free;
    while (entry.byCount.length <= free) entry.byCount.push(new Uint32Array((this.size + 31) >>> 5));
    entry.byCount[free]![i >>> 5]! |= 1 << (i & 31);
  }

  /** Clears in `words` every node with fewer than `count` units of `name` free. */
  narrow(words: Uint32Array, name: string, count: number): void {
    const byCount = this.byName.get(name)?.byCount ?? [];
    for (let w = 0; w < words.length; w++) {
      let enough = 0;
      for (let c = count; c < byCount.length; c++) enough |= byCount[c]![w]!;
      words[w]! &= enough;
    }
  }
}
