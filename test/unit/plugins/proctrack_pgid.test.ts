// proctrack/pgid against real processes: each test spawns process groups of its own
// (`detached: true` makes the child a group leader) and kills whatever is left afterwards.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { constants, tmpdir } from 'node:os';
import path from 'node:path';
import {
  SLURM_ERROR,
  SLURM_SUCCESS,
  type PluginHost,
  type ProctrackPlugin,
  type ProctrackStep,
} from '../../../src/plugin-api/index.js';

type Module = ProctrackPlugin & { init(host: PluginHost): number };

const { SIGKILL, SIGTERM } = constants.signals;
const { EBUSY, EINVAL, ESRCH } = constants.errno;

let plugin: Module;
let errnos: number[];
let errors: string[];
const groups: number[] = [];
const tmpDirs: string[] = [];

async function load(options: Record<string, unknown> = {}): Promise<Module> {
  vi.resetModules();
  const mod = (await import('../../../plugins/proctrack_pgid.js')) as unknown as Module;
  const host: PluginHost = {
    log: { error: (m) => errors.push(m), info: () => {}, verbose: () => {}, debug: () => {} },
    slurm_seterrno: (e) => errnos.push(e),
    slurm_strerror: (e) => `errno ${e}`,
    version: { major: 0, minor: 1, micro: 0 },
    options,
    clusterName: 'test',
    time: () => Math.floor(Date.now() / 1000),
  };
  expect(mod.init(host)).toBe(SLURM_SUCCESS);
  return mod;
}

/** A new process group led by `cmd`; killed after the test. */
function spawnGroup(cmd: string, args: string[] = []): ChildProcess & { pid: number } {
  const child = spawn(cmd, args, { detached: true, stdio: 'ignore' });
  if (child.pid === undefined) throw new Error(`spawn ${cmd} failed`);
  groups.push(child.pid);
  return child as ChildProcess & { pid: number };
}

function step(cont_id: bigint | null): ProctrackStep {
  return { jobid: 7, stepid: 0, uid: 0, gid: 0, node_name: 'n1', cont_id };
}

/** Field 3 of /proc/<pid>/stat, or null once the process is gone. */
function stateOf(pid: number): string | null {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'latin1');
    return text.slice(text.lastIndexOf(')') + 2).split(' ')[0] ?? null;
  } catch {
    return null;
  }
}

/** Alive: neither gone nor a zombie. */
function alive(pid: number): boolean {
  const state = stateOf(pid);
  return state !== null && state !== 'Z' && state !== 'X';
}

