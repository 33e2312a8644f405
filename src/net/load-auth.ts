// The cluster's auth plugin as a MessageAuth for TCP peers: each message's credential is made
// over the UTF-8 bytes of the message without it (JSON.stringify round-trips JSON text exactly,
// so the receiver re-serialises what it parsed and checks the same bytes), packed with Buf and
// carried base64 in an `auth` field.
import { Buf } from '../core/buf.js';
import { TSLURM_PROTOCOL_VERSION } from '../core/protocol-version.js';
import type { Logger } from '../core/log.js';
import type { PluginRegistry } from '../plugin-host/registry.js';
import type { AuthPlugin } from '../plugin-api/auth.js';
import type { MessageAuth, OpenedMessage } from './message-auth.js';

export async function loadMessageAuth(registry: PluginRegistry, type: string, _log: Logger): Promise<MessageAuth> {
  const loaded = await registry.get('auth', type);
  const plugin = loaded.module as unknown as AuthPlugin;
  const encoder = new TextEncoder();
  return {
    type: loaded.type,
    async seal(message) {
      const payload = encoder.encode(JSON.stringify(message));
      const cred = await plugin.auth_p_create(payload, -1);
      if (cred === null) throw new Error(`${loaded.type}: cannot make a credential`);
      const buf = new Buf(TSLURM_PROTOCOL_VERSION);
      plugin.auth_p_pack(cred, buf, TSLURM_PROTOCOL_VERSION);
      return { ...message, auth: Buffer.from(buf.getBuffer()).toString('base64') };
    },
    async open(received, peer): Promise<OpenedMessage> {
      const { auth, ...message } = received;
      if (typeof auth !== 'string') return { ok: false, reason: `${loaded.type}: unsigned message from ${peer}` };
      const cred = plugin.auth_p_unpack(Buf.fromBytes(Buffer.from(auth, 'base64'), TSLURM_PROTOCOL_VERSION), TSLURM_PROTOCOL_VERSION);
      if (cred === null) return { ok: false, reason: `${loaded.type}: malformed credential from ${peer}` };
      const rc = await plugin.auth_p_verify(cred, encoder.encode(JSON.stringify(message)));
      if (rc !== 0) return { ok: false, reason: `${loaded.type}: rejected message from ${peer}` };
      return { ok: true, message, identity: { uid: plugin.auth_p_get_uid(cred), gid: plugin.auth_p_get_gid(cred), host: plugin.auth_p_get_host(cred) } };
    },
  };
}
