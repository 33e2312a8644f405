// One configured node as the controller and plugins see it (slurmctld's node_record_t).
import type { NodeConfig } from '../config/types.js';
import {
  NODE_STATE_DOWN,
  NODE_STATE_DRAIN,
  NODE_STATE_FUTURE,
  NODE_STATE_IDLE,
  type node_record_t,
} from '../plugin-api/records.js';

/**
 * The record of node `index`. Its state is the configured one: DOWN, IDLE+DRAIN, FUTURE, or
 * IDLE (UNKNOWN included: an embedded cluster's nodes are up as soon as they are configured).
 */
export function nodeRecordFromConfig(node: NodeConfig, index: number): node_record_t {
  return {
    name: node.name,
    index,
    cpus: node.cpus,
    tot_sockets: node.sockets,
    cores: node.coresPerSocket,
    threads: node.threadsPerCore,
    real_memory: node.realMemory,
    gres_list: node.gres.map((g) => ({ name: g.name, ...(g.type !== undefined && { type: g.type }), count: g.count })),
    features: [...node.features],
    weight: node.weight,
    tmp_disk: node.tmpDisk ?? 0,
    node_state: stateOf(node.state),
    node_addr: addressOf(node),
  };
}

function stateOf(state: NodeConfig['state']): number {
  switch (state) {
    case 'DOWN':
      return NODE_STATE_DOWN;
    case 'DRAIN':
      return NODE_STATE_IDLE | NODE_STATE_DRAIN;
    case 'FUTURE':
      return NODE_STATE_FUTURE;
    default:
      return NODE_STATE_IDLE;
  }
}

// host or host:port, an IPv6 host in brackets when a port follows.
function addressOf(node: NodeConfig): string | null {
  if (node.addr === undefined) return null;
  if (node.port === undefined) return node.addr;
  return `${node.addr.includes(':') ? `[${node.addr}]` : node.addr}:${node.port}`;
}
