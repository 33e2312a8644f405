// How the step host starts its tasks, task scripts and batch scripts: through its spawn server
// (native/spawn-server, os/spawn-server.ts) when it was built, else Node's spawn.
// TSLURM_SPAWN_SERVER=0 asks for Node's spawn (a comparison, a suspected server problem).
import { startServedChild, type ServedOptions } from '../os/spawn-server.js';
import type { StartedChild } from '../os/spawn.js';
import { nativeHelper } from './native-helper.js';

/** Starts one child of the step host; resolves once it runs or failed to. */
export function startHostChild(argv: readonly string[], options: ServedOptions): Promise<StartedChild> {
  const helper = process.env.TSLURM_SPAWN_SERVER === '0' ? undefined : nativeHelper('tsspawn_server');
  return startServedChild(helper, argv, options);
}
