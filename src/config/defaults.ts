// The cluster used when neither --cluster nor TSLURM_CONF names one. It is fixed (not read
// from this host) so every machine prints the same, and it goes through the same parser
// and rules as a file.
import { parseClusterText } from './parse.js';
import { BUILT_IN_SOURCE, type ClusterConfig } from './types.js';

export const DEFAULT_CLUSTER_YAML = `\
cluster: tslurm
nodes:
  - name: node[1-4]
    sockets: 2
    cores: 4
    threads: 1
    cpus: 8
    memory: 8000
partitions:
  - name: debug
    nodes: ALL
    default: true
    max_time: UNLIMITED
`;

let cached: ClusterConfig | undefined;

/** The built-in default cluster (frozen, built once). */
export function defaultCluster(): ClusterConfig {
  cached ??= parseClusterText(DEFAULT_CLUSTER_YAML, BUILT_IN_SOURCE, { source: BUILT_IN_SOURCE, baseDir: '/' });
  return cached;
}
