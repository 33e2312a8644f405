// Where the viewing commands (tsinfo, tscontrol show node|partition) get nodes and partitions
// from: the running controller, which knows the jobs' allocations and the nodes' drain and
// down states; with none running, the cluster file (quickly, and without starting one).
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { ClusterConfig } from '../config/types.js';
import type { ClusterInfo } from '../protocol/node-info.js';

/**
 * `loadCall`: how the command names its load call when the controller cannot be reached
 * (sinfo's `slurm_load_partitions:`, scontrol's `slurm_load_node error:`); that is an error,
 * while no controller on the state directory means the cluster file answers.
 */
export async function loadClusterInfo(file: string | undefined, loadCall = 'slurm_load_partitions:'): Promise<{ config: ClusterConfig; info: ClusterInfo }> {
  const { loadCluster } = await import('../config/load.js');
  const config = await loadCluster({ file });
  const { resolveStateDir } = await import('../config/state-dir.js');
  const stateDir = resolveStateDir(config);
  const live = await fromController(stateDir, config, loadCall);
  if (live) return { config, info: live };
  const { infoFromConfig } = await import('../ctld/info-snapshot.js');
  // Partition changes (tscontrol update PartitionName=) made before the controller stopped hold.
  const ctldDir = path.join(stateDir, 'ctld');
  let shown = config;
  if (existsSync(ctldDir)) {
    const { partStateFile, readPartState, withStoredPartitions } = await import('../ctld/state/part-state.js');
    shown = withStoredPartitions(config, readPartState(partStateFile(ctldDir), () => {}));
  }
  const info = infoFromConfig(shown);
  // A drain or down set before the controller stopped still holds.
  if (existsSync(ctldDir)) {
    const { readSavedNodes } = await import('../ctld/state/saved-nodes.js');
    const saved = readSavedNodes(stateDir);
    for (const node of info.nodes) {
      const s = saved.get(node.name);
      if (s === undefined) continue;
      Object.assign(node, { nodeState: s.state, reason: s.reason, reasonTime: s.time ?? 0, reasonUid: s.uid ?? node.reasonUid });
    }
  }
  return { config, info };
}

async function fromController(stateDir: string, config: ClusterConfig, loadCall: string): Promise<ClusterInfo | undefined> {
  if (config.control.host === undefined && !existsSync(path.join(stateDir, 'tsctld.sock'))) return undefined;
  const { connectController } = await import('../client/ctld-client.js');
  const { cannotLoad, noLocalController } = await import('../client/controller-absent.js');
  let client;
  try {
    client = await connectController({ config, stateDir, clusterFile: undefined, autostart: false });
  } catch (error) {
    if (noLocalController(config, error)) return undefined; // a socket left by a controller that is gone
    throw cannotLoad(loadCall, error);
  }
  try {
    // An older controller that does not know the request: the cluster file it is.
    return await client.call<ClusterInfo>('cluster_info').catch(() => undefined);
  } finally {
    client.close();
  }
}
