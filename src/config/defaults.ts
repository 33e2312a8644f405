// The cluster used when neither --cluster nor TSLURM_CONF names one. It is fixed (not read
// from this host) so every machine prints the same, and it goes through the same shapes and
// rules as a file — as an object, so the default path never loads the YAML parser.
import { buildClusterConfig } from './build.js';
import { BUILT_IN_SOURCE, type ClusterConfig } from './types.js';

/** The built-in cluster, exactly as it would be written in a cluster file. */
export const DEFAULT_CLUSTER_DESCRIPTION = {
  cluster: 'tslurm',
  nodes: [{ name: 'node[1-4]', sockets: 2, cores: 4, threads: 1, cpus: 8, memory: 8000 }],
  partitions: [{ name: 'debug', nodes: 'ALL', default: true, max_time: 'UNLIMITED' }],
} as const;

let cached: ClusterConfig | undefined;

/** The built-in default cluster (frozen, built once). */
export function defaultCluster(): ClusterConfig {
  cached ??= buildClusterConfig(structuredClone(DEFAULT_CLUSTER_DESCRIPTION), { source: BUILT_IN_SOURCE, baseDir: '/' });
  return cached;
}
