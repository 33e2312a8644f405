// The step's KVS coordinator, in tsrun: the root of Slurm's mpi/pmi2 tree (srun's side of
// src/plugins/mpi/pmi2/tree.c). It holds the job's KVS; a fence completes once each of its
// children (the first nodes of the tree) has sent up the merged puts of its subtree, and the
// merged set goes back down. coordinator-listener.ts connects it to the nodes.
import { FenceNode } from './fence-node.js';
import type { KvsPair, PmiDown, PmiUp } from './messages.js';
import { treePlace } from './tree-shape.js';

export interface CoordinatorOptions {
  /** `<jobid>.<stepid>`. */
  pmiJobId: string;
  /** Tasks on each node, by node id; nodes without tasks take no part in fences. */
  tasksPerNode: readonly number[];
  /** Node names by node id, for messages. */
  nodeNames: readonly string[];
  /** The tree's width (tree-shape.ts). */
  width: number;
  /** The KVS before any task runs. */
  kvs: readonly KvsPair[];
  /** Ends the step with an error, saying why (a fence that can never complete). */
  fail(message: string): void;
}

export class KvsCoordinator {
  private readonly kvs: Map<string, string>;
  private readonly fences: FenceNode;
  /** The nodes whose parent is tsrun. */
  readonly children: readonly number[];

  constructor(private readonly options: CoordinatorOptions) {
    this.kvs = new Map(options.kvs);
    this.children = treePlace(options.tasksPerNode, null, options.width).children;
    this.fences = new FenceNode({
      children: this.children,
      localTasks: 0,
      nodeName: (nodeid) => options.nodeNames[nodeid] ?? `node ${nodeid}`,
      ready: (seq, puts) => this.fences.done({ kind: 'fence-done', seq, puts }),
      apply: (puts) => {
        for (const [key, value] of puts) this.kvs.set(key, value);
      },
      passUp: () => {},
      fail: options.fail,
    });
  }

  /** One of tsrun's children joined; `down` delivers fence completions to it. */
  attach(nodeid: number, down: (message: PmiDown) => void): void {
    this.fences.attachChild(nodeid, down);
  }

  /** A message from one of tsrun's children. */
  receive(nodeid: number, message: PmiUp): void {
    this.fences.fromChild(nodeid, message);
  }

  /** A child's link closed. */
  lost(nodeid: number): void {
    this.fences.childLost(nodeid);
  }

  /** The KVS as it stands (everything put before the last completed fence). */
  snapshot(): KvsPair[] {
    return [...this.kvs];
  }

  close(): void {
    this.fences.close();
  }
}
