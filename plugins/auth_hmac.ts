// auth/hmac: credentials signed with a key shared by every host of the cluster, the way munge
// signs them (Slurm's src/plugins/auth/munge/), without munged: each process reads the key.
// A credential says who made it (uid, gid, host), when (seconds), for whom (r_uid), carries 16
// random bytes (the nonce), and is bound to one message body by its MAC:
//
//   u32  magic 0x484d4143 ("HMAC")    u16  format version (2)
//   u32  uid    u32 gid    u32 r_uid (0xffffffff: any receiver)
//   str  host   time  time (i64 milliseconds)   mem  nonce (16 bytes)
//   mem  mac = HMAC-SHA256(key, every byte above || SHA-256(message body))   (32 bytes)
//
// The receiver refuses a bad MAC (forged, or the body or a field changed), a credential older
// than the TTL or more than the TTL ahead of its clock (munge's "Expired" and "Rewound"), and a
// nonce it has already accepted within the TTL (munge's "Replayed credential").
//
// The nonces live in memory, so a restarted receiver would not know the ones its previous
// instance accepted. It refuses, as replayed, every credential made before it started (this
// module's init, to the millisecond): whatever the old instance accepted is older than that,
// while peers that reconnect after the restart seal fresh credentials and go on. Persisting the
// nonces instead would cost a synchronous write per message on every receiver and would still
// lose the last ones in a crash. The price: a peer whose clock is behind the receiver's by d is
// refused for d after the receiver starts (keep clocks in step, as the TTL already asks).
//
// Options (cluster YAML): key_file (from `auth.key_file`; required), ttl (seconds, default
// 300, munge's default TTL).
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { hostname } from 'node:os';
import {
  Buf,
  SLURM_AUTH_NOBODY,
  SLURM_AUTH_UID_ANY,
  SLURM_ERROR,
  SLURM_SUCCESS,
  SLURM_VERSION_NUMBER,
  errnoValue,
  type ErrnoName,
  type PluginHost,
  type Rc,
} from '../src/plugin-api/index.js';
import { readKeyFile } from './lib/hmac-key.js';
import { ReplayCache } from './lib/replay-cache.js';

export const plugin_name = 'HMAC shared-key authentication plugin';
export const plugin_type = 'auth/hmac';
export const plugin_version = SLURM_VERSION_NUMBER(0, 1, 0);

const HMAC_CRED_MAGIC = 0x484d4143;
// 2: the time in milliseconds (1 had seconds, too coarse to tell a credential from before a
// restart from one just after it).
const HMAC_CRED_VERSION = 2;
const NONCE_BYTES = 16;
const MAC_BYTES = 32;
const ANY_RECEIVER = 0xffffffff;
const DEFAULT_TTL = 300;

export interface HmacCred {
  readonly uid: number;
  readonly gid: number;
  /** The receiver's uid the credential is made for, or SLURM_AUTH_UID_ANY. */
  readonly r_uid: number;
  readonly host: string | null;
  /** Milliseconds since the epoch, on the maker's clock. */
  readonly time: number;
  readonly nonce: Uint8Array;
  readonly mac: Uint8Array;
  /** The packed fields the MAC covers (magic to nonce), exactly as made or received. */
  readonly signed: Uint8Array;
}

let host: PluginHost | undefined;
let key: Buffer | undefined;
let ttl = DEFAULT_TTL;
/** When this instance started (ms): credentials made before it may have been used already. */
let startedAt = 0;
const replays = new ReplayCache();
// 'genuine': the MAC checked out but the credential is stale or replayed, so its uid is known
// to be real (for the receiver's log line); 'verified': usable.
const standing = new WeakMap<HmacCred, 'genuine' | 'verified'>();

export async function init(h: PluginHost): Promise<Rc> {
  host = h;
  replays.clear();
  startedAt = Date.now();
  const o = h.options;
  ttl = DEFAULT_TTL;
  if (o['ttl'] !== undefined) {
    if (typeof o['ttl'] !== 'number' || !Number.isInteger(o['ttl']) || o['ttl'] <= 0) {
      return refuse(`ttl must be a whole number of seconds above 0, not ${JSON.stringify(o['ttl'])}`);
    }
    ttl = o['ttl'];
  }
  const file = o['key_file'];
  if (typeof file !== 'string' || file === '') return refuse('no key file: set auth.key_file in the cluster file');
  const read = await readKeyFile(file, h.slurm_strerror);
  if (!read.ok) return refuse(read.reason);
  key = read.key;
  h.log.verbose(`key from ${file}, credentials live ${ttl} s`);
  return SLURM_SUCCESS;
}

export function fini(): Rc {
  key?.fill(0);
  key = undefined;
  replays.clear();
  return SLURM_SUCCESS;
}

export function auth_p_create(payload: Uint8Array, r_uid: number): HmacCred | null {
  if (!key) return fail('ESLURM_PLUGIN_NOT_LOADED');
  const fields = {
    uid: process.geteuid?.() ?? SLURM_AUTH_NOBODY,
    gid: process.getegid?.() ?? SLURM_AUTH_NOBODY,
    r_uid,
    host: shortHostname(),
    time: Date.now(),
    nonce: randomBytes(NONCE_BYTES),
  };
  const scratch = new Buf();
  packSigned(scratch, fields);
  const signed = scratch.getBuffer();
  const cred: HmacCred = { ...fields, signed, mac: macOf(key, signed, payload) };
  standing.set(cred, 'verified'); // made by this process: it knows who it is
  return cred;
}

