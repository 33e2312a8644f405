// The controller's scheduling loop: passes run one at a time; a kick during a pass asks for
// one more after it. What a pass does (schedule.ts) is given at construction, so the handlers
// that kick the scheduler need only this small class.
import type { Logger } from '../core/log.js';

export class Scheduler {
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
        await this.pass(this.abort.signal);
      } catch (error) {
        this.log.error(`schedule: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
      }
    }
    this.running = undefined;
  }
}
