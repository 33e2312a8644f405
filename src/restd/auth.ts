// Who sent a request, as slurmrestd 22.05 tells it: rest_auth/jwt's headers
// X-SLURM-USER-NAME and X-SLURM-USER-TOKEN (both, or neither), the token signed with the
// state directory's auth/jwt key (tscontrol token); without them, on the local Unix socket
// only, the peer's uid (rest_auth/local). As slurmctld's auth/jwt allows, a token of root or
// of the user tsrestd runs as (SlurmUser) may name another user in X-SLURM-USER-NAME;
// anyone else's token names its own user only.
import type { FastifyRequest } from 'fastify';
import type net from 'node:net';
import { verifyJwt } from '../core/jwt-hs256.js';
import { jwtKey } from '../os/jwt-key.js';
import { nameForUid, primaryGidOf, uidForName } from '../os/users.js';
import { peerCred } from './peer-cred.js';

export interface RestUser {
  uid: number;
  gid: number;
  name: string;
}

export type AuthOutcome = { ok: true; user: RestUser } | { ok: false; why: string };

export const USER_NAME_HEADER = 'x-slurm-user-name';
export const USER_TOKEN_HEADER = 'x-slurm-user-token';

/** Sockets accepted on the local Unix socket (server.ts marks them). */
export const localSockets = new WeakSet<net.Socket>();

export function authenticator(stateDir: string): (request: FastifyRequest) => Promise<AuthOutcome> {
  let key: Buffer | undefined;
  return async (request) => {
    const name = header(request, USER_NAME_HEADER);
    const token = header(request, USER_TOKEN_HEADER);
    if (name !== undefined || token !== undefined) {
      if (name === undefined || token === undefined) return { ok: false, why: `both ${USER_NAME_HEADER} and ${USER_TOKEN_HEADER} are needed` };
      key ??= jwtKey(stateDir);
      return byToken(name, token, key);
    }
    const socket = request.raw.socket;
    if (!localSockets.has(socket)) return { ok: false, why: 'no token' };
    const peer = await peerCred(socket);
    if (!peer) return { ok: false, why: 'no token, and the peer of the local socket cannot be told' };
    const peerName = nameForUid(peer.uid);
    return { ok: true, user: { uid: peer.uid, gid: peer.gid, name: peerName } };
  };
}

function byToken(name: string, token: string, key: Buffer): AuthOutcome {
  const check = verifyJwt(token, key, Math.floor(Date.now() / 1000));
  if (!check.ok) return { ok: false, why: `token ${check.reason === 'expired' ? 'expired' : check.reason === 'signature' ? 'not signed with this cluster\'s key' : 'malformed'}` };
  const signer = uidForName(check.claims.sun);
  if (signer === undefined) return { ok: false, why: `token user ${check.claims.sun} unknown` };
  if (name !== check.claims.sun && signer !== 0 && signer !== process.getuid?.()) {
    return { ok: false, why: `token of ${check.claims.sun} cannot act for ${name}` };
  }
  const uid = uidForName(name);
  if (uid === undefined) return { ok: false, why: `user ${name} unknown` };
  return { ok: true, user: { uid, gid: primaryGidOf(nameForUid(uid)) ?? uid, name: nameForUid(uid) } };
}

function header(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}
