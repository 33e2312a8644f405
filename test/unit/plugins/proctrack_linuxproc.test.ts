// proctrack/linuxproc against real processes: the tree under a task by parent pid, setsid'd
// children included, and a daemon re-parented away from the tree, found by the step's marks.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { constants } from 'node:os';
import { SLURM_ERROR, SLURM_SUCCESS, type PluginHost, type ProctrackPlugin, type ProctrackStep } from '../../../src/plugin-api/index.js';

type Module = ProctrackPlugin & { init(host: PluginHost): number };
const { SIGKILL } = constants.signals;

let plugin: Module;
let errnos: number[];
const started: number[] = [];

const STEP: Omit<ProctrackStep, 'cont_id'> = { jobid: 4242, stepid: 3, uid: 0, gid: 0, node_name: 'lp1' };
/** The step's environment as the host gives it to proctrack_p_create, which adds its mark. */
function stepEnv(): { env: ProctrackStep['env']; vars: Record<string, string> } {
  const vars: Record<string, string> = {};
  const env = {
    get: (n: string) => vars[n] ?? null,
    set: (n: string, v: string) => void (vars[n] = v),
    append: (n: string, v: string) => void (vars[n] ??= v),
    unset: (n: string) => void delete vars[n],
    entries: () => Object.entries(vars).map(([k, v]) => `${k}=${v}`),
  };
  return { env, vars };
}

beforeEach(async () => {
  errnos = [];
  vi.resetModules();
  plugin = (await import('../../../plugins/proctrack_linuxproc.js')) as unknown as Module;
  const host: PluginHost = {
    log: { error: () => {}, info: () => {}, verbose: () => {}, debug: () => {} },
    slurm_seterrno: (e) => errnos.push(e),
    slurm_strerror: (e) => `errno ${e}`,
    version: { major: 0, minor: 1, micro: 0 },
    options: {},
    clusterName: 'test',
    time: () => Math.floor(Date.now() / 1000),
  };
  expect(plugin.init(host)).toBe(SLURM_SUCCESS);
});

afterEach(() => {
  for (const pid of started.splice(0)) {
    try {
      process.kill(-pid, SIGKILL);
    } catch {
      // gone
    }
  }
});

function task(script: string, env: Record<string, string> = {}): number {
  const child = spawn('sh', ['-c', script], { detached: true, stdio: 'ignore', env: { PATH: process.env.PATH, ...env } });
  started.push(child.pid!);
  return child.pid!;
}

async function until(probe: () => Promise<boolean>, ms = 5000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await probe()) && Date.now() < end) await new Promise((r) => setTimeout(r, 25));
}

function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
    return !/^[ZX]$/.test(stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3));
  } catch {
    return false;
  }
}

describe('proctrack/linuxproc', () => {
  it('tracks the tree under a task, a setsid child included, and wait empties it', async () => {
    const cont = (await plugin.proctrack_p_create({ ...STEP, cont_id: null }))!;
    const pid = task(`setsid sleep 100 & sleep 100`);
    expect(await plugin.proctrack_p_add({ ...STEP, cont_id: cont }, pid)).toBe(SLURM_SUCCESS);
    await until(async () => ((await plugin.proctrack_p_get_pids(cont)) ?? []).length >= 3);
    const pids = (await plugin.proctrack_p_get_pids(cont))!;
    expect(pids.length).toBe(3);
    // The first task's pid names the container too, as Slurm's ids do.
    expect(await plugin.proctrack_p_get_pids(BigInt(pid))).toEqual(pids);
    for (const p of pids) expect(await plugin.proctrack_p_find(p)).toBe(cont);
    expect(await plugin.proctrack_p_signal(cont, 0)).toBe(SLURM_SUCCESS);
    expect(await plugin.proctrack_p_wait(cont)).toBe(SLURM_SUCCESS);
    expect(pids.filter(alive)).toEqual([]);
    expect(await plugin.proctrack_p_signal(cont, 0)).toBe(SLURM_ERROR);
  });

  it('finds a daemon whose parent exited through the mark it put in the step\'s environment', async () => {
    const { env, vars } = stepEnv();
    const cont = (await plugin.proctrack_p_create({ ...STEP, cont_id: null, env }))!;
    expect(vars.TSLURM_PROCTRACK_MARK).toMatch(/^4242\.3\.[0-9a-f-]{36}$/);
    const pid = task(`setsid sh -c 'sleep 100' & echo`, vars);
    await plugin.proctrack_p_add({ ...STEP, cont_id: cont }, pid);
    await until(async () => !alive(pid));
    await until(async () => ((await plugin.proctrack_p_get_pids(cont)) ?? []).length >= 1);
    const pids = (await plugin.proctrack_p_get_pids(cont))!;
    expect(pids.length).toBeGreaterThanOrEqual(1);
    expect(pids).not.toContain(pid);
    expect(await plugin.proctrack_p_wait(cont)).toBe(SLURM_SUCCESS);
    expect(pids.filter(alive)).toEqual([]);
  });

  it('leaves alone processes of another step, even one with the same ids', async () => {
    const cont = (await plugin.proctrack_p_create({ ...STEP, cont_id: null, env: stepEnv().env }))!;
    const other = task('sleep 100', { SLURM_JOB_ID: '4242', SLURM_STEP_ID: '3', TSLURM_PROCTRACK_MARK: '4242.3.other' });
    expect(await plugin.proctrack_p_has_pid(cont, other)).toBe(false);
    expect(await plugin.proctrack_p_wait(cont)).toBe(SLURM_SUCCESS);
    expect(alive(other)).toBe(true);
  });

  it('answers for unknown ids and processes', async () => {
    expect(await plugin.proctrack_p_add({ ...STEP, cont_id: null }, process.pid)).toBe(SLURM_ERROR);
    expect(await plugin.proctrack_p_get_pids(0n)).toBeNull();
    expect(await plugin.proctrack_p_find(0x7ffffff0)).toBeNull();
    expect(errnos).toEqual([constants.errno.EINVAL, constants.errno.EINVAL]);
  });
});