async function until<T>(probe: () => T | Promise<T>, ok: (v: T) => boolean, ms = 5000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await probe();
    if (ok(v) || Date.now() > end) return v;
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** A container holding a shell that forked a grandchild: at least two live processes. */
async function shellWithGrandchild(script = 'sleep 100 & sleep 100'): Promise<{ cont: bigint; pgid: number; pids: number[] }> {
  const cont = (await plugin.proctrack_p_create(step(null)))!;
  const child = spawnGroup('sh', ['-c', script]);
  expect(await plugin.proctrack_p_add(step(cont), child.pid)).toBe(SLURM_SUCCESS);
  const pids = (await until(() => plugin.proctrack_p_get_pids(cont), (p) => (p?.length ?? 0) >= 2))!;
  expect(pids.length).toBeGreaterThanOrEqual(2);
  return { cont, pgid: child.pid, pids: [...pids] };
}

beforeEach(async () => {
  errnos = [];
  errors = [];
  plugin = await load();
});

afterEach(() => {
  for (const pgid of groups.splice(0)) {
    try {
      process.kill(-pgid, SIGKILL);
    } catch {
      // already gone
    }
  }
  for (const dir of tmpDirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('proctrack/pgid', () => {
  it("exports Slurm's header symbols", () => {
    expect(plugin.plugin_type).toBe('proctrack/pgid');
    expect(plugin.plugin_name).toBe('Process tracking via process group ID plugin');
    expect(plugin.plugin_version).toBe((0 << 16) | (1 << 8) | 0);
  });

  it('creates distinct non-zero containers that cannot be taken for a pgid', async () => {
    const a = await plugin.proctrack_p_create(step(null));
    const b = await plugin.proctrack_p_create(step(null));
    expect(a).not.toBe(b);
    expect(a! >= 1n << 32n).toBe(true);
  });

  it('an empty container: no pids, signal 0 says none left, wait returns at once', async () => {
    const cont = (await plugin.proctrack_p_create(step(null)))!;
    expect(await plugin.proctrack_p_get_pids(cont)).toEqual([]);
    expect(await plugin.proctrack_p_has_pid(cont, process.pid)).toBe(false);
    expect(await plugin.proctrack_p_signal(cont, 0)).toBe(SLURM_ERROR);
    expect(errnos).toEqual([ESRCH]);
    expect(await plugin.proctrack_p_signal(cont, SIGTERM)).toBe(SLURM_SUCCESS);
    expect(await plugin.proctrack_p_wait(cont)).toBe(SLURM_SUCCESS);
  });

  it('tracks a task and the grandchild it forks: find, get_pids, has_pid', async () => {
    const { cont, pgid, pids } = await shellWithGrandchild();
    expect(pids).toContain(pgid);
    for (const pid of pids) {
      expect(await plugin.proctrack_p_has_pid(cont, pid)).toBe(true);
      expect(await plugin.proctrack_p_find(pid)).toBe(cont);
    }
    expect(await plugin.proctrack_p_has_pid(cont, process.pid)).toBe(false);
    expect(await plugin.proctrack_p_find(process.pid)).not.toBe(cont);
    expect(await plugin.proctrack_p_signal(cont, 0)).toBe(SLURM_SUCCESS);
    // The same group by its raw pgid, as Slurm's ids are.
    expect(await plugin.proctrack_p_get_pids(BigInt(pgid))).toEqual(pids);
    expect(await plugin.proctrack_p_has_pid(BigInt(pgid), pids[1]!)).toBe(true);
  });

  it('signal reaches every process of the group, grandchild included', async () => {
    const { cont, pids } = await shellWithGrandchild();
    expect(await plugin.proctrack_p_signal(cont, SIGTERM)).toBe(SLURM_SUCCESS);
    await until(async () => pids.filter(alive), (left) => left.length === 0);
    expect(pids.filter(alive)).toEqual([]);
    expect(await plugin.proctrack_p_get_pids(cont)).toEqual([]);
    // Nothing left: signalling again is not an error, asking "anyone left?" says no.
    expect(await plugin.proctrack_p_signal(cont, SIGTERM)).toBe(SLURM_SUCCESS);
    expect(await plugin.proctrack_p_signal(cont, 0)).toBe(SLURM_ERROR);
  });

  it('wait SIGKILLs whatever ignores SIGTERM and returns once the group is empty', async () => {
    const { cont, pids } = await shellWithGrandchild("trap '' TERM; sleep 100 & sleep 100");
    expect(await plugin.proctrack_p_signal(cont, SIGTERM)).toBe(SLURM_SUCCESS);
    expect(await plugin.proctrack_p_wait(cont)).toBe(SLURM_SUCCESS);
    expect(pids.filter(alive)).toEqual([]);
    expect(await plugin.proctrack_p_get_pids(cont)).toEqual([]);
  });

  it('a container may hold several process groups (one per detached task)', async () => {
    const cont = (await plugin.proctrack_p_create(step(null)))!;
    const a = spawnGroup('sleep', ['100']);
    const b = spawnGroup('sleep', ['100']);
    expect(await plugin.proctrack_p_add(step(cont), a.pid)).toBe(SLURM_SUCCESS);
    expect(await plugin.proctrack_p_add(step(cont), b.pid)).toBe(SLURM_SUCCESS);
    expect(await plugin.proctrack_p_get_pids(cont)).toEqual([a.pid, b.pid].sort((x, y) => x - y));
    expect(await plugin.proctrack_p_find(b.pid)).toBe(cont);
    expect(await plugin.proctrack_p_wait(cont)).toBe(SLURM_SUCCESS);
    expect([a.pid, b.pid].filter(alive)).toEqual([]);
  });

  it('wait gives up after unkillable_timeout with an error', async () => {
    plugin = await load({ unkillable_timeout: 0 });
    const { cont, pids } = await shellWithGrandchild();
    expect(await plugin.proctrack_p_wait(cont)).toBe(SLURM_ERROR);
    expect(errnos).toEqual([EBUSY]);
    expect(errors.join('\n')).toMatch(/Unable to destroy container \d+ in pgid plugin, giving up after 0 sec/);
    expect(pids.filter(alive)).toEqual(pids);
  });

  it('rejects a bad unkillable_timeout option', async () => {
    await load({ unkillable_timeout: 'soon' });
    expect(errors.join('\n')).toMatch(/invalid unkillable_timeout/);
  });

  it('reads the pgid past a comm that holds spaces and parentheses', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'pgid-'));
    tmpDirs.push(dir);
    // A naive parse would read state "Z" and pgid 1 from this name.
    const exe = path.join(dir, 't) Z 9 1 (x');
    symlinkSync(process.execPath, exe);
    const child = spawnGroup(exe, ['-e', 'setTimeout(() => {}, 100000)']);
    await until(async () => readFileSync(`/proc/${child.pid}/stat`, 'latin1'), (s) => s.includes('(t) Z 9 1 (x)'));
    expect(await plugin.proctrack_p_find(child.pid)).toBe(BigInt(child.pid));
    const cont = (await plugin.proctrack_p_create(step(null)))!;
    expect(await plugin.proctrack_p_add(step(cont), child.pid)).toBe(SLURM_SUCCESS);
    expect(await plugin.proctrack_p_get_pids(cont)).toEqual([child.pid]);
    expect(await plugin.proctrack_p_find(child.pid)).toBe(cont);
  });

  it("refuses the step daemon's own process group", async () => {
    const cont = (await plugin.proctrack_p_create(step(null)))!;
    const child = spawn('sleep', ['100'], { stdio: 'ignore' }); // not detached: our group
    try {
      expect(await plugin.proctrack_p_add(step(cont), child.pid!)).toBe(SLURM_ERROR);
      expect(errnos).toEqual([EINVAL]);
      const own = (await plugin.proctrack_p_find(process.pid))!;
      // Signal 0 only, so that a broken guard cannot kill the test runner.
      expect(await plugin.proctrack_p_signal(own, 0)).toBe(SLURM_ERROR);
      expect(errors.join('\n')).toMatch(/would kill caller/);
    } finally {
      child.kill('SIGKILL');
    }
  });

  it('answers for unknown processes and ids', async () => {
    const cont = (await plugin.proctrack_p_create(step(null)))!;
    expect(await plugin.proctrack_p_add(step(null), process.pid)).toBe(SLURM_ERROR);
    expect(await plugin.proctrack_p_add(step(cont), 0x7ffffff0)).toBe(SLURM_ERROR);
    expect(errnos).toEqual([EINVAL, ESRCH]);
    expect(await plugin.proctrack_p_find(0x7ffffff0)).toBeNull();
    expect(await plugin.proctrack_p_has_pid(cont, 0x7ffffff0)).toBe(false);
    expect(await plugin.proctrack_p_get_pids(0n)).toBeNull();
    expect(await plugin.proctrack_p_wait(1n)).toBe(SLURM_ERROR);
    expect(await plugin.proctrack_p_signal(0n, SIGTERM)).toBe(SLURM_ERROR);
  });

  it('destroy forgets the container and leaves its processes alone', async () => {
    const { cont, pids } = await shellWithGrandchild();
    expect(await plugin.proctrack_p_destroy(cont)).toBe(SLURM_SUCCESS);
    expect(await plugin.proctrack_p_get_pids(cont)).toBeNull();
    expect(await plugin.proctrack_p_signal(cont, SIGKILL)).toBe(SLURM_ERROR);
    expect(pids.filter(alive)).toEqual(pids);
  });
});
