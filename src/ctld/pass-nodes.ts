// The nodes one scheduling pass works with: those usable now, and each partition's nodes
// alone and usable, worked out once per pass rather than once per pending job. The bitmaps
// handed out are shared and must not be changed: select's facade hands plugins copy-on-write
// copies, and the pass copies before narrowing a job's candidates.
import type { Bitstr } from '../plugin-api/records.js';
import type { NodeTable } from './node-table.js';
import { isUsableNodeState } from './node-states.js';

export class PassNodes {
  /** Nodes that can take work now: not DOWN, FUTURE, drained or without a daemon answering. */
  readonly usable: Bitstr;
  private readonly configured = new Map<string, Bitstr>();
  private readonly usableIn = new Map<string, Bitstr>();

  constructor(private readonly table: NodeTable) {
    this.usable = table.emptyBitmap();
    for (const node of table.nodes) {
      if (isUsableNodeState(node.node_state)) this.usable.set(node.index);
    }
  }

  /** The partition's nodes (none for an unknown partition). Shared: read only. */
  partition(name: string): Bitstr {
    let bits = this.configured.get(name);
    if (bits === undefined) this.configured.set(name, (bits = this.table.partitionBitmap(name) ?? this.table.emptyBitmap()));
    return bits;
  }

  /** The partition's nodes that are usable now. Shared: read only. */
  partitionUsable(name: string): Bitstr {
    let bits = this.usableIn.get(name);
    if (bits === undefined) this.usableIn.set(name, (bits = this.partition(name).copy().and(this.usable)));
    return bits;
  }
}
