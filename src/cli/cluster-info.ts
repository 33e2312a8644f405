// Where the viewing commands (tsinfo, tscontrol show) get nodes and partitions from: the one
// place that changes when the controller daemon answers instead of the cluster file.
import type { ClusterConfig } from '../config/types.js';
import type { ClusterInfo } from '../protocol/node-info.js';

export async function loadClusterInfo(file: string | undefined): Promise<{ config: ClusterConfig; info: ClusterInfo }> {
  const { loadCluster } = await import('../config/load.js');
  const { infoFromConfig } = await import('../ctld/info-snapshot.js');
  const config = await loadCluster({ file });
  return { config, info: infoFromConfig(config) };
}
