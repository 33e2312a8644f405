// The controller's scheduling loop: passes run one at a time; a kick during a pass asks for
// one more after it. What a pass does (schedule.ts) is given at construction, so the handlers
// that kick the scheduler need only this small class.
import type { Logger } from '../core/log.js';

/** sdiag's main-scheduler figures: passes run, their times (microseconds), the last queue length. */
export interface CycleFigures {
  count: number;
  lastMicros: number;
  maxMicros: number;
  totalMicros: number;
  lastQueueLength: number;
}

export class Scheduler {
  readonly cycles: CycleFigures = { count: 0, lastMicros: 0, maxMicros: 0, totalMicros: 0, lastQueueLength: 0 };
  private running: Promise<void> | undefined;
  private again = false;
  private readonly abort = new AbortController();

  constructor(
    /** One scheduling pass; stops early when `signal` aborts (the controller is stopping). */
    private readonly pass: (signal: AbortSignal) => Promise<unknown>,
    private readonly log: Logger,
  ) {}

  kick(): void {
    this.again = true;
    this.running ??= this.loop();
  }

  /** Kicks a pass and resolves once no pass is running or due (the new job has been seen). */
  async settle(): Promise<void> {
    this.kick();
    while (this.running) await this.running;
  }

  async idle(): Promise<void> {
    this.abort.abort();
    await this.running;
  }

  private async loop(): Promise<void> {
    await new Promise((resolve) => setImmediate(resolve));
    while (this.again && !this.abort.signal.aborted) {
      this.again = false;
      try {
        const started = process.hrtime.bigint();
        const result = await this.pass(this.abort.signal);
        this.count(Number((process.hrtime.bigint() - started) / 1000n), result);
      } catch (error) {
        this.log.error(`schedule: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
      }
    }
    this.running = undefined;
  }

  private count(micros: number, result: unknown): void {
    const c = this.cycles;
    c.count++;
    c.lastMicros = micros;
    c.maxMicros = Math.max(c.maxMicros, micros);
    c.totalMicros += micros;
    const pending = (result as { pending?: unknown } | undefined)?.pending;
    if (typeof pending === 'number') c.lastQueueLength = pending;
  }
}
