// One node's PMI server (the slurmstepd half of Slurm's mpi/pmi2): a replica of the step's
// KVS that serves every get locally, the puts of its tasks since the last fence, the fence
// itself (sent up once every local task is in, released when the coordinator answers), and
// the node attributes of PMI-2, which never leave the node. The per-task connections
// (connection.ts) call it; messages to and from the coordinator are plain data (messages.ts).
import type { KvsPair, PmiDown, PmiUp, PmiWelcome } from './messages.js';

export interface NodeServerOptions {
  nodeid: number;
  /** Global ranks of this node's tasks, by local id. */
  gtids: readonly number[];
  ntasks: number;
  welcome: PmiWelcome;
  /** Sends a message to the coordinator. */
  up(message: PmiUp): void;
  /**
   * Ends the whole step (Slurm's slurm_kill_job_step(SIGKILL)); `error`: say why, as Slurm
   * would have left the step hanging instead (see MpiStepInfo.abort_step).
   */
  abortStep(message: string, error: boolean): void;
}

type Waiter = () => void;

export class NodePmiServer {
  readonly pmiJobId: string;
  readonly universeSize: number;
  private readonly replica: Map<string, string>;
  private delta = new Map<string, string>();
  private seq = 0;
  private fenceWaiters: Waiter[] = [];
  private readonly nodeAttrs = new Map<string, string>();
  private readonly attrWaiters = new Map<string, Array<(value: string) => void>>();
  /** Local tasks that can join no further fence, and why. */
  private readonly out = new Map<number, string>();
  private ended = false;

  constructor(private readonly options: NodeServerOptions) {
    this.replica = new Map(options.welcome.kvs);
    this.pmiJobId = options.welcome.pmiJobId;
    this.universeSize = options.welcome.universeSize;
  }

  get ntasks(): number {
    return this.options.ntasks;
  }

  /** The global rank of local task `ltaskid`. */
  rank(ltaskid: number): number {
    return this.options.gtids[ltaskid]!;
  }

  /** True once the step is being ended: connections stop answering. */
  get stopped(): boolean {
    return this.ended;
  }

  put(key: string, value: string): void {
    this.delta.set(key, value);
  }

  /** A value of the KVS as of the last completed fence (puts are visible only after one). */
  get(key: string): string | undefined {
    return this.replica.get(key);
  }

  /** Local task `ltaskid` entered the fence; `release` runs when every task of the step has. */
  fence(ltaskid: number, release: Waiter): void {
    if (this.ended) return;
    this.fenceWaiters.push(release);
    if (this.out.size > 0) {
      this.fail(`a fence cannot complete: task ${this.describeOut()}`);
      return;
    }
    if (this.fenceWaiters.length < this.options.gtids.length) return;
    const puts: KvsPair[] = [...this.delta];
    this.delta = new Map();
    this.options.up({ kind: 'fence', nodeid: this.options.nodeid, seq: this.seq, puts });
  }

  /** A message from the coordinator. */
  receive(message: PmiDown): void {
    if (this.ended || message.kind !== 'fence-done') return;
    if (message.seq !== this.seq) {
      this.fail(`fence ${message.seq} completed while this node is at fence ${this.seq}`);
      return;
    }
    for (const [key, value] of message.puts) this.replica.set(key, value);
    this.seq += 1;
    const waiters = this.fenceWaiters;
    this.fenceWaiters = [];
    for (const release of waiters) release();
  }

  /** PMI-2 info-putnodeattr: visible at once to this node's tasks, and wakes their waits. */
  putNodeAttr(key: string, value: string): void {
    this.nodeAttrs.set(key, value);
    const waiters = this.attrWaiters.get(key) ?? [];
    this.attrWaiters.delete(key);
    for (const answer of waiters) answer(value);
  }

  /** PMI-2 info-getnodeattr: with `wait`, the answer is deferred until a local task puts `key`. */
  getNodeAttr(key: string, wait: boolean, answer: (value: string | undefined) => void): void {
    const value = this.nodeAttrs.get(key);
    if (value !== undefined || !wait) {
      answer(value);
      return;
    }
    const waiters = this.attrWaiters.get(key) ?? [];
    waiters.push(answer);
    this.attrWaiters.set(key, waiters);
  }

  /** The task finalized, or closed its connection without using PMI: it joins no more fences. */
  taskOut(ltaskid: number, reason: 'finalized' | 'unused'): void {
    if (this.ended || this.out.has(ltaskid)) return;
    this.out.set(ltaskid, reason);
    this.options.up({ kind: 'out', nodeid: this.options.nodeid, rank: this.rank(ltaskid), reason });
    if (this.fenceWaiters.length > 0) {
      this.fail(`a fence cannot complete: task ${this.rank(ltaskid)} ${outText(reason)}`);
    }
  }

  /** The task sent PMI abort (MPI_Abort): Slurm kills the step and says nothing more. */
  taskAborted(ltaskid: number, detail: string): void {
    if (this.ended) return;
    this.ended = true;
    this.options.abortStep(`mpi/pmi2: task ${this.rank(ltaskid)} aborted the step through PMI (${detail})`, false);
  }

  /**
   * The task's connection closed after init and before finalize: it died or exited early, and
   * the others would wait for it forever (in a fence, or in MPI itself). Alone in its step it
   * just ends, as under Slurm (MPICH's MPI_Abort of a single rank exits without PMI abort).
   */
  taskLost(ltaskid: number): void {
    if (this.options.ntasks > 1) this.fail(`task ${this.rank(ltaskid)} closed its PMI connection before finalize`);
  }

  /** A task broke the protocol (a request the server cannot answer). */
  taskFailed(ltaskid: number, message: string): void {
    this.fail(`task ${this.rank(ltaskid)}: ${message}`);
  }

  /** The step ended on this node: forget the waiting tasks. */
  close(): void {
    this.ended = true;
    this.fenceWaiters = [];
    this.attrWaiters.clear();
  }

  private fail(message: string): void {
    if (this.ended) return;
    this.ended = true;
    this.options.abortStep(`mpi/pmi2: ${message}`, true);
  }

  private describeOut(): string {
    const [ltaskid, reason] = [...this.out][0]!;
    return `${this.rank(ltaskid)} ${outText(reason)}`;
  }
}

function outText(reason: string): string {
  return reason === 'finalized' ? 'has finalized' : 'ended without using PMI';
}
