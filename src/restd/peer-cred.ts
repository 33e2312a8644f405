// Who is at the other end of a connection to tsrestd's Unix socket: SO_PEERCRED, which Node
// cannot ask, read by the native helper tspeercred (native/peer-cred) given the socket as its
// fd 3. Asked once per connection, and only for a request that brings no token.
import type net from 'node:net';
import { nativeHelper } from '../stepd/native-helper.js';
import { startChild } from '../os/spawn.js';

export interface PeerCred {
  uid: number;
  gid: number;
  pid: number;
}

const asked = new WeakMap<net.Socket, Promise<PeerCred | undefined>>();

/** Whether the helper was built (without it the local socket needs a token too). */
export function peerCredAvailable(): boolean {
  return nativeHelper('tspeercred') !== undefined;
}

/** The peer of `socket`, or undefined when it cannot be told. */
export function peerCred(socket: net.Socket): Promise<PeerCred | undefined> {
  let known = asked.get(socket);
  if (!known) {
    known = ask(socket);
    asked.set(socket, known);
  }
  return known;
}

function ask(socket: net.Socket): Promise<PeerCred | undefined> {
  const helper = nativeHelper('tspeercred');
  if (!helper) return Promise.resolve(undefined);
  const { child, ended, closed } = startChild([helper], { stdio: ['ignore', 'pipe', 'ignore', socket] });
  let out = '';
  child.stdout?.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
  return Promise.all([ended, closed]).then(([end]) => {
    const [uid, gid, pid] = out.trim().split(' ').map(Number);
    return end.kind === 'exited' && end.code === 0 && Number.isInteger(uid) && Number.isInteger(gid) ? { uid: uid!, gid: gid!, pid: pid ?? 0 } : undefined;
  });
}
