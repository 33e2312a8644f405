// The printed address's one-time login (as Jupyter prints its token, but single use): tsrestd
// prints `http://host:port/#login=CODE`; the page sends the code once to POST /dashboard/login
// and gets back a token of the user tsrestd runs as, signed like `tscontrol token`'s, which it
// then sends as X-SLURM-USER-NAME / X-SLURM-USER-TOKEN. The code sits in the fragment, which a
// browser never sends to a server, and is worthless once used, so a copy left in a terminal's
// scroll-back or a browser's history opens nothing.
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { signJwt } from '../../core/jwt-hs256.js';
import { jwtKey } from '../../os/jwt-key.js';
import { nameForUid } from '../../os/users.js';

/** How long the page's token lasts: a working day; after it the page asks to sign in again. */
export const SESSION_SECONDS = 12 * 60 * 60;
/** How long a printed code waits to be used. */
export const CODE_SECONDS = 24 * 60 * 60;

export interface Session {
  user: string;
  token: string;
  /** Unix seconds. */
  expires: number;
}

export class LoginCodes {
  private readonly codes = new Map<string, number>();

  constructor(
    private readonly stateDir: string,
    private readonly now: () => number = () => Math.floor(Date.now() / 1000),
  ) {}

  /** A new code, good for one login. */
  issue(): string {
    const code = randomBytes(24).toString('base64url');
    this.codes.set(code, this.now() + CODE_SECONDS);
    return code;
  }

  /** The session a code opens, or null when it is unknown, used or stale. The code is spent either way. */
  redeem(given: string): Session | null {
    const now = this.now();
    let match: string | undefined;
    for (const [code, expires] of this.codes) {
      if (expires <= now) this.codes.delete(code);
      else if (sameText(code, given)) match = code;
    }
    if (match === undefined) return null;
    this.codes.delete(match);
    // The name the API's authentication maps back to this uid (auth.ts).
    const user = nameForUid(process.getuid?.() ?? 0);
    const token = signJwt({ iat: now, exp: now + SESSION_SECONDS, sun: user }, jwtKey(this.stateDir));
    return { user, token, expires: now + SESSION_SECONDS };
  }
}

// Compared in constant time: the code is a password.
function sameText(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}
