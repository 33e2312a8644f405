// Telling "no controller runs here" from "the controller cannot be reached". The viewing
// commands answer the first from what the state directory and the cluster file hold (no jobs,
// the configured nodes); the second is an error, since the jobs and nodes may well be there
// (observed on Slurm 22.05: with nothing listening on SlurmctldPort, squeue prints
// `slurm_load_jobs error: Unable to contact slurm controller (connect failure)` and exits 1).
import { UserError } from '../core/errors.js';
import type { ClusterConfig } from '../config/types.js';

// connectController's refusal: "Unable to contact slurm controller (ECONNREFUSED)".
const CONNECT_FAILURE = /^Unable to contact slurm controller \((E[A-Z]+)\)/;

/**
 * Nobody serves the local state directory: no socket, or one nobody listens on. A TCP
 * controller that does not answer, or a key the auth plugin cannot use, is not this.
 */
export function noLocalController(config: ClusterConfig, error: unknown): boolean {
  return config.control.host === undefined && error instanceof UserError && /\((ENOENT|ECONNREFUSED)\)/.test(error.message);
}

/**
 * The one line a Slurm command prints when its load call cannot reach the controller, `prefix`
 * being the call (`slurm_load_jobs error:`, sinfo's `slurm_load_partitions:`): Slurm's
 * "connect failure". Anything else connecting refused (an untrusted state directory, an auth
 * key the plugin cannot use) happened here before any call, so it keeps the command's own
 * `<bin>: error:` line, as every other command prints it. Not a UserError: a bug, as is.
 */
export function cannotLoad(prefix: string, error: unknown): unknown {
  if (!(error instanceof UserError) || !CONNECT_FAILURE.test(error.message)) return error;
  return new UserError(`${prefix} Unable to contact slurm controller (connect failure)`, {
    bare: true,
    code: 'SLURMCTLD_COMMUNICATIONS_CONNECTION_ERROR',
  });
}
