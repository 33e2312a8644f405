// Requests only an administrator may make, as slurmctld's validate_super_user and
// validate_slurm_user allow them: root, or the user the controller runs as (SlurmUser). On the
// Unix socket the peer is that user already (the socket is 0600 in a 0700 directory); on TCP
// the credential says who sent the request.
import { UserError } from '../core/errors.js';
import type { RpcConnection } from '../net/rpc-server.js';

export function isAdministrator(uid: number): boolean {
  return uid === 0 || uid === process.getuid?.();
}

/** Refuses, with Slurm's errno, a request whose credential names neither root nor the controller's user. */
export function requireAdministrator(connection: RpcConnection | undefined): void {
  if (connection?.identity && !isAdministrator(connection.identity.uid)) throw UserError.fromErrno('ESLURM_ACCESS_DENIED');
}
