import { describe, expect, it } from 'vitest';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { verifyJwt } from '../../../../src/core/jwt-hs256.js';
import { jwtKey } from '../../../../src/os/jwt-key.js';
import { CODE_SECONDS, LoginCodes, SESSION_SECONDS } from '../../../../src/restd/dashboard/login.js';

describe('the dashboard\'s one-time login', () => {
  const stateDir = () => mkdtempSync(path.join(tmpdir(), 'tslurm-login-'));

  it('opens one session per code, with a token the API accepts', () => {
    const dir = stateDir();
    const codes = new LoginCodes(dir, () => 1000);
    const code = codes.issue();
    const session = codes.redeem(code);
    expect(session).not.toBeNull();
    expect(session!.expires).toBe(1000 + SESSION_SECONDS);
    const check = verifyJwt(session!.token, jwtKey(dir), 1001);
    expect(check).toMatchObject({ ok: true, claims: { sun: session!.user, exp: 1000 + SESSION_SECONDS } });
    expect(codes.redeem(code)).toBeNull();
  });

  it('refuses a code it did not issue and one past its time', () => {
    let now = 1000;
    const codes = new LoginCodes(stateDir(), () => now);
    const code = codes.issue();
    expect(codes.redeem(`${code}x`)).toBeNull();
    expect(codes.redeem('')).toBeNull();
    now += CODE_SECONDS;
    expect(codes.redeem(code)).toBeNull();
  });
});