export function auth_p_verify(cred: HmacCred, payload: Uint8Array): Rc {
  if (!key) return refuseCred('ESLURM_PLUGIN_NOT_LOADED');
  const expected = macOf(key, cred.signed, payload);
  if (cred.mac.length !== expected.length || !timingSafeEqual(cred.mac, expected)) {
    host?.log.debug(`bad MAC on a credential claiming uid ${cred.uid} from ${cred.host ?? '?'}`);
    return refuseCred('ESLURM_AUTH_CRED_INVALID');
  }
  standing.set(cred, 'genuine');
  const me = process.geteuid?.() ?? SLURM_AUTH_NOBODY;
  if (cred.r_uid !== SLURM_AUTH_UID_ANY && cred.r_uid !== me) {
    host?.log.debug(`credential of uid ${cred.uid} is for uid ${cred.r_uid}, not ${me}`);
    return refuseCred('ESLURM_ACCESS_DENIED');
  }
  const nowMs = Date.now();
  const ttlMs = ttl * 1000;
  if (cred.time < nowMs - ttlMs || cred.time > nowMs + ttlMs) {
    const ahead = cred.time > nowMs ? '; check for out of sync clocks' : '';
    host?.log.debug(`credential of uid ${cred.uid} from ${cred.host ?? '?'} made at ${cred.time} ms, now ${nowMs}${ahead}`);
    return refuseCred('ESLURM_AUTH_EXPIRED');
  }
  if (cred.time < startedAt) {
    host?.log.debug(`credential of uid ${cred.uid} from ${cred.host ?? '?'} made ${startedAt - cred.time} ms before this daemon started: may have been used before; a clock behind ours also does this`);
    return refuseCred('ESLURMD_CREDENTIAL_REPLAYED');
  }
  const now = Math.floor(nowMs / 1000);
  if (!replays.admit(Buffer.from(cred.nonce).toString('hex'), Math.ceil((cred.time + ttlMs) / 1000), now)) {
    host?.log.debug(`replayed credential of uid ${cred.uid} from ${cred.host ?? '?'}`);
    return refuseCred('ESLURMD_CREDENTIAL_REPLAYED');
  }
  standing.set(cred, 'verified');
  return SLURM_SUCCESS;
}

export function auth_p_get_uid(cred: HmacCred): number {
  return standing.has(cred) ? cred.uid : SLURM_AUTH_NOBODY;
}

export function auth_p_get_gid(cred: HmacCred): number {
  return standing.has(cred) ? cred.gid : SLURM_AUTH_NOBODY;
}

export function auth_p_get_host(cred: HmacCred): string | null {
  return standing.has(cred) ? cred.host : null;
}

export function auth_p_pack(cred: HmacCred, buf: Buf, _protocol_version: number): Rc {
  packSigned(buf, cred);
  buf.packMem(cred.mac);
  return SLURM_SUCCESS;
}

export function auth_p_unpack(buf: Buf, _protocol_version: number): HmacCred | null {
  const start = buf.offset;
  try {
    if (buf.unpack32() !== HMAC_CRED_MAGIC || buf.unpack16() !== HMAC_CRED_VERSION) return fail('ESLURM_AUTH_UNPACK');
    const uid = buf.unpack32();
    const gid = buf.unpack32();
    const rawReceiver = buf.unpack32();
    const credHost = buf.unpackStr();
    const time = buf.unpackTime();
    const nonce = buf.unpackMem();
    const signed = buf.getBuffer().slice(start, buf.offset);
    const mac = buf.unpackMem();
    if (nonce?.length !== NONCE_BYTES || mac?.length !== MAC_BYTES) return fail('ESLURM_AUTH_UNPACK');
    const r_uid = rawReceiver === ANY_RECEIVER ? SLURM_AUTH_UID_ANY : rawReceiver;
    return { uid, gid, r_uid, host: credHost, time, nonce, mac, signed };
  } catch {
    // A short or malformed credential is a refused message, not a crash.
    return fail('ESLURM_AUTH_UNPACK');
  }
}

type SignedFields = Pick<HmacCred, 'uid' | 'gid' | 'r_uid' | 'host' | 'time' | 'nonce'>;

function packSigned(buf: Buf, f: SignedFields): void {
  buf.pack32(HMAC_CRED_MAGIC);
  buf.pack16(HMAC_CRED_VERSION);
  buf.pack32(f.uid);
  buf.pack32(f.gid);
  buf.pack32(f.r_uid === SLURM_AUTH_UID_ANY ? ANY_RECEIVER : f.r_uid);
  buf.packStr(f.host);
  buf.packTime(f.time);
  buf.packMem(f.nonce);
}

function macOf(secret: Buffer, signed: Uint8Array, payload: Uint8Array): Buffer {
  const bodyHash = createHash('sha256').update(payload).digest();
  return createHmac('sha256', secret).update(signed).update(bodyHash).digest();
}

function refuse(message: string): Rc {
  host?.log.error(message);
  return SLURM_ERROR;
}

function refuseCred(errno: ErrnoName): Rc {
  host?.slurm_seterrno(errnoValue(errno));
  return SLURM_ERROR;
}

function fail(errno: ErrnoName): null {
  host?.slurm_seterrno(errnoValue(errno));
  return null;
}

// Slurm's xshort_hostname(): the host name up to the first dot.
function shortHostname(): string {
  return hostname().split('.')[0] ?? '';
}
