// The embedded controller's answer to "show me the nodes and partitions": every node in its
// configured state (no jobs run between commands yet, so nothing is allocated), built from
// the cluster file. When tsctld keeps live records it answers with the same ClusterInfo.
import type { ClusterConfig, GresSpec, NodeConfig } from '../config/types.js';
import { NO_VAL } from '../core/slurm-constants.js';
import { TOOLKIT_VERSION } from '../os/version.js';
import type { ClusterInfo, NodeInfo, PartitionInfo } from '../protocol/node-info.js';
import { nodeRecordFromConfig } from './node-record.js';

export function infoFromConfig(config: ClusterConfig): ClusterInfo {
  const memberOf = new Map<string, string[]>();
  for (const part of config.partitions) {
    for (const name of part.nodes) memberOf.set(name, [...(memberOf.get(name) ?? []), part.name]);
  }
  const nodes = config.nodes.map((node, index) => nodeInfo(node, index, memberOf.get(node.name) ?? []));
  const byName = new Map(nodes.map((n) => [n.name, n]));
  const partitions = config.partitions.map((part): PartitionInfo => {
    const members = part.nodes.map((name) => byName.get(name)).filter((n): n is NodeInfo => n !== undefined);
    return {
      name: part.name,
      nodes: members.map((n) => n.name),
      isDefault: part.isDefault,
      state: part.state,
      maxTime: part.maxTime,
      defaultTime: part.defaultTime,
      maxNodes: part.maxNodes,
      minNodes: part.minNodes,
      oversubscribe: part.oversubscribe,
      shareCount: part.shareCount,
      priorityTier: part.priorityTier,
      // scontrol prints the partition's mode only under a preempt plugin (OFF under preempt/none).
      preemptMode: config.preempt.type === 'preempt/none' ? 'OFF' : part.preemptMode,
      totalCpus: members.reduce((sum, n) => sum + n.cpus, 0),
      totalNodes: members.length,
      totalMemory: members.reduce((sum, n) => sum + n.realMemory, 0),
    };
  });
  return { clusterName: config.clusterName, nodes, partitions };
}

function nodeInfo(node: NodeConfig, index: number, partitions: string[]): NodeInfo {
  const record = nodeRecordFromConfig(node, index);
  return {
    name: node.name,
    // Slurm's defaults: NodeHostname is the name, NodeAddr the hostname.
    hostname: node.hostname ?? node.name,
    address: node.addr ?? node.nodeAddr ?? node.hostname ?? node.name,
    port: node.port ?? node.slurmdPort ?? null,
    cpus: node.cpus,
    boards: node.boards ?? 1,
    sockets: node.sockets,
    cores: node.coresPerSocket,
    threads: node.threadsPerCore,
    realMemory: node.realMemory,
    tmpDisk: node.tmpDisk ?? 0,
    weight: node.weight,
    features: node.features.length > 0 ? node.features.join(',') : null,
    gres: node.gres.length > 0 ? node.gres.map(gresText).join(',') : null,
    nodeState: record.node_state,
    reason: node.reason ?? null,
    // A reason written in the cluster file has no author or time, as one in slurm.conf.
    reasonTime: 0,
    reasonUid: NO_VAL,
    allocCpus: 0,
    allocMemory: 0,
    partitions,
    // Every node runs this toolkit's step daemon.
    version: TOOLKIT_VERSION,
  };
}

function gresText(g: GresSpec): string {
  return g.type === undefined ? `${g.name}:${g.count}` : `${g.name}:${g.type}:${g.count}`;
}
