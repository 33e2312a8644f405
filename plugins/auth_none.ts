// auth/none: no authentication (Slurm's src/plugins/auth/none/auth_none.c). The credential
// is the sender's own claim of its uid, gid and host, and every credential verifies. For
// tests and single-user setups only: anyone who can reach a daemon can claim to be anyone.
import { hostname } from 'node:os';
import {
  SLURM_AUTH_NOBODY,
  SLURM_SUCCESS,
  SLURM_VERSION_NUMBER,
  errnoValue,
  type Buf,
  type PluginHost,
  type Rc,
} from '../src/plugin-api/index.js';

export const plugin_name = 'Null authentication plugin';
export const plugin_type = 'auth/none';
export const plugin_version = SLURM_VERSION_NUMBER(0, 1, 0);

/** What the sender claims: its effective ids and short host name. */
export interface NoneCred {
  readonly uid: number;
  readonly gid: number;
  readonly hostname: string | null;
}

let host: PluginHost | undefined;

export function init(h: PluginHost): Rc {
  host = h;
  h.log.debug(`${plugin_name} loaded`);
  return SLURM_SUCCESS;
}

export function auth_p_create(_payload: Uint8Array, _r_uid: number): NoneCred {
  // process.geteuid is absent on Windows; nobody is the honest answer there.
  const uid = process.geteuid?.() ?? SLURM_AUTH_NOBODY;
  const gid = process.getegid?.() ?? SLURM_AUTH_NOBODY;
  return { uid, gid, hostname: shortHostname() };
}

export function auth_p_verify(_cred: NoneCred, _payload: Uint8Array): Rc {
  return SLURM_SUCCESS;
}

export function auth_p_get_uid(cred: NoneCred): number {
  return cred.uid;
}

export function auth_p_get_gid(cred: NoneCred): number {
  return cred.gid;
}

export function auth_p_get_host(cred: NoneCred): string | null {
  return cred.hostname;
}

export function auth_p_pack(cred: NoneCred, buf: Buf, _protocol_version: number): Rc {
  buf.pack32(cred.uid);
  buf.pack32(cred.gid);
  buf.packStr(cred.hostname);
  return SLURM_SUCCESS;
}

export function auth_p_unpack(buf: Buf, _protocol_version: number): NoneCred | null {
  try {
    const uid = buf.unpack32();
    const gid = buf.unpack32();
    return { uid, gid, hostname: buf.unpackStr() };
  } catch {
    // A short or malformed credential is a refused message, not a crash.
    host?.slurm_seterrno(errnoValue('ESLURM_AUTH_UNPACK'));
    return null;
  }
}

// Slurm's xshort_hostname(): the host name up to the first dot.
function shortHostname(): string {
  return hostname().split('.')[0] ?? '';
}
