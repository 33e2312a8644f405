// The normalised cluster: what every part of tslurm reads once the YAML has been checked.
// Units are Slurm's (MB, minutes); "unlimited" is INFINITE and "not set" NO_VAL, as in
// slurm.conf. Produced only by the normaliser, and deep-frozen at run time (the types stay
// mutable so callers can build test configs by hand).
import type { PurgeAfter } from './purge-after.js';

/** One generic resource of a node: `gpu:2` → { name: 'gpu', count: 2 }. */
export interface GresSpec {
  name: string;
  type?: string;
  count: number;
}

export type NodeState = 'UNKNOWN' | 'IDLE' | 'DOWN' | 'DRAIN' | 'FUTURE';

export interface NodeConfig {
  name: string;
  /** Where its tsstepd listens (daemon mode), from `address: host[:port]`. */
  addr?: string;
  /** The entry's port plus this node's index within the entry (consecutive ports). */
  port?: number;
  cpus: number;
  sockets: number;
  coresPerSocket: number;
  threadsPerCore: number;
  /** MB (slurm.conf RealMemory). */
  realMemory: number;
  gres: GresSpec[];
  features: string[];
  weight: number;
  state: NodeState;
  reason?: string;
  /** slurm.conf Boards (1 when not given). */
  boards?: number;
  /** slurm.conf TmpDisk in MB (0 when not given). */
  tmpDisk?: number;
  /**
   * slurm.conf NodeHostname, NodeAddr and Port: shown by scontrol and sinfo as Slurm shows
   * them. tslurm runs a slurm.conf cluster on this host and never dials them (`addr`/`port`
   * are where a YAML cluster's tsstepd listens).
   */
  hostname?: string;
  nodeAddr?: string;
  slurmdPort?: number;
}

export type PartitionState = 'UP' | 'DOWN' | 'DRAIN' | 'INACTIVE';
export type OverSubscribe = 'NO' | 'YES' | 'FORCE' | 'EXCLUSIVE';

export interface PartitionConfig {
  name: string;
  /** Node names in cluster (file) order, each once, as Slurm's partition bitmap orders them. */
  nodes: string[];
  /** At most one is true; with none marked in the file, the first partition is. */
  isDefault: boolean;
  /** Minutes; INFINITE when UNLIMITED. */
  maxTime: number;
  /** Minutes; NO_VAL when not set (MaxTime applies). */
  defaultTime: number;
  /** INFINITE when unlimited. */
  maxNodes: number;
  /** Slurm 22.05's default is 0 (`scontrol show partition` prints MinNodes=0). */
  minNodes: number;
  state: PartitionState;
  oversubscribe: OverSubscribe;
  /** Jobs that may hold one core under YES or FORCE (`FORCE:8`; 4 when not given); 1 otherwise. */
  shareCount: number;
  /** slurm.conf PriorityTier (default 1): jobs of a higher tier may preempt jobs of a lower one. */
  priorityTier: number;
  /** slurm.conf partition PreemptMode: how its jobs are preempted; the cluster's mode when not set. */
  preemptMode: PreemptMode;
}

/** What happens to a preempted job (slurm.conf PreemptMode; GANG is not implemented). */
export type PreemptMode = 'OFF' | 'CANCEL' | 'REQUEUE' | 'SUSPEND';

/** slurm.conf PreemptType and the cluster-wide PreemptMode. */
export interface PreemptConfig {
  /** `preempt/partition_prio`, or `preempt/none` (no preemption). */
  type: 'preempt/partition_prio' | 'preempt/none';
  mode: PreemptMode;
}

/** Active plugin of each type, as `major/minor`. */
export interface PluginChoices {
  select: string;
  mpiDefault: string;
  jobContainer: string;
  proctrack: string;
  /** Set when `proctrack` is the default the host allowed: the plugin to load if it cannot. */
  proctrackFallback?: string;
  sched: string;
  auth: string;
  /** Absolute; relative entries are resolved against the YAML file's directory. */
  pluginDirs: string[];
}

export interface ClusterConfig {
  clusterName: string;
  /** Absolute file path, or '<built-in default>'. */
  source: string;
  /** `address` as `host[:port]` (IPv6 hosts in brackets), also split into host and port. */
  control: {
    address?: string;
    host?: string;
    port?: number;
    stateDir?: string;
    /** Seconds (Slurm's SlurmdTimeout); see DEFAULT_SLURMD_TIMEOUT. */
    slurmdTimeout?: number;
    /** Slurm's TreeWidth; see DEFAULT_TREE_WIDTH. */
    treeWidth?: number;
  };
  /** `keyFile` is absolute (resolved against the YAML file's directory). */
  auth: { type: string; keyFile?: string };
  plugins: PluginChoices;
  /** Expanded: one entry per node, in file order. */
  nodes: NodeConfig[];
  partitions: PartitionConfig[];
  preempt: PreemptConfig;
  /** The accounting store: records of jobs ended longer ago than `purgeAfter` are removed. */
  accounting?: { purgeAfter?: PurgeAfter };
  /** Per-plugin option blocks (`job_container_tmpfs: {base_path: ...}`), kept raw. */
  options: Record<string, unknown>;
  /** The job completion plugin (JobCompType, default jobcomp/none) and its JobCompLoc. */
  jobcomp?: { type: string; loc?: string };
  /** Seconds between samples of the tasks' use (JobAcctGatherFrequency); see config/acct-gather.ts. */
  acctGatherFrequency?: number;
  /** slurm.conf's TaskProlog and TaskEpilog (config/task-scripts.ts). */
  taskProlog?: string;
  taskEpilog?: string;
  /** Present when the cluster was read from a slurm.conf. */
  slurmConf?: SlurmConfFacts;
}

/** What a slurm.conf said beyond the cluster model: shown by `scontrol show config`. */
export interface SlurmConfFacts {
  /** Every top-level key the file set, in Slurm's spelling, with the value as written. */
  settings: Record<string, string>;
  /** SlurmctldHost lines (`host(addr)`), the primary first: shown, not dialled. */
  controllers?: string[];
  /** Every file read: slurm.conf, its includes, gres.conf, job_container.conf. */
  files: string[];
  /** gres.conf lines, kept (device files are not used). */
  gres?: Array<{ name: string; type?: string; count?: number; file?: string; nodes?: string }>;
}

/** Slurm 22.05's SlurmdTimeout and TreeWidth defaults. */
export const DEFAULT_SLURMD_TIMEOUT = 300;
export const DEFAULT_TREE_WIDTH = 50;

export const BUILT_IN_SOURCE = '<built-in default>';
