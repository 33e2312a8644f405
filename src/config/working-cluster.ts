// SLURM_WORKING_CLUSTER, which srun and slurmstepd give tasks and batch scripts (observed on
// Slurm 22.05: `refcluster:127.0.0.1:6817:9728:109`).
import { DEFAULT_CTLD_PORT } from '../client/controller-target.js';
import type { ClusterConfig } from './types.js';

/**
 * SLURM_WORKING_CLUSTER as srun sets it: cluster name, controller host and port, the RPC
 * protocol version srun speaks (22.05's, 9728) and Slurm's id of the select plugin.
 */
export function workingCluster(config: ClusterConfig): string {
  const host = config.control.host ?? '127.0.0.1';
  const port = config.control.port ?? DEFAULT_CTLD_PORT;
  const select = SELECT_PLUGIN_IDS[config.plugins.select.replace(/^select\//, '')] ?? SELECT_PLUGIN_IDS.cons_tres;
  return `${config.clusterName}:${host}:${port}:${SLURM_22_05_PROTOCOL_VERSION}:${select}`;
}

/** Slurm 22.05's SLURM_PROTOCOL_VERSION (((38 + 0) << 8) | 0). */
const SLURM_22_05_PROTOCOL_VERSION = 9728;

/** Slurm's select_plugin_type ids (slurm.h); tslurm's cray_aries wraps cons_tres. */
const SELECT_PLUGIN_IDS: Readonly<Record<string, number>> = { cons_res: 101, linear: 102, cray_aries: 110, cons_tres: 109 };
