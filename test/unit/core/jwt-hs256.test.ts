// auth/jwt's tokens: what signJwt makes verifies with the same key until it expires, and
// nothing else does (another key, a changed payload, another algorithm, garbage).
import { describe, expect, it } from 'vitest';
import { createHmac } from 'node:crypto';
import { signJwt, verifyJwt } from '../../../src/core/jwt-hs256.js';

const key = Buffer.alloc(32, 1);
const claims = { iat: 1000, exp: 2000, sun: 'alice' };

describe('jwt-hs256', () => {
  it('verifies its own token until exp, with the claims it was made with', () => {
    const token = signJwt(claims, key);
    expect(JSON.parse(Buffer.from(token.split('.')[0]!, 'base64url').toString())).toEqual({ alg: 'HS256', typ: 'JWT' });
    expect(verifyJwt(token, key, 1999)).toEqual({ ok: true, claims });
    expect(verifyJwt(token, key, 2000)).toEqual({ ok: false, reason: 'expired' });
  });

  it('refuses another key, a changed payload and malformed tokens', () => {
    const token = signJwt(claims, key);
    expect(verifyJwt(token, Buffer.alloc(32, 2), 1500)).toEqual({ ok: false, reason: 'signature' });
    const [header, , signature] = token.split('.');
    const bob = Buffer.from(JSON.stringify({ ...claims, sun: 'bob' })).toString('base64url');
    expect(verifyJwt(`${header}.${bob}.${signature}`, key, 1500)).toEqual({ ok: false, reason: 'signature' });
    expect(verifyJwt('a.b', key, 1500)).toEqual({ ok: false, reason: 'malformed' });
    expect(verifyJwt('', key, 1500)).toEqual({ ok: false, reason: 'malformed' });
  });

  it('refuses a token signed with this key that names another algorithm or lacks sun', () => {
    const forge = (head: object, body: object) => {
      const text = `${Buffer.from(JSON.stringify(head)).toString('base64url')}.${Buffer.from(JSON.stringify(body)).toString('base64url')}`;
      return `${text}.${createHmac('sha256', key).update(text).digest('base64url')}`;
    };
    expect(verifyJwt(forge({ alg: 'none' }, claims), key, 1500)).toEqual({ ok: false, reason: 'malformed' });
    expect(verifyJwt(forge({ alg: 'HS256' }, { exp: 2000 }), key, 1500)).toEqual({ ok: false, reason: 'malformed' });
  });
});
