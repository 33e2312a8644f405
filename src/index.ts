// The library entry (`import ... from 'tslurm'`): the core pieces commands and plugins share.
export { TOOLKIT_VERSION } from './os/version.js';
export { UserError, UserErrorList, PluginError } from './core/errors.js';
export { slurm_strerror, errnoValue, errnoName, type ErrnoName } from './core/errno.js';
export {
  expandHostlist,
  compressHostlist,
  compressHostlistSorted,
  compressHostlistUnique,
  rangedHostlist,
  rangedHostlistSorted,
  HostlistError,
  HOSTLIST_LIMITS,
} from './core/hostlist.js';
export { Bitstr, BITSTR_MAX_BITS } from './core/bitstr.js';
export { Buf, BufUnpackError } from './core/buf.js';
export * from './core/env-array.js';
export { parseTimeToMinutes, parseTimeToSeconds, formatSlurmTime, secsToTimeStr, minsToTimeStr, formatSlurmDate } from './core/time-string.js';
export { parseMemoryMB, formatMemSuffix, formatMemoryMB } from './core/memory-size.js';
export { compressCounts, expandCounts } from './core/tasks-per-node.js';
export { INFINITE, NO_VAL } from './core/slurm-constants.js';
export { loadCluster } from './config/load.js';
export { parseClusterYaml } from './config/parse.js';
export type { ClusterConfig, NodeConfig, PartitionConfig } from './config/types.js';
