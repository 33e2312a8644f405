// One request of tscontrol's to the controller, its refusal in scontrol's words. With no
// controller running there are no jobs, so a job request fails as Slurm's would for an
// unknown job; a node update starts the controller, which keeps the nodes' states.
import { UserError } from '../../core/errors.js';
import { slurm_strerror, type ErrnoName } from '../../core/errno.js';
import { loadCluster } from '../../config/load.js';
import { resolveStateDir } from '../../config/state-dir.js';
import { connectController, type CallArgs, type CtldClient } from '../../client/ctld-client.js';
import type { CtldBody, CtldOp } from '../../protocol/ctld-messages.js';
import { cannotLoad, noLocalController } from '../../client/controller-absent.js';

/** The requests that name the requesting user, and their bodies without it (added here). */
type CallerOp = { [K in CtldOp]: CtldBody<K> extends { userId: number } ? K : never }[CtldOp];
export type CallerArgs = { [K in CallerOp]: [op: K, body: Omit<CtldBody<K>, 'userId'>] }[CallerOp];

/**
 * A connection to the cluster's controller, or undefined when none runs on the state directory
 * (and none is started). One that cannot be reached (a TCP controller that does not answer) is
 * an error, framed as scontrol frames its load call's failure when `loadCall` names it
 * (`slurm_load_jobs error:`).
 */
export async function openController(cluster: string | undefined, autostart: boolean, loadCall?: string): Promise<CtldClient | undefined> {
  const config = await loadCluster({ file: cluster });
  try {
    return await connectController({ config, stateDir: resolveStateDir(config), clusterFile: config.source.startsWith('/') ? config.source : undefined, autostart });
  } catch (error) {
    if (autostart) throw error;
    if (noLocalController(config, error)) return undefined;
    throw loadCall === undefined ? error : cannotLoad(loadCall, error);
  }
}

/**
 * Sends `op`; a refusal becomes a bare UserError with `frame(message)` (scontrol prints these
 * without a prefix). `absent` is the errno when no controller runs; 'start' starts one.
 */
export async function callController<T>(
  cluster: string | undefined,
  [op, body]: CallerArgs,
  frame: (message: string) => string,
  absent: ErrnoName | 'start',
): Promise<T> {
  const client = await openController(cluster, absent === 'start');
  if (!client) throw new UserError(frame(slurm_strerror(absent as ErrnoName)), { bare: true });
  try {
    return await client.call<T>(...([op, { ...body, userId: process.getuid?.() ?? 0 }] as CallArgs));
  } catch (error) {
    if (error instanceof UserError && !error.bare) throw new UserError(frame(error.message), { bare: true, ...(error.code && { code: error.code }) });
    throw error;
  } finally {
    client.close();
  }
}
