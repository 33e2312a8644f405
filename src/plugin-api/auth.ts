/**
 * The Authentication plugin API (`auth/*`): who sent a message. Every RPC between clients and
 * daemons carries a credential: the sender's auth plugin creates it for the message body and
 * packs it into the message; the receiver's unpacks and verifies it, then reads the sender's
 * uid, gid and host from it. A credential is an object of the plugin's own making (Slurm's
 * opaque `void *cred`); the host never looks inside.
 *
 * Sender: `auth_p_create(body, r_uid)` → `auth_p_pack(cred, buf, version)` → `auth_p_destroy(cred)`.
 * Receiver: `auth_p_unpack(buf, version)` → `auth_p_verify(cred, body)` → `auth_p_get_uid` /
 * `auth_p_get_gid` / `auth_p_get_host` / `auth_p_get_identity` → `auth_p_destroy(cred)`.
 * A message whose credential does not unpack or verify is refused with "Protocol
 * authentication error", and nothing in it is acted on.
 *
 * Slurm's `auth_info` argument (the `AuthInfo` setting) is not passed: read the plugin's
 * settings from `host.options` in `init`. On failure set an errno through `host.slurm_seterrno`:
 * ESLURM_AUTH_CRED_INVALID (forged, or made for another body), ESLURM_AUTH_EXPIRED (too old, or
 * too far in the future), ESLURMD_CREDENTIAL_REPLAYED (seen before), ESLURM_AUTH_UNPACK, ...
 */
import type { Buf } from '../core/buf.js';
import type { MaybePromise, PluginHeader, Rc, SymbolTable } from './common.js';

/** The uid and gid an unverified or broken credential reports (Slurm's SLURM_AUTH_NOBODY). */
export const SLURM_AUTH_NOBODY = 99;
/** `r_uid` meaning any receiver may decode the credential (Slurm's SLURM_AUTH_UID_ANY). */
export const SLURM_AUTH_UID_ANY = -1;

/** The sender's identity in full. */
export interface AuthIdentity {
  readonly uid: number;
  readonly gid: number;
  /** Supplementary groups; tasks of the sender's jobs run with them. */
  readonly groups: readonly number[];
  /** User name, if the credential carries it; else null. */
  readonly user_name: string | null;
}

/** An authentication plugin. `Cred` is the plugin's credential type. */
export interface AuthPlugin<Cred extends object = object> extends PluginHeader {
  /**
   * Make a credential for a message about to be sent, identifying the current process's
   * user. `payload` is the packed message body: a plugin that signs binds the credential to
   * it (Slurm's `hash_enable`), so that `auth_p_verify` fails for any other body. `r_uid` is
   * the uid of the intended receiver, or {@link SLURM_AUTH_UID_ANY}. A credential must stay
   * valid for a limited time only. Slurm: `void *auth_p_create(char *auth_info, uid_t r_uid,
   * void *data, int dlen)`.
   * @returns the credential, or null on failure (the message is not sent).
   */
  auth_p_create: (payload: Uint8Array, r_uid: number) => MaybePromise<Cred | null>;

  /**
   * Release a credential from `auth_p_create` or `auth_p_unpack` (memory is
   * garbage-collected; close anything else). Slurm: `int auth_p_destroy(void *cred)`.
   * Default: SLURM_SUCCESS.
   */
  auth_p_destroy?: (cred: Cred) => MaybePromise<Rc>;

  /**
   * Check a received credential against the message body it came with: well-formed, genuine,
   * not expired, made for `payload`. Only after success do the getters report the real uid
   * and gid. Slurm: `int auth_p_verify(void *cred, char *auth_info)`.
   * @returns SLURM_SUCCESS, or SLURM_ERROR with the errno saying why (expired, forged, ...).
   */
  auth_p_verify: (cred: Cred, payload: Uint8Array) => MaybePromise<Rc>;

  /**
   * The sender's uid: meaningful after `auth_p_verify` succeeded; before that (or on error)
   * {@link SLURM_AUTH_NOBODY}. A plugin may also report it for a credential that is genuine but
   * was refused for its age or as a replay, so the receiver can log who sent it; the receiver
   * acts on it only after success. Slurm: `uid_t auth_p_get_uid(void *cred)`.
   */
  auth_p_get_uid: (cred: Cred) => number;

  /** The sender's primary gid, as for `auth_p_get_uid`. Slurm: `gid_t auth_p_get_gid(void *cred)`. */
  auth_p_get_gid: (cred: Cred) => number;

  /** The host the message came from, or null if unknown. Slurm: `char *auth_p_get_host(void *cred)`. */
  auth_p_get_host: (cred: Cred) => string | null;

  /**
   * The sender's full identity, if the credential carries it (newer Slurm's
   * `auth_p_get_identity`). Default: uid and gid from the getters, supplementary groups looked
   * up for that uid on the receiving host, user name looked up likewise.
   */
  auth_p_get_identity?: (cred: Cred) => MaybePromise<AuthIdentity | null>;

  /**
   * Write the credential into `buf` for sending; `auth_p_unpack` must read it back to an
   * equivalent credential. `protocol_version` is the receiver's. The host writes the plugin
   * type first, so do not. Slurm: `int auth_p_pack(void *cred, buf_t *buf, uint16_t protocol_version)`.
   * @returns SLURM_SUCCESS, or SLURM_ERROR.
   */
  auth_p_pack: (cred: Cred, buf: Buf, protocol_version: number) => MaybePromise<Rc>;

  /**
   * Read a credential written by `auth_p_pack` (of the sender's `protocol_version`). The result
   * is not yet verified. Slurm: `void *auth_p_unpack(buf_t *buf, uint16_t protocol_version)`.
   * @returns the credential, or null on failure (errno ESLURM_AUTH_UNPACK).
   */
  auth_p_unpack: (buf: Buf, protocol_version: number) => MaybePromise<Cred | null>;
}

/** Every auth API function: `required` ones must be exported; the host supplies the rest. */
export const authSymbols = {
  auth_p_create: 'required',
  auth_p_destroy: 'optional',
  auth_p_verify: 'required',
  auth_p_get_uid: 'required',
  auth_p_get_gid: 'required',
  auth_p_get_host: 'required',
  auth_p_get_identity: 'optional',
  auth_p_pack: 'required',
  auth_p_unpack: 'required',
} as const satisfies SymbolTable<AuthPlugin>;
