// auth/hmac on its own: key files refused the way munged refuses them, credentials that verify
// only for their own body, key, age and first use; forged ones made with the key by the test.
import { afterAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { randomBytes } from 'node:crypto';
import { mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { Buf } from '../../../src/core/buf.js';
import { errnoValue } from '../../../src/core/errno.js';
import {
  SLURM_AUTH_NOBODY,
  SLURM_AUTH_UID_ANY,
  SLURM_ERROR,
  SLURM_SUCCESS,
  type AuthPlugin,
  type PluginHost,
} from '../../../src/plugin-api/index.js';
import { ReplayCache } from '../../../plugins/lib/replay-cache.js';
import { forgeCred, writeKey } from './hmac-forge.js';

type Module = Omit<AuthPlugin, 'init' | 'fini'> & { init(host: PluginHost): Promise<number>; fini(): number };

const KEY = randomBytes(32);
const keyFile = writeKey(KEY);
const body = new TextEncoder().encode('{"op":"ping"}');
const now = () => Math.floor(Date.now() / 1000);
const me = process.geteuid!();

let errors: string[];
let errnos: number[];
const dirs: string[] = [path.dirname(keyFile)];

afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

beforeEach(() => {
  errors = [];
  errnos = [];
});

/**
 * A fresh copy of the plugin module, initialised with `options`; returns init's rc too. It is
 * initialised `startedAgoMs` ago (an hour by default, the clock set back meanwhile), so that
 * credentials of the last TTL were made after it started, as on a daemon that has run a while.
 */
async function load(options: Record<string, unknown>, startedAgoMs = 3_600_000): Promise<{ plugin: Module; rc: number }> {
  vi.resetModules();
  const plugin = (await import('../../../plugins/auth_hmac.js')) as unknown as Module;
  const host: PluginHost = {
    log: { error: (m) => errors.push(m), info: () => {}, verbose: () => {}, debug: () => {} },
    slurm_seterrno: (e) => errnos.push(e),
    slurm_strerror: (e) => (e === 2 ? 'No such file or directory' : `errno ${e}`),
    version: { major: 0, minor: 1, micro: 0 },
    options,
    clusterName: 'test',
    time: () => Math.floor(Date.now() / 1000),
  };
  const realNow = Date.now;
  const then = realNow() - startedAgoMs;
  Date.now = () => then;
  try {
    return { plugin, rc: await plugin.init(host) };
  } finally {
    Date.now = realNow;
  }
}

async function ready(options: Record<string, unknown> = {}, startedAgoMs?: number): Promise<Module> {
  const { plugin, rc } = await load({ key_file: keyFile, ...options }, startedAgoMs);
  expect(errors).toEqual([]);
  expect(rc).toBe(SLURM_SUCCESS);
  return plugin;
}

async function packed(plugin: Module, payload = body, rUid = SLURM_AUTH_UID_ANY): Promise<Uint8Array> {
  const cred = (await plugin.auth_p_create(payload, rUid))!;
  const buf = new Buf();
  expect(await plugin.auth_p_pack(cred, buf, buf.protocolVersion)).toBe(SLURM_SUCCESS);
  return buf.getBuffer();
}

async function received(plugin: Module, bytes: Uint8Array): Promise<object> {
  const cred = await plugin.auth_p_unpack(Buf.fromBytes(bytes, new Buf().protocolVersion), new Buf().protocolVersion);
  expect(cred).not.toBeNull();
  return cred!;
}

/** verify's rc and the errno it set (0 when none). */
async function verify(plugin: Module, bytes: Uint8Array, payload = body): Promise<[number, number]> {
  errnos = [];
  const rc = await plugin.auth_p_verify(await received(plugin, bytes), payload);
  return [rc, errnos.at(-1) ?? 0];
}

const INVALID = errnoValue('ESLURM_AUTH_CRED_INVALID');
const EXPIRED = errnoValue('ESLURM_AUTH_EXPIRED');
const REPLAYED = errnoValue('ESLURMD_CREDENTIAL_REPLAYED');

describe('auth/hmac credentials', () => {
  it('round trip: the receiver learns the sender uid, gid and host', async () => {
    const plugin = await ready();
    const cred = await received(plugin, await packed(plugin));
    expect(plugin.auth_p_get_uid(cred)).toBe(SLURM_AUTH_NOBODY); // not yet verified
    expect(plugin.auth_p_get_host(cred)).toBeNull();
    expect(await plugin.auth_p_verify(cred, body)).toBe(SLURM_SUCCESS);
    expect(plugin.auth_p_get_uid(cred)).toBe(me);
    expect(plugin.auth_p_get_gid(cred)).toBe(process.getegid!());
    expect(plugin.auth_p_get_host(cred)).toBe((await import('node:os')).hostname().split('.')[0]);
  });

  it('a credential forged with the key by the documented format verifies', async () => {
    const plugin = await ready();
    expect(await verify(plugin, forgeCred(KEY, body, { uid: 4242, gid: 77 }))).toEqual([SLURM_SUCCESS, 0]);
  });

  it('refuses another body', async () => {
    const plugin = await ready();
    const other = new TextEncoder().encode('{"op":"pong"}');
    expect(await verify(plugin, await packed(plugin), other)).toEqual([SLURM_ERROR, INVALID]);
  });

  it('refuses a credential whose uid was changed after signing', async () => {
    const plugin = await ready();
    const bytes = await packed(plugin);
    // magic (4) and format version (2) come first; the uid is the next 4 bytes.
    new DataView(bytes.buffer, bytes.byteOffset).setUint32(6, 12345);
    const cred = await received(plugin, bytes);
    expect(plugin.auth_p_get_uid(cred)).toBe(SLURM_AUTH_NOBODY);
    expect(await plugin.auth_p_verify(cred, body)).toBe(SLURM_ERROR);
    expect(errnos).toEqual([INVALID]);
    expect(plugin.auth_p_get_uid(cred)).toBe(SLURM_AUTH_NOBODY);
  });

  it('refuses a credential made with another key', async () => {
    const plugin = await ready();
    expect(await verify(plugin, forgeCred(randomBytes(32), body))).toEqual([SLURM_ERROR, INVALID]);
  });

  it('refuses a credential older than the TTL (300 s), and names its genuine sender', async () => {
    const plugin = await ready();
    expect(await verify(plugin, forgeCred(KEY, body, { time: now() - 290 }))).toEqual([SLURM_SUCCESS, 0]);
    const cred = await received(plugin, forgeCred(KEY, body, { uid: 4242, time: now() - 310 }));
    expect(await plugin.auth_p_verify(cred, body)).toBe(SLURM_ERROR);
    expect(errnos).toEqual([EXPIRED]);
    expect(plugin.auth_p_get_uid(cred)).toBe(4242);
  });

  it('refuses a credential from more than the TTL in the future (a rewound clock)', async () => {
    const plugin = await ready();
    expect(await verify(plugin, forgeCred(KEY, body, { time: now() + 290 }))).toEqual([SLURM_SUCCESS, 0]);
    expect(await verify(plugin, forgeCred(KEY, body, { time: now() + 310 }))).toEqual([SLURM_ERROR, EXPIRED]);
  });

  it('honours the ttl option', async () => {
    const plugin = await ready({ ttl: 10 });
    expect(await verify(plugin, forgeCred(KEY, body, { time: now() - 5 }))).toEqual([SLURM_SUCCESS, 0]);
    expect(await verify(plugin, forgeCred(KEY, body, { time: now() - 20 }))).toEqual([SLURM_ERROR, EXPIRED]);
  });

  it('refuses the second use of a credential', async () => {
    const plugin = await ready();
    const bytes = await packed(plugin);
    expect(await verify(plugin, bytes)).toEqual([SLURM_SUCCESS, 0]);
    expect(await verify(plugin, bytes)).toEqual([SLURM_ERROR, REPLAYED]);
    // Another credential from the same sender is fine.
    expect(await verify(plugin, await packed(plugin))).toEqual([SLURM_SUCCESS, 0]);
  });

  it('refuses, as replayed, a credential made before it started (its predecessor may have taken it)', async () => {
    const plugin = await ready({}, 0);
    const before = forgeCred(KEY, body, { uid: 4242, timeMs: Date.now() - 1000 });
    const [rc, errno] = await verify(plugin, before);
    expect([rc, errno]).toEqual([SLURM_ERROR, REPLAYED]);
    expect(await verify(plugin, forgeCred(KEY, body, { timeMs: Date.now() + 1 }))).toEqual([SLURM_SUCCESS, 0]);
  });

  it('a forged credential does not burn the nonce of a genuine one', async () => {
    const plugin = await ready();
    const nonce = randomBytes(16);
    expect(await verify(plugin, forgeCred(randomBytes(32), body, { nonce }))).toEqual([SLURM_ERROR, INVALID]);
    expect(await verify(plugin, forgeCred(KEY, body, { nonce }))).toEqual([SLURM_SUCCESS, 0]);
  });

  it('refuses a credential made for another receiver', async () => {
    const plugin = await ready();
    expect(await verify(plugin, forgeCred(KEY, body, { rUid: me }))).toEqual([SLURM_SUCCESS, 0]);
    expect(await verify(plugin, forgeCred(KEY, body, { rUid: me + 1 }))).toEqual([
      SLURM_ERROR,
      errnoValue('ESLURM_ACCESS_DENIED'),
    ]);
  });

  it('does not unpack garbage, a short credential or another format', async () => {
    const plugin = await ready();
    const unpack = (bytes: Uint8Array) => plugin.auth_p_unpack(Buf.fromBytes(bytes, 0x100), 0x100);
    const good = await packed(plugin);
    const wrongMagic = good.slice();
    wrongMagic[0] = 0;
    for (const bytes of [new Uint8Array(0), good.subarray(0, good.length - 3), wrongMagic, randomBytes(80)]) {
      errnos = [];
      expect(await unpack(bytes)).toBeNull();
      expect(errnos).toEqual([errnoValue('ESLURM_AUTH_UNPACK')]);
    }
  });
});

describe('auth/hmac key file', () => {
  it('is refused when missing', async () => {
    const { rc } = await load({ key_file: '/nonexistent/tslurm/key' });
    expect(rc).toBe(SLURM_ERROR);
    expect(errors).toEqual(['cannot open key file /nonexistent/tslurm/key: No such file or directory']);
  });

  it('is refused when group or others may read or write it', async () => {
    const open = writeKey(KEY, 0o644);
    const groupWritable = writeKey(KEY, 0o620);
    dirs.push(path.dirname(open), path.dirname(groupWritable));
    expect((await load({ key_file: open })).rc).toBe(SLURM_ERROR);
    expect((await load({ key_file: groupWritable })).rc).toBe(SLURM_ERROR);
    expect(errors).toEqual([
      `key file ${open} is readable by others (mode 0644); chmod 600 it`,
      `key file ${groupWritable} is writable by others (mode 0620); chmod 600 it`,
    ]);
  });

  it('is refused when shorter than 32 bytes, or not a file', async () => {
    const short = writeKey(randomBytes(31));
    const dir = path.join(path.dirname(short), 'dir');
    mkdirSync(dir, { mode: 0o700 });
    dirs.push(path.dirname(short));
    expect((await load({ key_file: short })).rc).toBe(SLURM_ERROR);
    expect((await load({ key_file: dir })).rc).toBe(SLURM_ERROR);
    expect(errors).toEqual([
      `key file ${short} is too short (31 bytes, at least 32 needed); make one with head -c 32 /dev/urandom`,
      `key file ${dir} is not a regular file`,
    ]);
  });

  it('must be given, and the ttl must be whole seconds', async () => {
    expect((await load({})).rc).toBe(SLURM_ERROR);
    expect((await load({ key_file: keyFile, ttl: 0 })).rc).toBe(SLURM_ERROR);
    expect((await load({ key_file: keyFile, ttl: '5m' })).rc).toBe(SLURM_ERROR);
    expect(errors).toEqual([
      'no key file: set auth.key_file in the cluster file',
      'ttl must be a whole number of seconds above 0, not 0',
      'ttl must be a whole number of seconds above 0, not "5m"',
    ]);
  });

  it('after fini nothing is signed or verified', async () => {
    const plugin = await ready();
    const bytes = await packed(plugin);
    plugin.fini();
    expect(await plugin.auth_p_create(body, SLURM_AUTH_UID_ANY)).toBeNull();
    expect(await verify(plugin, bytes)).toEqual([SLURM_ERROR, errnoValue('ESLURM_PLUGIN_NOT_LOADED')]);
  });
});

describe('replay cache', () => {
  it('forgets a nonce once its credential has expired, so it stays bounded', () => {
    const cache = new ReplayCache();
    for (let i = 0; i < 100; i++) expect(cache.admit(`n${i}`, 1000 + i, 900)).toBe(true);
    expect(cache.admit('n5', 1005, 901)).toBe(false);
    expect(cache.size).toBe(100);
    expect(cache.admit('late', 2000, 1050)).toBe(true);
    expect(cache.size).toBe(51); // n50..n99 are still live, plus 'late'
    expect(cache.admit('n99', 1099, 1200)).toBe(true); // expired entries no longer count
    expect(cache.size).toBe(2);
  });
});
