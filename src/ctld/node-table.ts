// The controller's node table (slurmctld's node_record_table_ptr): one node_record_t per
// configured node, its index its position in the cluster file, plus the name → index map and
// the conversions between node names, hostlist expressions and node bitmaps.
import { Bitstr } from '../core/bitstr.js';
import { UserError } from '../core/errors.js';
import { compressHostlistSorted, expandHostlist } from '../core/hostlist.js';
import type { ClusterConfig } from '../config/types.js';
import type { node_record_t } from '../plugin-api/records.js';
import { nodeRecordFromConfig } from './node-record.js';

export { nodeRecordFromConfig } from './node-record.js';

export const INVALID_NODE_NAME_TEXT = 'Invalid node name specified';

/** The node table with its lookups. Bitmaps it returns are fresh copies the caller owns. */
export class NodeTable {
  /** `nodes[i].index === i`. */
  readonly nodes: readonly node_record_t[];
  private readonly byName: ReadonlyMap<string, number>;
  private readonly partitions: Map<string, Bitstr>;

  constructor(nodes: readonly node_record_t[], partitions: ReadonlyMap<string, readonly string[]> = new Map()) {
    this.nodes = nodes;
    this.byName = new Map(nodes.map((node) => [node.name, node.index]));
    this.partitions = new Map([...partitions].map(([name, members]) => [name, this.bitmapFromNames(members)]));
  }

  /** The table of a normalised cluster: node states from the config, partition bitmaps. */
  static fromConfig(config: ClusterConfig): NodeTable {
    const nodes = config.nodes.map((node, index) => nodeRecordFromConfig(node, index));
    return new NodeTable(nodes, new Map(config.partitions.map((p) => [p.name, p.nodes])));
  }

  get size(): number {
    return this.nodes.length;
  }

  /** Index of a node, or undefined for an unknown name. */
  indexOf(name: string): number | undefined {
    return this.byName.get(name);
  }

  /** A bitmap with no node set, sized for this table. */
  emptyBitmap(): Bitstr {
    return new Bitstr(this.nodes.length);
  }

  /** Every node of the table. */
  allBitmap(): Bitstr {
    const bits = this.emptyBitmap();
    if (this.nodes.length > 0) bits.nset(0, this.nodes.length - 1);
    return bits;
  }

  /**
   * Slurm's node_name2bitmap: the nodes a hostlist expression names (duplicates collapse).
   * An unknown name or a malformed expression → UserError ESLURM_INVALID_NODE_NAME.
   */
  bitmapFromHostlist(expr: string): Bitstr {
    let names: string[];
    try {
      names = expandHostlist(expr);
    } catch (error) {
      throw invalidNodeName(error);
    }
    return this.bitmapFromNames(names);
  }

  /** The nodes named, as a bitmap; an unknown name → UserError ESLURM_INVALID_NODE_NAME. */
  bitmapFromNames(names: Iterable<string>): Bitstr {
    const bits = this.emptyBitmap();
    for (const name of names) {
      const index = this.byName.get(name);
      if (index === undefined) throw invalidNodeName();
      bits.set(index);
    }
    return bits;
  }

  /** Names of the nodes set in `bitmap`, in node-table order. */
  namesFromBitmap(bitmap: Bitstr): string[] {
    const names: string[] = [];
    for (let i = bitmap.nextSet(0); i >= 0 && i < this.nodes.length; i = bitmap.nextSet(i + 1)) {
      names.push(this.nodes[i]!.name);
    }
    return names;
  }

  /** Slurm's bitmap2node_name: the nodes set in `bitmap` as a sorted hostlist (`n[1-3,7]`). */
  hostlistFromBitmap(bitmap: Bitstr): string {
    const names = this.namesFromBitmap(bitmap);
    return names.length === 0 ? '' : compressHostlistSorted(names);
  }

  /** The nodes of a partition, or undefined for an unknown partition. */
  partitionBitmap(name: string): Bitstr | undefined {
    return this.partitions.get(name)?.copy();
  }

  /** A partition's nodes changed (`tscontrol update PartitionName= Nodes=`). */
  setPartitionNodes(name: string, members: readonly string[]): void {
    this.partitions.set(name, this.bitmapFromNames(members));
  }

  /** Every partition anew, in config order (`tscontrol reconfigure`): those not given are gone. */
  setPartitions(partitions: ReadonlyArray<{ name: string; nodes: readonly string[] }>): void {
    this.partitions.clear();
    for (const p of partitions) this.partitions.set(p.name, this.bitmapFromNames(p.nodes));
  }

  /** Names of the partitions this table knows, in config order. */
  partitionNames(): string[] {
    return [...this.partitions.keys()];
  }
}

function invalidNodeName(cause?: unknown): UserError {
  return new UserError(INVALID_NODE_NAME_TEXT, {
    code: 'ESLURM_INVALID_NODE_NAME',
    ...(cause === undefined ? {} : { cause }),
  });
}
