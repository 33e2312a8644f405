// JSON Web Tokens signed with HMAC-SHA256, as Slurm's auth/jwt makes and checks them: a
// payload of `iat` (issued, Unix seconds), `exp` (expires) and `sun` (the user name). Pure
// computation on a key the caller read (os/jwt-key.ts holds the key file).
import { createHmac, timingSafeEqual } from 'node:crypto';

export interface JwtClaims {
  iat: number;
  exp: number;
  sun: string;
}

const HEADER = base64url(JSON.stringify({ alg: 'HS256', typ: 'JWT' }));

export function signJwt(claims: JwtClaims, key: Uint8Array): string {
  const body = `${HEADER}.${base64url(JSON.stringify(claims))}`;
  return `${body}.${mac(body, key)}`;
}

export type JwtCheck = { ok: true; claims: JwtClaims } | { ok: false; reason: 'malformed' | 'signature' | 'expired' };

/** Checks the signature (HS256 only) and the expiry against `now` (Unix seconds). */
export function verifyJwt(token: string, key: Uint8Array, now: number): JwtCheck {
  const parts = token.split('.');
  if (parts.length !== 3) return { ok: false, reason: 'malformed' };
  const [header, payload, signature] = parts as [string, string, string];
  const expected = Buffer.from(mac(`${header}.${payload}`, key));
  const given = Buffer.from(signature);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return { ok: false, reason: 'signature' };
  let alg: unknown;
  let claims: Partial<JwtClaims>;
  try {
    alg = (JSON.parse(Buffer.from(header, 'base64url').toString('utf8')) as { alg?: unknown }).alg;
    claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Partial<JwtClaims>;
  } catch {
    return { ok: false, reason: 'malformed' };
  }
  // The signature matched our key, so the header is ours; a token naming another algorithm is still refused.
  if (alg !== 'HS256' || typeof claims.sun !== 'string' || typeof claims.exp !== 'number') return { ok: false, reason: 'malformed' };
  if (claims.exp <= now) return { ok: false, reason: 'expired' };
  return { ok: true, claims: { iat: typeof claims.iat === 'number' ? claims.iat : 0, exp: claims.exp, sun: claims.sun } };
}

function mac(text: string, key: Uint8Array): string {
  return createHmac('sha256', key).update(text).digest('base64url');
}

function base64url(text: string): string {
  return Buffer.from(text, 'utf8').toString('base64url');
}
