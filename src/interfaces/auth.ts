// The auth facade (Slurm's src/interfaces/auth.c, g_slurm_auth_*): the one active auth plugin,
// called by every peer that sends or receives a message. Sending failures are errors (the
// message cannot go out); a credential that does not unpack or verify is an expected outcome,
// returned with its errno so the receiver can say why it refused the message.
import { Buf } from '../core/buf.js';
import { errnoValue, slurm_strerror } from '../core/errno.js';
import { supplementaryGids } from '../os/groups.js';
import { TSLURM_PROTOCOL_VERSION, isSupportedProtocolVersion } from '../core/protocol-version.js';
import { nameForUid } from '../os/users.js';
import { SLURM_SUCCESS } from '../plugin-api/common.js';
import { SLURM_AUTH_UID_ANY, type AuthIdentity } from '../plugin-api/auth.js';
import { callHook, hookFailure } from '../plugin-host/invoke.js';
import type { LoadedPlugin } from '../plugin-host/loaded-plugin.js';
import type { PluginRegistry } from '../plugin-host/registry.js';

/** A credential as the plugin made it: opaque to the host. */
export type Cred = object;

export type Unpacked = { ok: true; cred: Cred } | { ok: false; reason: string };
export type Verified = { ok: true } | { ok: false; errno: number };

export class AuthFacade {
  // Slurm's errno is per thread; a plugin's is per process here, so calls run one at a time
  // (they are short) and a failure never reads the errno of another message's call.
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    readonly plugin: LoadedPlugin,
    private readonly timeoutMs: number,
  ) {}

  get type(): string {
    return this.plugin.type;
  }

  /** g_slurm_auth_create → auth_p_create: a credential for a message body about to be sent. */
  async create(payload: Uint8Array, rUid: number = SLURM_AUTH_UID_ANY): Promise<Cred> {
    return this.exclusive(async () => {
      const cred = await this.call<Cred | null>('auth_p_create', [payload, rUid]);
      if (cred === null || typeof cred !== 'object') throw hookFailure(this.plugin, 'auth_p_create', -1);
      return cred;
    });
  }

  /**
   * g_slurm_auth_pack → auth_p_pack: the protocol version and the plugin type first (Slurm packs
   * its plugin id), so a receiver running another auth plugin can say so.
   */
  async pack(cred: Cred, protocolVersion: number = TSLURM_PROTOCOL_VERSION): Promise<Uint8Array> {
    const buf = new Buf(protocolVersion);
    buf.pack16(protocolVersion);
    buf.packStr(this.plugin.type);
    const rc = await this.exclusive(() => this.call<number>('auth_p_pack', [cred, buf, protocolVersion]));
    if (rc !== SLURM_SUCCESS) throw hookFailure(this.plugin, 'auth_p_pack', rc);
    return buf.getBuffer();
  }

  /** g_slurm_auth_unpack → auth_p_unpack: a received credential, not yet verified. */
  async unpack(bytes: Uint8Array): Promise<Unpacked> {
    const buf = Buf.fromBytes(bytes, TSLURM_PROTOCOL_VERSION);
    let version: number;
    let type: string | null;
    try {
      version = buf.unpack16();
      type = buf.unpackStr();
    } catch {
      return { ok: false, reason: 'malformed credential' };
    }
    if (type !== this.plugin.type) return { ok: false, reason: `credential made by ${type ?? 'no plugin'}, not ${this.plugin.type}` };
    if (!isSupportedProtocolVersion(version)) return { ok: false, reason: `credential of unsupported protocol version ${version}` };
    buf.protocolVersion = version;
    return this.exclusive(async () => {
      const cred = await this.call<Cred | null>('auth_p_unpack', [buf, version]);
      if (cred !== null && typeof cred === 'object') return { ok: true, cred } as const;
      const errno = this.plugin.errno || errnoValue('ESLURM_AUTH_UNPACK');
      return { ok: false, reason: `malformed credential (${slurm_strerror(errno)})` } as const;
    });
  }

  /** g_slurm_auth_verify → auth_p_verify: genuine, fresh, and made for `payload`? */
  async verify(cred: Cred, payload: Uint8Array): Promise<Verified> {
    return this.exclusive(async () => {
      const rc = await this.call<number>('auth_p_verify', [cred, payload]);
      if (rc === SLURM_SUCCESS) return { ok: true } as const;
      const errno = this.plugin.errno || (rc > 0 ? rc : errnoValue('ESLURM_AUTH_CRED_INVALID'));
      return { ok: false, errno } as const;
    });
  }

  /** g_slurm_auth_get_uid → auth_p_get_uid (SLURM_AUTH_NOBODY unless verified). */
  uid(cred: Cred): Promise<number> {
    return this.exclusive(() => this.call('auth_p_get_uid', [cred]));
  }

  /** g_slurm_auth_get_gid → auth_p_get_gid. */
  gid(cred: Cred): Promise<number> {
    return this.exclusive(() => this.call('auth_p_get_gid', [cred]));
  }

  /** g_slurm_auth_get_host → auth_p_get_host. */
  host(cred: Cred): Promise<string | null> {
    return this.exclusive(() => this.call('auth_p_get_host', [cred]));
  }

  /**
   * auth_g_get_identity → auth_p_get_identity; without it, the uid and gid from the getters and
   * the user's groups and name as this host knows them.
   */
  async identity(cred: Cred): Promise<AuthIdentity> {
    const own = await this.exclusive(() => this.call<AuthIdentity | null>('auth_p_get_identity', [cred], () => null));
    if (own) return own;
    const uid = await this.uid(cred);
    const gid = await this.gid(cred);
    const name = nameForUid(uid);
    const known = name !== String(uid);
    return { uid, gid, groups: known ? supplementaryGids(name, gid) : [gid], user_name: known ? name : null };
  }

  /** g_slurm_auth_destroy → auth_p_destroy (optional). */
  async destroy(cred: Cred): Promise<void> {
    const rc = await this.exclusive(() => this.call<number>('auth_p_destroy', [cred], () => SLURM_SUCCESS));
    if (rc !== SLURM_SUCCESS) throw hookFailure(this.plugin, 'auth_p_destroy', rc);
  }

  private call<R>(hook: string, args: readonly unknown[], fallback?: () => R): Promise<R> {
    // errno is the plugin's last one: clear it so a failure reports this call's, not a stale one.
    this.plugin.errno = 0;
    return callHook<R>(this.plugin, hook, args, { timeoutMs: this.timeoutMs, fallback });
  }

  private exclusive<T>(work: () => Promise<T>): Promise<T> {
    const run = this.queue.then(work, work);
    this.queue = run.catch(() => {});
    return run;
  }
}

/** The cluster's auth plugin (`config.plugins.auth`), loaded through `registry`. */
export async function loadAuth(registry: PluginRegistry, type: string): Promise<AuthFacade> {
  return new AuthFacade(await registry.get('auth', type), registry.timeoutMs);
}
