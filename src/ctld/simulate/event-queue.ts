// A binary min-heap of timed events for the simulation: earliest first, and in insertion
// order among events at the same second, so a replay is deterministic.

interface Entry<T> {
  readonly time: number;
  readonly seq: number;
  readonly value: T;
}

export class EventQueue<T> {
  private readonly heap: Entry<T>[] = [];
  private seq = 0;

  get size(): number {
    return this.heap.length;
  }

  /** Time of the earliest event, or Infinity when empty. */
  peekTime(): number {
    return this.heap[0]?.time ?? Infinity;
  }

  push(time: number, value: T): void {
    const heap = this.heap;
    heap.push({ time, seq: this.seq++, value });
    let i = heap.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!before(heap[i]!, heap[parent]!)) break;
      [heap[i], heap[parent]] = [heap[parent]!, heap[i]!];
      i = parent;
    }
  }

  /** Removes and returns every event at the earliest time. */
  popDue(): T[] {
    const time = this.peekTime();
    const out: T[] = [];
    while (this.heap.length > 0 && this.heap[0]!.time === time) out.push(this.pop());
    return out;
  }

  private pop(): T {
    const heap = this.heap;
    const top = heap[0]!;
    const last = heap.pop()!;
    if (heap.length > 0) {
      heap[0] = last;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < heap.length && before(heap[l]!, heap[m]!)) m = l;
        if (r < heap.length && before(heap[r]!, heap[m]!)) m = r;
        if (m === i) break;
        [heap[i], heap[m]] = [heap[m]!, heap[i]!];
        i = m;
      }
    }
    return top.value;
  }
}

function before<T>(a: Entry<T>, b: Entry<T>): boolean {
  return a.time < b.time || (a.time === b.time && a.seq < b.seq);
}
