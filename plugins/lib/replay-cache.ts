// The nonces auth/hmac has accepted, each kept only while a credential carrying it could
// still verify: after its expiry the credential fails as expired, so the entry can go.
// Only credentials with a good MAC are ever recorded, so the cache's size is bounded by the
// rate at which key holders send messages times the credential lifetime.

/** How often, at most, expired entries are swept (seconds). */
const SWEEP_INTERVAL = 1;

export class ReplayCache {
  private readonly expiries = new Map<string, number>();
  private nextSweep = 0;

  /** Entries currently held (for tests and debugging). */
  get size(): number {
    return this.expiries.size;
  }

  /**
   * Records `nonce` as used until `expires` (seconds); false when it is already recorded,
   * i.e. the credential is a replay.
   */
  admit(nonce: string, expires: number, now: number): boolean {
    this.sweep(now);
    const known = this.expiries.get(nonce);
    if (known !== undefined && known >= now) return false;
    this.expiries.set(nonce, expires);
    return true;
  }

  clear(): void {
    this.expiries.clear();
    this.nextSweep = 0;
  }

  private sweep(now: number): void {
    if (now < this.nextSweep) return;
    this.nextSweep = now + SWEEP_INTERVAL;
    for (const [nonce, expires] of this.expiries) if (expires < now) this.expiries.delete(nonce);
  }
}
