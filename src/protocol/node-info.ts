// What a client gets when it asks the controller for its nodes and partitions (Slurm's
// node_info_msg_t and partition_info_msg_t, trimmed to what tslurm knows). tsinfo and
// `tscontrol show node|partition` format only these; today the embedded controller builds
// them from the cluster file (ctld/info-snapshot.ts), later the tsctld answers with them.

/** One node as clients see it (Slurm's node_info_t). */
export interface NodeInfo {
  name: string;
  /** NodeHostname; Slurm's default is the node name. */
  hostname: string;
  /** NodeAddr; Slurm's default is the host name. */
  address: string;
  /** Where its tsstepd listens, when the cluster file gives a port. */
  port: number | null;
  cpus: number;
  boards: number;
  sockets: number;
  /** Cores per socket. */
  cores: number;
  /** Threads per core. */
  threads: number;
  /** MB. */
  realMemory: number;
  /** MB (TmpDisk; slurm.conf's default 0). */
  tmpDisk: number;
  weight: number;
  /** Comma-joined, or null when none (printed `(null)` as Slurm does). */
  features: string | null;
  /** Slurm's Gres= string (`gpu:4`, `gpu:a100:8,nvme:2`), or null. */
  gres: string | null;
  /** Base state (NODE_STATE_*) or-ed with flags. */
  nodeState: number;
  reason: string | null;
  /** Unix seconds the reason was set; 0 when unknown (a reason from the cluster file). */
  reasonTime: number;
  /** Who set the reason; NO_VAL when unknown. */
  reasonUid: number;
  /** CPUs and MB allocated to jobs now. */
  allocCpus: number;
  allocMemory: number;
  /** Partitions holding the node, in partition order. */
  partitions: string[];
  /** Version of the node daemon, or null while unknown. */
  version: string | null;
  /** What a registered slurmd reports of its host; absent while no node daemon told (no controller runs). */
  host?: NodeHostFacts;
}

/** A node's host as slurmd reports it: `uname -m`, `uname -srv`, load, free memory, boot times. */
export interface NodeHostFacts {
  arch: string;
  os: string;
  /** The 1-minute load average. */
  cpuLoad: number;
  /** MB. */
  freeMem: number;
  /** Unix seconds. */
  bootTime: number;
  slurmdStartTime: number;
}

/** One partition as clients see it (Slurm's partition_info_t). */
export interface PartitionInfo {
  name: string;
  /** Member node names in node-table order. */
  nodes: string[];
  isDefault: boolean;
  state: 'UP' | 'DOWN' | 'DRAIN' | 'INACTIVE';
  /** Minutes; INFINITE when unlimited. */
  maxTime: number;
  /** Minutes; NO_VAL when not set. */
  defaultTime: number;
  /** INFINITE when unlimited. */
  maxNodes: number;
  minNodes: number;
  oversubscribe: 'NO' | 'YES' | 'FORCE' | 'EXCLUSIVE';
  /** Jobs per core under YES or FORCE; absent from older answers (read as 4). */
  shareCount?: number;
  /** PriorityTier; absent from older answers (read as 1). */
  priorityTier?: number;
  /** PreemptMode (OFF, CANCEL, REQUEUE, SUSPEND); absent from older answers (read as OFF). */
  preemptMode?: string;
  totalCpus: number;
  totalNodes: number;
  /** MB over all member nodes (the mem= of its TRES). */
  totalMemory: number;
}

/** One answer: every node (FUTURE ones included) and partition, in table order. */
export interface ClusterInfo {
  clusterName: string;
  nodes: NodeInfo[];
  partitions: PartitionInfo[];
}
