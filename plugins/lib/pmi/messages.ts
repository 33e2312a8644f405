// What a node's PMI server and the step's KVS coordinator (in tsrun) say to each other: the
// two halves of Slurm's mpi/pmi2 tree (src/plugins/mpi/pmi2/tree.c, kvs.c), with tsrun as the
// root and every node its direct child (a star; Slurm's tree_width is a later refinement).
//
// Every message is plain JSON-able data. In embedded mode the step daemons run inside tsrun and
// the messages go through an in-process channel (channel.ts); in daemon mode (tsstepd, a
// later issue) the same messages travel over the step daemon's connection to tsrun: only the
// transport changes.

/** A key-value pair of the job's KVS. */
export type KvsPair = readonly [key: string, value: string];

/** Node → coordinator. */
export type PmiUp =
  /**
   * Every local task of `nodeid` entered fence number `seq` (PMI-1 `barrier_in`, PMI-2
   * `kvs-fence`); `puts` is what they put since the previous fence.
   */
  | { kind: 'fence'; nodeid: number; seq: number; puts: KvsPair[] }
  /**
   * A local task (`rank`) can take part in no further fence: it finalized, or it closed its
   * PMI connection without ever using it. A fence that needs it can never complete.
   */
  | { kind: 'out'; nodeid: number; rank: number; reason: 'finalized' | 'unused' };

/** Coordinator → node. */
export type PmiDown =
  /** Fence `seq` is complete: `puts` is everything every node put for it. */
  { kind: 'fence-done'; seq: number; puts: KvsPair[] };

/** What a node learns when it attaches (in daemon mode: part of the launch request). */
export interface PmiWelcome {
  /** The KVS as it stands before any task runs (PMI_process_mapping). */
  kvs: KvsPair[];
  /** PMI_JOBID and the PMI-1 kvsname: `<jobid>.<stepid>`, as Slurm gives them. */
  pmiJobId: string;
  /** MPI_UNIVERSE_SIZE: the step's task count. */
  universeSize: number;
}
