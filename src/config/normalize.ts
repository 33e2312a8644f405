// Builds the ClusterConfig from a Draft that passed every rule: slurm.conf's defaults filled
// in, node entries expanded to one record per node, partitions resolved to node names, and
// paths made absolute against the YAML file's directory.
import { resolve } from 'node:path';
import { INFINITE, NO_VAL } from '../core/slurm-constants.js';
import { DEFAULT_PLUGINS } from './plugin-names.js';
import { proctrackChoice } from './default-proctrack.js';
import { ALL_NODES, type NodeEntry, type PartitionEntry, type TopEntry } from './schema.js';
import type { Draft } from './shapes.js';
import { topologyOf } from './topology.js';
import type { ClusterConfig, NodeConfig, PartitionConfig, PreemptMode } from './types.js';

export interface Origin {
  /** Absolute path of the file, or '<built-in default>'. */
  source: string;
  /** Where relative paths in the file point from. */
  baseDir: string;
}

/** The normalised cluster (not yet frozen); only for a draft that raised no issues. */
export function normalize(draft: Draft, origin: Origin): ClusterConfig {
  // No issues means every entry parsed whole, so the partial types are complete.
  const top = draft.top as TopEntry;
  const nodes = draft.nodes.flatMap(({ entry }) => expandNodes(entry as NodeEntry));
  const order = new Map(nodes.map((n, i) => [n.name, i]));
  const preempt = {
    type: top.preempt?.type ?? 'preempt/none',
    mode: top.preempt?.mode ?? 'OFF',
  } as const;
  const partitions = draft.partitions.map(({ entry }) => partition(entry as PartitionEntry, nodes, order, preempt.mode));
  // No partition says `default: true`: the first one is the default. (Slurm would have no
  // default partition, and reject jobs that do not name one.)
  const first = partitions[0];
  if (first && !partitions.some((p) => p.isDefault)) first.isDefault = true;
  const authType = top.auth?.type ?? top.plugins?.auth ?? DEFAULT_PLUGINS.auth;
  const control = top.control ?? {};
  const path = (p: string) => resolve(origin.baseDir, p);
  const keyFile = top.auth?.key_file === undefined ? undefined : path(top.auth.key_file);
  return {
    clusterName: top.cluster,
    source: origin.source,
    control: {
      ...(control.address && { address: hostPort(control.address), host: control.address.host }),
      ...(control.address?.port !== undefined && { port: control.address.port }),
      ...(control.state_dir !== undefined && { stateDir: path(control.state_dir) }),
      ...(control.slurmd_timeout !== undefined && { slurmdTimeout: control.slurmd_timeout }),
      ...(control.tree_width !== undefined && { treeWidth: control.tree_width }),
    },
    auth: { type: authType, ...(keyFile !== undefined && { keyFile }) },
    plugins: {
      select: top.plugins?.select ?? DEFAULT_PLUGINS.select,
      mpiDefault: top.plugins?.mpi_default ?? DEFAULT_PLUGINS.mpiDefault,
      jobContainer: top.plugins?.job_container ?? DEFAULT_PLUGINS.jobContainer,
      ...proctrackChoice(top.plugins?.proctrack),
      sched: top.plugins?.sched ?? DEFAULT_PLUGINS.sched,
      auth: authType,
      pluginDirs: (top.plugins?.plugin_dirs ?? []).map(path),
    },
    nodes,
    partitions,
    preempt,
    ...(top.accounting?.purge_after !== undefined && { accounting: { purgeAfter: top.accounting.purge_after } }),
    options: pluginOptions(top, authType, keyFile),
    ...(top.plugins?.jobcomp !== undefined && { jobcomp: { type: top.plugins.jobcomp, ...(top.plugins.jobcomp_loc !== undefined && { loc: path(top.plugins.jobcomp_loc) }) } }),
    ...(top.acct_gather_frequency !== undefined && { acctGatherFrequency: top.acct_gather_frequency }),
    // An empty value is none, as Slurm reads `TaskProlog=`.
    ...(top.task_prolog && { taskProlog: top.task_prolog }),
    ...(top.task_epilog && { taskEpilog: top.task_epilog }),
  };
}

// auth.key_file reaches the auth plugin as its `key_file` option (host.options), the way every
// plugin gets its settings; the file's own block for that plugin may add others (ttl).
function pluginOptions(top: TopEntry, authType: string, keyFile: string | undefined): Record<string, unknown> {
  const options: Record<string, unknown> = { ...top.options };
  if (keyFile === undefined) return options;
  const block = authType.replace('/', '_');
  options[block] = { ...(options[block] as Record<string, unknown> | undefined), key_file: keyFile };
  return options;
}

function expandNodes(entry: NodeEntry): NodeConfig[] {
  const layout = topologyOf(entry);
  // Shared by the entry's nodes; safe because the whole config is frozen.
  const gres = entry.gres ?? [];
  const features = entry.features ?? [];
  const address = entry.address;
  return entry.name.map((name, i) => ({
    name,
    ...(address && { addr: address.host }),
    ...(address?.port !== undefined && { port: address.port + i }),
    ...layout,
    realMemory: entry.memory ?? 1, // slurm.conf RealMemory default
    gres,
    features,
    weight: entry.weight ?? 1,
    ...(entry.tmp_disk !== undefined && { tmpDisk: entry.tmp_disk }),
    state: entry.state ?? 'UNKNOWN',
    ...(entry.reason !== undefined && { reason: entry.reason }),
  }));
}

function partition(entry: PartitionEntry, nodes: NodeConfig[], order: Map<string, number>, preemptMode: PreemptMode): PartitionConfig {
  const exprs = entry.nodes ?? [];
  let names: string[];
  if (exprs.includes(ALL_NODES)) names = nodes.map((n) => n.name);
  else {
    // Slurm holds a partition's nodes as a bitmap, so they come out in node-table order.
    const indices = new Set(exprs.flatMap((e) => (e === ALL_NODES ? [] : e.map((n) => order.get(n)!))));
    names = [...indices].sort((a, b) => a - b).map((i) => nodes[i]!.name);
  }
  return {
    name: entry.name,
    nodes: names,
    isDefault: entry.default ?? false,
    maxTime: entry.max_time ?? INFINITE,
    defaultTime: entry.default_time ?? NO_VAL,
    maxNodes: entry.max_nodes ?? INFINITE,
    minNodes: entry.min_nodes ?? 0,
    state: entry.state ?? 'UP',
    oversubscribe: entry.oversubscribe?.oversubscribe ?? 'NO',
    shareCount: entry.oversubscribe?.shareCount ?? 1,
    priorityTier: entry.priority_tier ?? 1,
    preemptMode: entry.preempt_mode ?? preemptMode,
  };
}

function hostPort(a: { host: string; port?: number }): string {
  const host = a.host.includes(':') ? `[${a.host}]` : a.host;
  return a.port === undefined ? host : `${host}:${a.port}`;
}
