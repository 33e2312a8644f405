// The cluster's auth plugin as a MessageAuth for TCP peers: the signed envelope of
// protocol/auth-envelope.ts (a credential over the message's JSON text, in an `auth` field).
import type { Logger } from '../core/log.js';
import type { PluginRegistry } from '../plugin-host/registry.js';
import { loadAuth } from '../interfaces/auth.js';
import { openMessage, sealMessage } from '../protocol/auth-envelope.js';
import type { MessageAuth } from './message-auth.js';
import { UserError } from '../core/errors.js';

export async function loadMessageAuth(registry: PluginRegistry, type: string, _log: Logger): Promise<MessageAuth> {
  const auth = await loadAuth(registry, type);
  return {
    type: auth.type,
    seal: (message) => sealMessage(auth, message),
    open: (received, peer) => openMessage(auth, received, peer),
  };
}

/**
 * auth/none is for the embedded cluster (an owner-only Unix socket): a daemon listening on TCP
 * with it would take anyone's word for who they are, so it is refused.
 */
export function requireNetworkAuth(auth: MessageAuth): void {
  if (auth.type !== 'auth/none') return;
  throw new UserError('auth/none is for the embedded cluster only; daemons on TCP need auth/hmac (auth: { type: auth/hmac, key_file: FILE } in the cluster file)');
}
