// The signed envelope of every message between daemons and clients over TCP (DESIGN.md §8).
// The sender's auth plugin makes a credential over the UTF-8 bytes of JSON.stringify(message)
// and the message carries it, packed and base64-encoded, in one added field, `auth`. The
// receiver takes that field off, serialises the rest again and verifies the credential against
// those bytes. No canonical form is needed: for a value JSON.parse read from JSON.stringify's
// output, JSON.stringify gives back the same text (key order, numbers and escapes included;
// test/unit/protocol/auth-envelope.test.ts checks it with fast-check). The credential follows
// the message's other fields, so removing it leaves their order as it was.
//
// Transport-agnostic: the RPC server and clients call these on each message they write or read.
import { errnoValue, slurm_strerror } from '../core/errno.js';
import { SLURM_AUTH_NOBODY } from '../plugin-api/auth.js';
import type { AuthFacade } from '../interfaces/auth.js';

/** The field that carries the credential. */
export const AUTH_FIELD = 'auth';

/** Who sent a message, as its verified credential says. */
export interface SenderIdentity {
  readonly uid: number;
  readonly gid: number;
  readonly host: string | null;
}

export type OpenedMessage =
  | { ok: true; message: Record<string, unknown>; identity: SenderIdentity }
  | { ok: false; reason: string };

const utf8 = new TextEncoder();
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** `message` with an `auth` field added: a credential made for its JSON text. */
export async function sealMessage<T extends object>(auth: AuthFacade, message: T): Promise<T & { auth: string }> {
  if (Object.hasOwn(message, AUTH_FIELD)) throw new Error(`sealMessage: the message already has an "${AUTH_FIELD}" field`);
  const cred = await auth.create(utf8.encode(JSON.stringify(message)));
  try {
    const packed = await auth.pack(cred);
    return { ...message, [AUTH_FIELD]: Buffer.from(packed).toString('base64') } as T & { auth: string };
  } finally {
    await auth.destroy(cred);
  }
}

/**
 * The message without its `auth` field and the sender's identity, once the credential checks
 * out; otherwise a one-line reason for the log, naming `peer` (the transport's address).
 */
export async function openMessage(
  auth: AuthFacade,
  received: Record<string, unknown>,
  peer = 'an unknown peer',
): Promise<OpenedMessage> {
  const { [AUTH_FIELD]: token, ...message } = received;
  const refuse = (why: string): OpenedMessage => ({ ok: false, reason: `${auth.type}: rejected message from ${peer}: ${why}` });
  if (typeof token !== 'string' || token === '') return refuse('unsigned message');
  if (!BASE64.test(token)) return refuse('malformed credential (not base64)');
  const unpacked = await auth.unpack(Buffer.from(token, 'base64'));
  if (!unpacked.ok) return refuse(unpacked.reason);
  const { cred } = unpacked;
  try {
    const verified = await auth.verify(cred, utf8.encode(JSON.stringify(message)));
    if (!verified.ok) {
      // A plugin may name the sender of a genuine but stale or replayed credential; say who.
      const uid = await auth.uid(cred);
      return refuse(`${rejectionText(verified.errno)}${uid !== SLURM_AUTH_NOBODY ? ` (uid ${uid})` : ''}`);
    }
    const identity = { uid: await auth.uid(cred), gid: await auth.gid(cred), host: await auth.host(cred) };
    return { ok: true, message, identity };
  } finally {
    await auth.destroy(cred);
  }
}

function rejectionText(errno: number): string {
  if (errno === errnoValue('ESLURM_AUTH_CRED_INVALID')) return 'invalid credential (forged or altered)';
  if (errno === errnoValue('ESLURM_AUTH_EXPIRED')) return 'credential expired';
  if (errno === errnoValue('ESLURMD_CREDENTIAL_REPLAYED')) return 'replayed credential';
  const text = slurm_strerror(errno);
  return text.charAt(0).toLowerCase() + text.slice(1);
}
