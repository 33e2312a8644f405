// What tsrun knows of its step's use: each node's latest report (live samples, then its final
// figures), folded into the step's StepUsage for the controller (live samples as they come,
// at most one a second; the final figures with the step's end).
import { foldStepUsage } from '../../core/step-usage-fold.js';
import type { NodeUsage, StepUsage } from '../../protocol/step-usage.js';

const LIVE_MIN_MS = 1000;

export class StepUsageBook {
  private readonly nodes = new Map<string, NodeUsage>();
  private lastLive = 0;
  private pending: NodeJS.Timeout | undefined;

  /** `live`: where a running step's samples go (the controller), if anywhere. */
  constructor(private readonly live?: (usage: StepUsage) => void) {}

  record(usage: NodeUsage, final: boolean): void {
    this.nodes.set(usage.node, usage);
    if (final || !this.live || this.pending) return;
    const wait = Math.max(0, this.lastLive + LIVE_MIN_MS - Date.now());
    // The nodes of a step sample at about the same time: their reports go up as one.
    this.pending = setTimeout(() => {
      this.pending = undefined;
      this.lastLive = Date.now();
      const step = this.current();
      if (step) this.live?.(step);
    }, wait + 50);
    this.pending.unref();
  }

  /** The step's figures from what every node said last. */
  current(): StepUsage | undefined {
    return foldStepUsage([...this.nodes.values()], Math.floor(Date.now() / 1000));
  }

  stop(): void {
    if (this.pending) clearTimeout(this.pending);
    this.pending = undefined;
  }
}
