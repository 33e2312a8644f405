// A node's place in the step's fence tree for mpi/pmix (lib/pmi/fence-node.ts): the node's
// PMIx helper is its one local participant, its fence contribution is one opaque blob keyed by
// node id, and a completed fence hands the helper every node's blob in node order (libpmix
// unpacks the concatenation).
import { FenceNode } from '../pmi/fence-node.js';
import type { KvsPair, PmiDown, PmiUp } from '../pmi/messages.js';
import type { TreeMember } from '../pmi/node-links.js';
import type { TreePlace } from '../pmi/tree-shape.js';

export interface PmixFenceOptions {
  nodeid: number;
  place: TreePlace;
  nodeNames: readonly string[];
  up(message: PmiUp): void;
  /** Fence `seq` (the helper's number) completed with these blobs. */
  fenceDone(seq: number, blobsHex: string[]): void;
  fail(message: string): void;
}

export class PmixFenceMember implements TreeMember {
  private readonly fences: FenceNode;
  private readonly nodeid: number;
  private blob: KvsPair[] = [];
  private helperSeq = 0;
  private readonly parentName: string;

  constructor(options: PmixFenceOptions) {
    this.nodeid = options.nodeid;
    const { parent } = options.place;
    this.parentName = parent === null ? 'tsrun' : (options.nodeNames[parent] ?? `node ${parent}`);
    this.fences = new FenceNode({
      children: options.place.children,
      localTasks: 1,
      nodeName: (nodeid) => options.nodeNames[nodeid] ?? `node ${nodeid}`,
      ready: (seq, childPuts) => options.up({ kind: 'fence', seq, puts: [...this.blob, ...childPuts] }),
      apply: (puts) => {
        const inNodeOrder = [...puts].sort((a, b) => Number(a[0]) - Number(b[0]));
        options.fenceDone(this.helperSeq, inNodeOrder.map(([, hex]) => hex));
      },
      passUp: (why) => options.up({ kind: 'out', why }),
      fail: options.fail,
    });
  }

  /** The helper's clients all entered fence `seq`; `hex` is this node's blob. */
  fence(seq: number, hex: string): void {
    this.helperSeq = seq;
    this.blob = [[String(this.nodeid), hex]];
    this.fences.enter(() => {});
  }

  /** A client finalized: no fence can complete without it. */
  finalized(rank: number): void {
    this.fences.out(`task ${rank} has finalized`);
  }

  receive(message: PmiDown): void {
    this.fences.done(message);
  }

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
    this.fences.parentLost(this.parentName);
  }

  close(): void {
    this.fences.close();
  }
}
