// Makes auth/hmac credentials the honest way, from the key and the wire format documented at
// the top of plugins/auth_hmac.ts, without the plugin's code: tests use it for credentials
// the plugin would never make (old, from the future, for another receiver), and a fresh one
// verifying proves the format is what the documentation says.
import { createHash, createHmac, randomBytes } from 'node:crypto';
import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Buf } from '../../../src/core/buf.js';
import { TSLURM_PROTOCOL_VERSION } from '../../../src/core/protocol-version.js';

export interface ForgeFields {
  uid?: number;
  gid?: number;
  /** 0xffffffff: any receiver. */
  rUid?: number;
  host?: string | null;
  /** Seconds since the epoch; default now. */
  time?: number;
  /** Milliseconds since the epoch (the format's own unit); wins over `time`. */
  timeMs?: number;
  nonce?: Uint8Array;
}

/** The credential as auth_p_pack writes it, signed with `key` for `payload`. */
export function forgeCred(key: Uint8Array, payload: Uint8Array, fields: ForgeFields = {}): Uint8Array {
  const buf = new Buf();
  buf.pack32(0x484d4143);
  buf.pack16(2);
  buf.pack32(fields.uid ?? process.geteuid!());
  buf.pack32(fields.gid ?? process.getegid!());
  buf.pack32(fields.rUid ?? 0xffffffff);
  buf.packStr(fields.host === undefined ? 'forge' : fields.host);
  buf.packTime(fields.timeMs ?? (fields.time !== undefined ? fields.time * 1000 : Date.now()));
  buf.packMem(fields.nonce ?? randomBytes(16));
  const signed = buf.getBuffer();
  const bodyHash = createHash('sha256').update(payload).digest();
  buf.packMem(createHmac('sha256', key).update(signed).update(bodyHash).digest());
  return buf.getBuffer();
}

/** What the auth facade sends: protocol version, plugin type, then the plugin's credential. */
export function envelopeToken(type: string, cred: Uint8Array): string {
  const buf = new Buf();
  buf.pack16(TSLURM_PROTOCOL_VERSION);
  buf.packStr(type);
  const head = buf.getBuffer();
  return Buffer.concat([head, cred]).toString('base64');
}

/** A key file in a new temporary directory, with `mode`. */
export function writeKey(key: Uint8Array, mode = 0o600): string {
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'tslurm-hmac-')), 'key');
  writeFileSync(file, key, { mode });
  chmodSync(file, mode); // the umask may have narrowed writeFileSync's mode
  return file;
}
