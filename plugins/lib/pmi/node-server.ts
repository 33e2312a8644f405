// One node's PMI server (the slurmstepd half of Slurm's mpi/pmi2): a replica of the step's
// KVS that serves every get locally, the puts of its tasks since the last fence, its place in
// the fence tree (fence-node.ts: local tasks and child nodes in, merged puts up to the
// parent, completions down), and the node attributes of PMI-2, which never leave the node.
// The per-task connections (connection.ts) call it; node-links.ts wires it to its tree links.
import { FenceNode } from './fence-node.js';
import type { KvsPair, PmiDown, PmiUp, PmiWelcome } from './messages.js';
import type { TreePlace } from './tree-shape.js';

export interface NodeServerOptions {
  nodeid: number;
  /** Global ranks of this node's tasks, by local id. */
  gtids: readonly number[];
  ntasks: number;
  welcome: PmiWelcome;
  /** This node's parent and children in the fence tree. */
  place: TreePlace;
  /** Node names by node id, for messages. */
  nodeNames: readonly string[];
  /**
   * Sends a message to the parent (tsrun or a node); null when this node runs every task of the
   * step: it is the whole tree, and a fence completes here as soon as its last task enters it.
   */
  up: ((message: PmiUp) => void) | null;
  /**
   * Ends the whole step (Slurm's slurm_kill_job_step(SIGKILL)); `error`: say why, as Slurm
   * would have left the step hanging instead (see MpiStepInfo.abort_step).
   */
  abortStep(message: string, error: boolean): void;
}

type OutReason = 'finalized' | 'unused';

export class NodePmiServer {
  readonly pmiJobId: string;
  readonly universeSize: number;
  private readonly replica: Map<string, string>;
  private delta = new Map<string, string>();
  private readonly fences: FenceNode;
  private readonly nodeAttrs = new Map<string, string>();
  private readonly attrWaiters = new Map<string, Array<(value: string) => void>>();
  /** Local tasks that can join no further fence. */
  private readonly out = new Set<number>();
  /** Local tasks that initialised PMI, and those with a connection open now. */
  private readonly used = new Set<number>();
  private readonly connected = new Set<number>();
  private ended = false;

  constructor(private readonly options: NodeServerOptions) {
    this.replica = new Map(options.welcome.kvs);
    this.pmiJobId = options.welcome.pmiJobId;
    this.universeSize = options.welcome.universeSize;
    this.fences = new FenceNode({
      children: options.place.children,
      localTasks: options.gtids.length,
      nodeName: (nodeid) => this.nodeName(nodeid),
      ready: (seq, childPuts) => {
        const puts: KvsPair[] = [...this.delta, ...childPuts];
        this.delta = new Map();
        if (options.up) options.up({ kind: 'fence', seq, puts });
        else this.fences.done({ kind: 'fence-done', seq, puts });
      },
      apply: (puts) => {
        for (const [key, value] of puts) this.replica.set(key, value);
      },
      passUp: (why) => options.up?.({ kind: 'out', why }),
      fail: (message) => this.fail(message),
    });
  }

  get ntasks(): number {
    return this.options.ntasks;
  }

  /** The global rank of local task `ltaskid`. */
  rank(ltaskid: number): number {
    return this.options.gtids[ltaskid]!;
  }

  /** The local id of global rank `rank`, if it runs here. */
  localTask(rank: number): number | undefined {
    const ltaskid = this.options.gtids.indexOf(rank);
    return ltaskid === -1 ? undefined : ltaskid;
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
  fence(_ltaskid: number, release: () => void): void {
    this.fences.enter(release);
  }

  /** A completion from the parent. */
  receive(message: PmiDown): void {
    if (message.kind === 'fence-done') this.fences.done(message);
  }

  /** A child node's tree link is up. */
  attachChild(nodeid: number, down: (message: PmiDown) => void): void {
    this.fences.attachChild(nodeid, down);
  }

  fromChild(nodeid: number, message: PmiUp): void {
    this.fences.fromChild(nodeid, message);
  }

  childLost(nodeid: number): void {
    this.fences.childLost(nodeid);
  }

  parentLost(): void {
    const parent = this.options.place.parent;
    this.fences.parentLost(parent === null ? 'tsrun' : this.nodeName(parent));
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

  /**
   * A connection of local task `ltaskid` sent `cmd=init`. Returns why it may not (another
   * connection of the task is open, or it finalized), else undefined.
   */
  taskConnected(ltaskid: number): string | undefined {
    if (this.connected.has(ltaskid)) return 'a second PMI connection while the first is open';
    if (this.out.has(ltaskid)) return 'a PMI connection after finalize';
    this.used.add(ltaskid);
    this.connected.add(ltaskid);
    return undefined;
  }

  /** The task finalized: it joins no more fences. */
  taskFinalized(ltaskid: number): void {
    this.connected.delete(ltaskid);
    this.taskOut(ltaskid, 'finalized');
  }

  /**
   * The task's process ended (or never started). One that never initialised PMI, on any
   * connection, joins no fence: a wrapper may close the task's fd 3 and reach us through
   * PMI_PORT instead, so only its exit says it will not come.
   */
  taskExited(ltaskid: number): void {
    if (!this.used.has(ltaskid)) this.taskOut(ltaskid, 'unused');
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
    this.connected.delete(ltaskid);
    if (this.options.ntasks > 1) this.fail(`task ${this.rank(ltaskid)} closed its PMI connection before finalize`);
  }

  /** A task broke the protocol (a request the server cannot answer). */
  taskFailed(ltaskid: number, message: string): void {
    this.fail(`task ${this.rank(ltaskid)}: ${message}`);
  }

  /** The step ended on this node: forget the waiting tasks. */
  close(): void {
    this.ended = true;
    this.fences.close();
    this.attrWaiters.clear();
  }

  private taskOut(ltaskid: number, reason: OutReason): void {
    if (this.ended || this.out.has(ltaskid)) return;
    this.out.add(ltaskid);
    this.fences.out(`task ${this.rank(ltaskid)} ${reason === 'finalized' ? 'has finalized' : 'ended without using PMI'}`);
  }

  private nodeName(nodeid: number): string {
    return this.options.nodeNames[nodeid] ?? `node ${nodeid}`;
  }

  private fail(message: string): void {
    if (this.ended) return;
    this.ended = true;
    this.fences.close();
    this.options.abortStep(`mpi/pmi2: ${message}`, true);
  }
}
