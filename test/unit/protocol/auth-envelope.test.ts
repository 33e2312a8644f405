// The signed envelope with auth/none and auth/hmac loaded through the real plugin host (from
// dist/plugins: `npm run build` first). Messages travel as a real peer sends them: sealed,
// written as one JSON line, parsed on the other side, opened.
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, rmSync } from 'node:fs';
import { hostname } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Logger } from '../../../src/core/log.js';
import { PluginError } from '../../../src/core/errors.js';
import { loadAuth, type AuthFacade } from '../../../src/interfaces/auth.js';
import { createPluginRegistry } from '../../../src/plugin-host/create.js';
import type { PluginRegistry } from '../../../src/plugin-host/registry.js';
import { AUTH_FIELD, openMessage, sealMessage } from '../../../src/protocol/auth-envelope.js';
import { envelopeToken, forgeCred, writeKey } from '../plugins/hmac-forge.js';

const DIST_PLUGINS = fileURLToPath(new URL('../../../dist/plugins/', import.meta.url));
const KEY = randomBytes(48);
const keyFile = writeKey(KEY);
const PEER = '127.0.0.1';
const me = { uid: process.geteuid!(), gid: process.getegid!(), host: hostname().split('.')[0] };
const utf8 = new TextEncoder();
const now = () => Math.floor(Date.now() / 1000);

let errors: string[] = [];
const log: Logger = { error: (m) => errors.push(m), warn: () => {}, info: () => {}, verbose: () => {}, debug: () => {} };
const registries: PluginRegistry[] = [];

beforeAll(() => {
  if (!existsSync(path.join(DIST_PLUGINS, 'auth_hmac.js'))) throw new Error(`no ${DIST_PLUGINS}auth_hmac.js: run npm run build`);
  return () => rmSync(path.dirname(keyFile), { recursive: true, force: true });
});

afterEach(async () => {
  errors = [];
  for (const registry of registries.splice(0)) await registry.finiAll();
});

/** The auth plugin `type` as a daemon of a cluster with these plugin options would load it. */
async function auth(type: string, options: Record<string, unknown> = {}): Promise<AuthFacade> {
  const plugins = {
    select: 'select/linear', mpiDefault: 'mpi/none', jobContainer: 'job_container/none', proctrack: 'proctrack/pgid',
    sched: 'sched/builtin', auth: type, pluginDirs: [DIST_PLUGINS],
  };
  const registry = createPluginRegistry({ clusterName: 'test', plugins, options }, log, {});
  registries.push(registry);
  return loadAuth(registry, type);
}

const hmac = () => auth('auth/hmac', { auth_hmac: { key_file: keyFile } });

/** What the receiving end of a connection gets for a sealed message. */
function overTheWire(sealed: object): Record<string, unknown> {
  return JSON.parse(JSON.stringify(sealed)) as Record<string, unknown>;
}

const sample = { v: 256, id: 7, op: 'submit', body: { name: 'é\n"x"\u2028', argv: ['a', 'b'], mem: 1.5, n: -3 } };

describe('auth/none', () => {
  it('opens what it sealed; the identity is what the sender claims', async () => {
    const none = await auth('auth/none');
    const opened = await openMessage(none, overTheWire(await sealMessage(none, sample)), PEER);
    expect(opened).toEqual({ ok: true, message: sample, identity: me });
  });

  it("the facade's default identity adds the user's groups and name, as `id` reports them", async () => {
    const none = await auth('auth/none');
    const identity = await none.identity(await none.create(utf8.encode('{}')));
    const groups = execFileSync('id', ['-G'], { encoding: 'utf8' }).trim().split(/\s+/).map(Number);
    expect(identity).toEqual({
      uid: me.uid,
      gid: me.gid,
      groups: expect.arrayContaining(groups),
      user_name: execFileSync('id', ['-un'], { encoding: 'utf8' }).trim(),
    });
    expect(new Set(identity.groups)).toEqual(new Set(groups));
  });

  it('still refuses a message without a credential', async () => {
    const none = await auth('auth/none');
    expect(await openMessage(none, { ...sample }, PEER)).toEqual({
      ok: false,
      reason: 'auth/none: rejected message from 127.0.0.1: unsigned message',
    });
  });
});

