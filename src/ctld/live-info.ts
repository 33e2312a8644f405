// The controller's answer to "show me the nodes and partitions": the cluster file's nodes and
// partitions (info-snapshot.ts) with each node's live state, reason and allocation.
import type { ClusterInfo } from '../protocol/node-info.js';
import type { Controller } from './controller.js';
import { infoFromConfig } from './info-snapshot.js';
import { reservedNodeFlags } from './reservation-nodes.js';
import { hostFacts } from './host-facts.js';

export function liveClusterInfo(ctl: Controller): ClusterInfo {
  ctl.nodeStates.refresh(ctl.jobs.values());
  const info = infoFromConfig(ctl.options.config);
  const reserved = reservedNodeFlags(ctl, Math.floor(Date.now() / 1000));
  // Without a control.address every node is emulated here; node daemons elsewhere report their own.
  const host = ctl.options.config.control.host === undefined ? hostFacts() : undefined;
  for (const node of info.nodes) {
    const index = ctl.table.indexOf(node.name);
    if (index === undefined) continue;
    const admin = ctl.nodeStates.adminOf(index);
    const usage = ctl.nodeStates.usageOf(index);
    node.nodeState = ctl.nodeStates.stateOf(index) | (reserved[index] ?? 0);
    node.reason = admin.reason;
    node.reasonTime = admin.time;
    node.reasonUid = admin.uid;
    // Jobs that share cores (OverSubscribe) may together hold more than the node has; Slurm
    // counts the CPUs taken at all, so never more than the node's.
    node.allocCpus = Math.min(usage.allocCpus, node.cpus);
    node.allocMemory = usage.allocMemory;
    if (host) node.host = host;
  }
  return info;
}
