// One node of the fence tree (tree-shape.ts), the part tsrun's coordinator (the root) and the
// node PMI servers share. A fence is ready here once every local task and every child has
// entered it; the merged puts then go up (at the root: the fence completes), and the
// completion comes back down and goes on to the children. Whatever can take part in no further
// fence (a task that finalized or never used PMI, a lost link) is remembered: a fence that is
// open, or opens later, fails the step instead of waiting for ever.
import type { KvsPair, PmiDown, PmiUp } from './messages.js';

export interface FenceNodeOptions {
  /** The children's node ids, in order. */
  children: readonly number[];
  /** Tasks of this node that enter every fence (none at the root). */
  localTasks: number;
  nodeName(nodeid: number): string;
  /** Everyone below and here entered fence `seq`; `childPuts`: what the children sent up. */
  ready(seq: number, childPuts: KvsPair[]): void;
  /** A completed fence's puts, before the local tasks are released. */
  apply(puts: readonly KvsPair[]): void;
  /** Tells the parent that something below can take part in no further fence. */
  passUp(why: string): void;
  /** Ends the step with an error, saying why. */
  fail(message: string): void;
}

export class FenceNode {
  private current = 0;
  private waiters: Array<() => void> = [];
  private contributions = new Map<number, KvsPair[]>();
  private readonly links = new Map<number, (message: PmiDown) => void>();
  /** Set once something this node's fences need is gone for good. */
  private why: string | undefined;
  private sentUp = false;
  private ended = false;

  constructor(private readonly options: FenceNodeOptions) {}

  /** The number of the fence this node is in, or will enter next. */
  get seq(): number {
    return this.current;
  }

  get stopped(): boolean {
    return this.ended;
  }

  /** A child's tree link is up: completions go down it. */
  attachChild(nodeid: number, down: (message: PmiDown) => void): void {
    this.links.set(nodeid, down);
  }

  /** A local task entered the fence; `release` runs when the fence completes. */
  enter(release: () => void): void {
    if (this.ended) return;
    this.waiters.push(release);
    this.check();
  }

  fromChild(nodeid: number, message: PmiUp): void {
    if (this.ended) return;
    if (message.kind === 'out') return this.out(message.why);
    if (message.seq !== this.current || this.contributions.has(nodeid)) {
      return this.fail(`${this.options.nodeName(nodeid)} sent fence ${message.seq} while fence ${this.current} is open`);
    }
    this.contributions.set(nodeid, message.puts);
    this.check();
  }

  /** Something in this subtree can take part in no further fence. */
  out(why: string): void {
    if (this.ended) return;
    this.why ??= why;
    this.options.passUp(why);
    this.check();
  }

  /** A child's link closed: its whole subtree is gone. */
  childLost(nodeid: number): void {
    if (!this.links.delete(nodeid)) return;
    this.out(`lost the PMI link to ${this.options.nodeName(nodeid)}`);
  }

  /** The link to the parent closed: no fence can complete from now on. */
  parentLost(parentName: string): void {
    if (this.ended) return;
    this.why ??= `lost the PMI link to ${parentName}`;
    this.check();
  }

  /** Fence completion from the parent (at the root: from itself). */
  done(message: PmiDown): void {
    if (this.ended) return;
    if (!this.sentUp || message.seq !== this.current) {
      return this.fail(`fence ${message.seq} completed while this node is at fence ${this.current}`);
    }
    this.options.apply(message.puts);
    this.current += 1;
    this.sentUp = false;
    const waiters = this.waiters;
    this.waiters = [];
    for (const down of this.links.values()) down(message);
    for (const release of waiters) release();
  }

  /** The step ended here: forget the waiting tasks and children. */
  close(): void {
    this.ended = true;
    this.waiters = [];
    this.links.clear();
  }

  private check(): void {
    if (this.ended) return;
    const open = this.sentUp || this.waiters.length > 0 || this.contributions.size > 0;
    if (!open) return;
    if (this.why !== undefined) return this.fail(`a fence cannot complete: ${this.why}`);
    if (this.sentUp || this.waiters.length < this.options.localTasks) return;
    if (this.contributions.size < this.options.children.length) return;
    // Children in tree order, so every node applies the same set the same way.
    const childPuts = this.options.children.flatMap((nodeid) => this.contributions.get(nodeid)!);
    this.contributions = new Map();
    this.sentUp = true;
    this.options.ready(this.current, childPuts);
  }

  private fail(message: string): void {
    if (this.ended) return;
    this.ended = true;
    this.options.fail(message);
  }
}