describe('auth/hmac', () => {
  it('opens what it sealed, and the credential is the one added field', async () => {
    const facade = await hmac();
    const sealed = await sealMessage(facade, sample);
    expect(Object.keys(sealed)).toEqual([...Object.keys(sample), AUTH_FIELD]);
    expect(await openMessage(facade, overTheWire(sealed), PEER)).toEqual({ ok: true, message: sample, identity: me });
  });

  it('refuses an altered body, without naming a sender', async () => {
    const facade = await hmac();
    const received = overTheWire(await sealMessage(facade, sample));
    (received['body'] as { n: number }).n = 0;
    expect(await openMessage(facade, received, PEER)).toEqual({
      ok: false,
      reason: 'auth/hmac: rejected message from 127.0.0.1: invalid credential (forged or altered)',
    });
  });

  it('refuses a replayed message, naming the uid that first sent it', async () => {
    const facade = await hmac();
    const line = JSON.stringify(await sealMessage(facade, sample));
    expect((await openMessage(facade, JSON.parse(line), PEER)).ok).toBe(true);
    expect(await openMessage(facade, JSON.parse(line), PEER)).toEqual({
      ok: false,
      reason: `auth/hmac: rejected message from 127.0.0.1: replayed credential (uid ${me.uid})`,
    });
  });

  it('refuses an expired credential and one made with another key', async () => {
    const facade = await hmac();
    const payload = utf8.encode(JSON.stringify(sample));
    const old = envelopeToken('auth/hmac', forgeCred(KEY, payload, { uid: 4242, time: now() - 600 }));
    const alien = envelopeToken('auth/hmac', forgeCred(randomBytes(32), payload, { uid: 0 }));
    expect(await openMessage(facade, { ...sample, auth: old }, PEER)).toEqual({
      ok: false,
      reason: 'auth/hmac: rejected message from 127.0.0.1: credential expired (uid 4242)',
    });
    expect(await openMessage(facade, { ...sample, auth: alien }, PEER)).toEqual({
      ok: false,
      reason: 'auth/hmac: rejected message from 127.0.0.1: invalid credential (forged or altered)',
    });
  });

  it('takes the identity from a credential signed with the key', async () => {
    const facade = await hmac();
    const token = envelopeToken('auth/hmac', forgeCred(KEY, utf8.encode(JSON.stringify(sample)), { uid: 4242, gid: 99, host: 'n7' }));
    expect(await openMessage(facade, { ...sample, auth: token })).toEqual({
      ok: true,
      message: sample,
      identity: { uid: 4242, gid: 99, host: 'n7' },
    });
  });

  it('refuses unsigned, malformed and other plugins\u2019 credentials', async () => {
    const none = await auth('auth/none');
    const fromNone = overTheWire(await sealMessage(none, sample));
    const facade = await hmac();
    const reasons = [];
    for (const token of [undefined, 42, '', 'not base64!', Buffer.from('garbage').toString('base64'), fromNone['auth']]) {
      const opened = await openMessage(facade, { ...sample, ...(token !== undefined && { auth: token }) }, PEER);
      reasons.push(opened.ok ? 'opened' : opened.reason.replace('auth/hmac: rejected message from 127.0.0.1: ', ''));
    }
    expect(reasons).toEqual([
      'unsigned message',
      'unsigned message',
      'unsigned message',
      'malformed credential (not base64)',
      'malformed credential',
      'credential made by auth/none, not auth/hmac',
    ]);
  });

  it('keeps concurrent messages apart: each gets its own verdict', async () => {
    const facade = await hmac();
    const kinds = Array.from({ length: 60 }, (_, id) => (['altered', 'replayed', 'fresh'] as const)[id % 3]!);
    const lines = await Promise.all(kinds.map(async (_, id) => JSON.stringify(await sealMessage(facade, { id, op: 'ping' }))));
    for (const [id, kind] of kinds.entries()) {
      if (kind === 'replayed') expect((await openMessage(facade, JSON.parse(lines[id]!), PEER)).ok).toBe(true);
    }
    const received = lines.map((line, id) => ({ ...JSON.parse(line), ...(kinds[id] === 'altered' && { op: 'pong' }) }));
    const verdicts = await Promise.all(received.map((message) => openMessage(facade, message, PEER)));
    const expected = kinds.map((kind, id) =>
      kind === 'fresh'
        ? { ok: true, message: { id, op: 'ping' }, identity: me }
        : {
            ok: false,
            reason: `auth/hmac: rejected message from 127.0.0.1: ${kind === 'altered' ? 'invalid credential (forged or altered)' : `replayed credential (uid ${me.uid})`}`,
          },
    );
    expect(verdicts).toEqual(expected);
  });

  it('refuses to seal a message that already has an auth field', async () => {
    const facade = await hmac();
    await expect(sealMessage(facade, { op: 'x', auth: 'mine' })).rejects.toThrow('already has an "auth" field');
  });

  it('does not load with a key file others can read', async () => {
    const open = writeKey(KEY, 0o640);
    try {
      const failure = await auth('auth/hmac', { auth_hmac: { key_file: open } }).catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(PluginError);
      // The plugin's own reason is the one error line (the host no longer adds a general one).
      expect((failure as Error).message).toBe(`auth/hmac: key file ${open} is readable by others (mode 0640); chmod 600 it`);
      expect(errors).toEqual([]);
    } finally {
      rmSync(path.dirname(open), { recursive: true, force: true });
    }
  });
});

// Message shapes the RPCs use: nested objects and arrays, strings with any code point and the
// characters JSON escapes, integers and floats (JSON cannot carry NaN or infinities).
const { message } = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.string({ unit: 'binary' }),
    fc.constantFrom('"', '\\', '\n', '\u0000', '\u2028', '\ud800', '</script>'),
    fc.integer(),
    fc.maxSafeInteger(),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('value'), { maxLength: 4 }),
    tie('object'),
  ),
  object: fc.dictionary(fc.string({ unit: 'binary' }), tie('value'), { maxKeys: 5 }),
  message: fc.dictionary(
    fc.string({ unit: 'binary' }).filter((key) => key !== AUTH_FIELD),
    tie('value'),
    { maxKeys: 6 },
  ),
}));

describe('JSON text round trip (what the envelope relies on)', () => {
  it('JSON.stringify of the parsed line without `auth` is the text that was signed', () => {
    fc.assert(
      fc.property(message, (msg) => {
        const signedText = JSON.stringify(msg);
        const { [AUTH_FIELD]: _token, ...rest } = JSON.parse(JSON.stringify({ ...msg, [AUTH_FIELD]: 'x' })) as Record<string, unknown>;
        expect(JSON.stringify(rest)).toBe(signedText);
      }),
      { numRuns: 2000 },
    );
  });

  it('every such message opens after sealing with auth/hmac', async () => {
    const facade = await hmac();
    await fc.assert(
      fc.asyncProperty(message, async (msg) => {
        const opened = await openMessage(facade, overTheWire(await sealMessage(facade, msg)), PEER);
        expect(opened).toEqual({ ok: true, message: JSON.parse(JSON.stringify(msg)), identity: me });
      }),
      { numRuns: 300 },
    );
  });
});
