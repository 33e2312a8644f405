// The step's KVS coordinator, in tsrun (the root of Slurm's mpi/pmi2 tree, srun's side of
// src/plugins/mpi/pmi2/tree.c): it holds the job's KVS, and completes a fence once every node
// with tasks has sent up its local puts, then sends the merged set back down to every node.
import type { KvsPair, PmiDown, PmiUp, PmiWelcome } from './messages.js';

export interface CoordinatorOptions {
  /** `<jobid>.<stepid>`. */
  pmiJobId: string;
  /** Tasks on each node, by node id; nodes without tasks take no part in fences. */
  tasksPerNode: readonly number[];
  /** The KVS before any task runs. */
  kvs: readonly KvsPair[];
  /** Ends the step with an error, saying why (a fence that can never complete). */
  fail(message: string): void;
}

export class KvsCoordinator {
  private readonly kvs: Map<string, string>;
  private readonly nodes = new Map<number, (message: PmiDown) => void>();
  private readonly participants: number;
  private seq = 0;
  private contributions = new Map<number, KvsPair[]>();
  /** A task that can join no further fence, as "task R finalized". */
  private outTask: string | undefined;
  private failed = false;

  constructor(private readonly options: CoordinatorOptions) {
    this.kvs = new Map(options.kvs);
    this.participants = options.tasksPerNode.filter((n) => n > 0).length;
  }

  /** A node's PMI server joins; `down` delivers the coordinator's messages to it. */
  attach(nodeid: number, down: (message: PmiDown) => void): PmiWelcome {
    this.nodes.set(nodeid, down);
    const universeSize = this.options.tasksPerNode.reduce((a, b) => a + b, 0);
    return { kvs: [...this.kvs], pmiJobId: this.options.pmiJobId, universeSize };
  }

  detach(nodeid: number): void {
    this.nodes.delete(nodeid);
  }

  /** A message from a node. */
  receive(message: PmiUp): void {
    if (this.failed) return;
    if (message.kind === 'out') {
      this.outTask ??= `task ${message.rank} ${message.reason === 'finalized' ? 'has finalized' : 'ended without using PMI'}`;
      if (this.contributions.size > 0) this.fail(`a fence cannot complete: ${this.outTask}`);
      return;
    }
    if (message.seq !== this.seq || this.contributions.has(message.nodeid)) {
      this.fail(`node ${message.nodeid} sent fence ${message.seq} while fence ${this.seq} is open`);
      return;
    }
    this.contributions.set(message.nodeid, message.puts);
    if (this.outTask !== undefined) {
      this.fail(`a fence cannot complete: ${this.outTask}`);
      return;
    }
    if (this.contributions.size === this.participants) this.complete();
  }

  /** The KVS as it stands (everything put before the last completed fence). */
  snapshot(): KvsPair[] {
    return [...this.kvs];
  }

  close(): void {
    this.failed = true;
    this.nodes.clear();
  }

  private complete(): void {
    const puts: KvsPair[] = [];
    // In node order, so every node applies the same set the same way.
    for (const nodeid of [...this.contributions.keys()].sort((a, b) => a - b)) {
      puts.push(...this.contributions.get(nodeid)!);
    }
    for (const [key, value] of puts) this.kvs.set(key, value);
    const done: PmiDown = { kind: 'fence-done', seq: this.seq, puts };
    this.seq += 1;
    this.contributions = new Map();
    for (const down of this.nodes.values()) down(done);
  }

  private fail(message: string): void {
    this.failed = true;
    this.options.fail(message);
  }
}
