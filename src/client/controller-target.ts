// Where a command finds the controller: with `control.address` in the cluster file, tsctld on
// that host and port over TCP (messages sealed by the cluster's auth plugin; no controller is
// ever started on demand); otherwise the Unix socket in the state directory.
import type { ClusterConfig } from '../config/types.js';
import { createLogger } from '../core/log.js';
import type { MessageAuth } from '../net/message-auth.js';

/** Slurm's default SlurmctldPort. */
export const DEFAULT_CTLD_PORT = 6817;

export interface RemoteController {
  endpoint: { host: string; port: number };
  auth: MessageAuth;
}

/** The TCP controller of `config`, or undefined when it names none (embedded mode). */
export async function remoteController(config: ClusterConfig): Promise<RemoteController | undefined> {
  const host = config.control.host;
  if (host === undefined) return undefined;
  const [{ createPluginRegistry }, { loadMessageAuth }] = await Promise.all([
    import('../plugin-host/create.js'),
    import('../net/load-auth.js'),
  ]);
  const log = createLogger('tslurm');
  const registry = createPluginRegistry(config, log);
  return { endpoint: { host, port: config.control.port ?? DEFAULT_CTLD_PORT }, auth: await loadMessageAuth(registry, config.auth.type, log) };
}
