// What the parts of a step's PMI tree say to each other (Slurm's mpi/pmi2 tree.c and kvs.c):
// tsrun's KVS coordinator is the root, the node PMI servers are arranged under it by node id
// (tree-shape.ts), and every link is a TCP connection carrying one JSON message per line
// (json-link.ts). Fences go up the tree merged, their completion comes back down it.

/** A key-value pair of the job's KVS. */
export type KvsPair = readonly [key: string, value: string];

/** Child → parent, on a tree link. */
export type PmiUp =
  /**
   * Every task in the sender's subtree entered fence number `seq` (PMI-1 `barrier_in`, PMI-2
   * `kvs-fence`); `puts` is what they put since the previous fence.
   */
  | { kind: 'fence'; seq: number; puts: KvsPair[] }
  /**
   * Something in the sender's subtree can take part in no further fence (`why`: "task 3 has
   * finalized", "lost the PMI link to node4"): a fence that needs it can never complete.
   */
  | { kind: 'out'; why: string };

/** Parent → child, on a tree link. */
export type PmiDown =
  /** Fence `seq` is complete: `puts` is everything every node put for it. */
  { kind: 'fence-done'; seq: number; puts: KvsPair[] };

/**
 * What every node's PMI server starts from, the same on every node and in tsrun's coordinator:
 * all of it follows from the step's ids and layout, so a node makes it itself (slurmstepd has
 * it from srun's environment) and starts its tasks without waiting for tsrun.
 */
export interface PmiWelcome {
  /** The KVS as it stands before any task runs (PMI_process_mapping). */
  kvs: KvsPair[];
  /** PMI_JOBID and the PMI-1 kvsname: `<jobid>.<stepid>`, as Slurm gives them. */
  pmiJobId: string;
  /** MPI_UNIVERSE_SIZE: the step's task count. */
  universeSize: number;
}

/**
 * A node's first message to tsrun. `key` is the step's secret from the environment (strangers
 * are refused); `port`: where the node listens for its own children, if it has any; `parent`:
 * its parent node, or null when tsrun is its parent (this connection is then its tree link).
 */
export interface NodeHello {
  kind: 'hello';
  key: string;
  nodeid: number;
  parent: number | null;
  port: number | null;
}

/**
 * tsrun → a node that said hello and whose parent is another node: where that parent listens
 * (sent once the parent has said hello).
 */
export type CoordinatorReply = { kind: 'parent'; host: string; port: number };

/** A node's first message to its parent node. */
export interface ChildHello {
  kind: 'child';
  key: string;
  nodeid: number;
}
