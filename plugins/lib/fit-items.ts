// The usable nodes of one placement as items: runs start..end of nodes alike, each offering
// the job `avail` CPUs. Kept as three growing typed arrays rather than an object per item: a
// placement on a big cluster lists hundreds of them, and one list is reused from placement
// to placement.
export class FitItems {
  start = new Int32Array(256);
  end = new Int32Array(256);
  avail = new Int32Array(256);
  count = 0;

  clear(): this {
    this.count = 0;
    return this;
  }

  push(start: number, end: number, avail: number): void {
    if (this.count === this.start.length) this.grow();
    const k = this.count++;
    this.start[k] = start;
    this.end[k] = end;
    this.avail[k] = avail;
  }

  private grow(): void {
    const size = this.start.length * 2;
    const widen = (a: Int32Array) => {
      const b = new Int32Array(size);
      b.set(a);
      return b;
    };
    this.start = widen(this.start);
    this.end = widen(this.end);
    this.avail = widen(this.avail);
  }
}
