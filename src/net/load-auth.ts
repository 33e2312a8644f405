// The cluster's auth plugin as a MessageAuth for TCP peers: the signed envelope of
// protocol/auth-envelope.ts (a credential over the message's JSON text, in an `auth` field).
import type { Logger } from '../core/log.js';
import type { PluginRegistry } from '../plugin-host/registry.js';
import { loadAuth } from '../interfaces/auth.js';
import { openMessage, sealMessage } from '../protocol/auth-envelope.js';
import type { MessageAuth } from './message-auth.js';

export async function loadMessageAuth(registry: PluginRegistry, type: string, _log: Logger): Promise<MessageAuth> {
  const auth = await loadAuth(registry, type);
  return {
    type: auth.type,
    seal: (message) => sealMessage(auth, message),
    open: (received, peer) => openMessage(auth, received, peer),
  };
}
