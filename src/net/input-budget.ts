// The bytes that connections of one daemon which have not yet authenticated may hold together
// (unfinished lines). Each connection is capped on its own too, but many connections under the
// cap still add up: when the total passes the budget, the connection holding the most is cut,
// which is the flooder rather than a client whose small request is about to end.

export interface BudgetHolder {
  /** Drops what it holds and closes its connection; must give its bytes back (`set(this, 0)`). */
  cut(why: string): void;
}

export class InputBudget {
  private readonly holders = new Map<BudgetHolder, number>();
  private total = 0;

  constructor(readonly limit: number) {}

  /** Bytes held now, by every holder. */
  get held(): number {
    return this.total;
  }

  /** Records that `holder` now holds `delta` bytes more (or fewer); cuts the largest while over. */
  add(holder: BudgetHolder, delta: number): void {
    this.set(holder, (this.holders.get(holder) ?? 0) + delta);
    while (this.total > this.limit) {
      let largest: BudgetHolder | undefined;
      let most = 0;
      for (const [candidate, bytes] of this.holders) if (bytes > most) [largest, most] = [candidate, bytes];
      if (!largest) break;
      largest.cut(`${this.total} bytes buffered for unauthenticated connections, over the limit of ${this.limit}; this one held the most (${most})`);
      // A holder that failed to give its bytes back must not stall the loop.
      if (this.holders.get(largest) === most) this.set(largest, 0);
    }
  }

  /** `holder` holds no bytes against the budget any more (it authenticated, or closed). */
  release(holder: BudgetHolder): void {
    this.set(holder, 0);
  }

  private set(holder: BudgetHolder, bytes: number): void {
    this.total += bytes - (this.holders.get(holder) ?? 0);
    if (bytes > 0) this.holders.set(holder, bytes);
    else this.holders.delete(holder);
  }
}
