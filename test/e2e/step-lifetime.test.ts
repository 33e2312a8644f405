// No process outlives its step, by default (issue 16, defect 7): a task that starts a `setsid`
// daemon and a double-forked grandchild, both holding the task's output pipe, leaves nothing
// behind after a double Ctrl-C, tscancel, the time limit or a SIGKILL of tsrun, under the
// default proctrack and each plugin that promises it; and tsrun returns within KillWait and a
// margin even where a process escapes (proctrack/pgid), instead of waiting on its output.
import { afterEach, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { accessSync, constants, existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fixture, repoRoot, runBin, startBin } from '../helpers/run-bin.js';
import { leftovers, liveWithMark } from '../helpers/proc-scan.js';
import { testController } from '../helpers/controller.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const KILL_WAIT = 1;
// Generous: a loaded 2-core machine starts Node processes slowly; the old code waited for ever.
const PROMPT_MS = (KILL_WAIT + 12) * 1000;

const cgroupRoot = ['/sys/fs/cgroup', '/sys/fs/cgroup/unified'].find((dir) => existsSync(`${dir}/cgroup.controllers`) && writable(dir));
function writable(dir: string): boolean {
  try {
    accessSync(dir, constants.W_OK);
    return true;
  } catch {
    return false;
  }
}

// Each task: a setsid daemon and a double-forked sleep (both inherit the task's stdout), then
// it says it is ready (and which job it is in) and becomes a sleep (a shell waiting for a
// child defers a SIGINT: srun's 130 needs the task to die of it).
function task(dir: string): string[] {
  return ['sh', '-c', `setsid sleep 1000 & (sleep 1001 &); echo $SLURM_JOB_ID > ${dir}/job; touch ${dir}/ready-$SLURM_PROCID; exec sleep 300`];
}

async function ready(dir: string, n: number): Promise<void> {
  for (let i = 0; i < 600; i++) {
    if (Array.from({ length: n }, (_, t) => path.join(dir, `ready-${t}`)).every((f) => existsSync(f))) return;
    await sleep(25);
  }
  throw new Error('tasks did not start');
}

const marks: string[] = [];
afterEach(() => {
  // What a case left (an escape under pgid, or a failure) must not outlive the test run.
  for (const mark of marks.splice(0)) for (const pid of liveWithMark(mark)) process.kill(pid, 'SIGKILL');
});

function setup(): { mark: string; dir: string; env: Record<string, string> } {
  const mark = randomUUID();
  marks.push(mark);
  return { mark, dir: mkdtempSync(path.join(tmpdir(), 'tslurm-life-')), env: { TSLURM_KILL_WAIT: String(KILL_WAIT) } };
}

const exported = (mark: string) => `--export=ALL,TSLURM_TEST_MARK=${mark}`;

const tracked = [
  { name: 'the default proctrack', cluster: [] as string[], skip: false },
  { name: 'proctrack/linuxproc', cluster: ['--cluster', fixture('clusters', 'proctrack-linuxproc.yaml')], skip: false },
  { name: `proctrack/cgroup (${cgroupRoot ?? 'SKIPPED: no writable cgroup v2 hierarchy'})`, cluster: ['--cluster', fixture('clusters', 'proctrack-cgroup.yaml')], skip: !cgroupRoot },
];

it(`the default proctrack is the strongest the host allows (${cgroupRoot ? 'cgroup' : 'linuxproc'} here)`, async () => {
  const shown = await runBin('tscontrol', ['show', 'config']);
  expect(shown.stdout).toMatch(new RegExp(`^ProctrackType\\s+= proctrack/${cgroupRoot ? 'cgroup' : 'linuxproc'}$`, 'm'));
});

describe.each(tracked)('nothing outlives the step under $name', ({ cluster, skip }) => {
  it.skipIf(skip)('a double Ctrl-C', async () => {
    const { mark, dir, env } = setup();
    const run = startBin('tsrun', [...cluster, exported(mark), '-n2', ...task(dir)], { env });
    await ready(dir, 2);
    expect(liveWithMark(mark).length).toBeGreaterThanOrEqual(6);
    run.kill('SIGINT');
    await sleep(200);
    run.kill('SIGINT');
    const start = Date.now();
    const r = await run;
    expect(Date.now() - start).toBeLessThan(PROMPT_MS);
    expect(String(r.stderr)).toContain('tsrun: forcing job termination\n');
    expect(r.exitCode).toBe(130);
    expect(await leftovers(mark)).toEqual([]);
  });

  it.skipIf(skip)('the time limit', async () => {
    const { mark, dir, env } = setup();
    const start = Date.now();
    const r = await startBin('tsrun', [...cluster, exported(mark), '-t', '1', '-n2', ...task(dir)], { env: { ...env, TSLURM_MINUTE_SECONDS: '2' } });
    expect(Date.now() - start).toBeLessThan(2000 + PROMPT_MS);
    expect(String(r.stderr)).toMatch(/CANCELLED AT \S+ DUE TO TIME LIMIT/);
    expect(await leftovers(mark)).toEqual([]);
  });

  it.skipIf(skip)('a SIGKILL of tsrun', async () => {
    const { mark, dir, env } = setup();
    const run = startBin('tsrun', [...cluster, exported(mark), '-n2', ...task(dir)], { env });
    await ready(dir, 2);
    run.kill('SIGKILL');
    await run;
    // Generous: with the Node reaper (no compiler at build) a loaded machine takes seconds to act.
    expect(await leftovers(mark, KILL_WAIT * 1000 + 15_000)).toEqual([]);
  });

  it.skipIf(skip)('tscancel of the job tsrun runs under a controller', async () => {
    const { mark, dir, env } = setup();
    const ctl = testController(env);
    try {
      await ctl.run('tsbatch', [...cluster, '--wrap', 'true']); // starts the controller
      const run = startBin('tsrun', [...cluster, exported(mark), '-n2', ...task(dir)], { cwd: ctl.workDir, env: ctl.env });
      await ready(dir, 2);
      const job = readFileSync(path.join(dir, 'job'), 'utf8').trim();
      expect((await ctl.run('tscancel', [job])).exitCode).toBe(0);
      const start = Date.now();
      const r = await run;
      expect(Date.now() - start).toBeLessThan(PROMPT_MS);
      expect(r.exitCode).toBe(143);
      expect(await leftovers(mark)).toEqual([]);
    } finally {
      await ctl.stop();
    }
  });
});

describe('proctrack/pgid: a setsid child escapes, as in Slurm, but tsrun does not wait for it', () => {
  const pgid = ['--cluster', fixture('clusters', 'proctrack-pgid.yaml')];

  it('returns promptly after a double Ctrl-C; what stayed in the task\'s group is gone', async () => {
    const { mark, dir, env } = setup();
    const run = startBin('tsrun', [...pgid, exported(mark), '-n1', ...task(dir)], { env });
    await ready(dir, 1);
    run.kill('SIGINT');
    await sleep(200);
    run.kill('SIGINT');
    const start = Date.now();
    const r = await run;
    expect(Date.now() - start).toBeLessThan(PROMPT_MS);
    expect(r.exitCode).toBe(130);
    // Only the setsid daemon is left: the double-forked sleep stayed in the group.
    const left = await leftovers(mark, 1000);
    expect(left.map((pid) => readFileSync(`/proc/${pid}/cmdline`, 'latin1').replace(/\0/g, ' ').trim())).toEqual(['sleep 1000']);
  });

  it('returns promptly when the tasks exit and leave a daemon holding their output', async () => {
    const { mark, dir, env } = setup();
    const start = Date.now();
    const r = await startBin('tsrun', [...pgid, exported(mark), '-n1', 'sh', '-c', `setsid sleep 1000 & echo ${dir} done`], { env });
    expect(Date.now() - start).toBeLessThan(PROMPT_MS);
    expect(r).toMatchObject({ exitCode: 0, stdout: `${dir} done\n`, stderr: '' });
  });
});

// tsrun starts no process of its own: its tasks are children of the state directory's step
// host, whose guard is the native step guard (native/step-guard) when the build had a
// compiler: an exec, not a second Node start-up; the Node reaper, the same program, remains for
// a build without one (TSLURM_NODE_REAPER=1 chooses it here, for a host this tsrun starts).
const guardBuilt = existsSync(path.join(repoRoot, 'dist', 'native', 'tsstep_guard'));

/** The parent of `pid` (from /proc/PID/stat). */
function parentOf(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
}

describe('the step host and its guard', () => {
  it.skipIf(!guardBuilt)("runs tsrun's tasks as its children, beside its native guard; tsrun starts neither task nor guard", async () => {
    const { mark, dir, env } = setup();
    const run = startBin('tsrun', [exported(mark), '-n2', ...task(dir)], { env });
    try {
      await ready(dir, 2);
      const tasks = liveWithMark(mark).filter((pid) => commandOf(pid) === 'sleep 300');
      expect(tasks).toHaveLength(2);
      // Through the host's spawn server: the tasks' parent, the host's child.
      const servers = [...new Set(tasks.map(parentOf))];
      expect(servers.map(commandOf)).toEqual([expect.stringMatching(/\/dist\/native\/tsspawn_server$/)]);
      const hosts = servers.map(parentOf);
      expect(hosts.map(commandOf)).toEqual([expect.stringMatching(/tsstepd\.js --embedded/)]);
      expect(childrenOf(hosts[0]!).map(commandOf)).toEqual(expect.arrayContaining([expect.stringMatching(/\/dist\/native\/tsstep_guard \S+ \S+\/groups$/)]));
      const own = childrenOf(run.pid!).map(commandOf);
      expect(own.filter((c) => /tsstep_guard|reaper\.js|sleep/.test(c))).toEqual([]);
    } finally {
      run.kill('SIGKILL');
      await run;
    }
    expect(await leftovers(mark, KILL_WAIT * 1000 + 15_000)).toEqual([]);
  });

  it('a SIGKILLed step host: its guard (the Node reaper here) ends the tasks, and tsrun ends the step as a node failure', async () => {
    const { mark, dir, env } = setup();
    const run = startBin('tsrun', [exported(mark), '-n2', ...task(dir)], { env: { ...env, TSLURM_NODE_REAPER: '1' } });
    await ready(dir, 2);
    const server = parentOf(liveWithMark(mark).find((pid) => commandOf(pid) === 'sleep 300')!);
    const host = parentOf(server);
    expect(childrenOf(host).map(commandOf)).toEqual(expect.arrayContaining([expect.stringMatching(/\/stepd\/reaper\.js /)]));
    process.kill(host, 'SIGKILL');
    const r = await run;
    expect(String(r.stderr)).toContain('Node failure on node1');
    expect(r.exitCode).not.toBe(0);
    expect(await leftovers(mark, KILL_WAIT * 1000 + 15_000)).toEqual([]);
    // The spawn server kills nothing itself: it reaps what the guard ended, then goes too.
    const gone = Date.now() + 15_000;
    while (commandOf(server).includes('tsspawn_server') && Date.now() < gone) await sleep(100);
    expect(commandOf(server)).not.toContain('tsspawn_server');
  });
});

function childrenOf(parent: number): number[] {
  const found: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'latin1');
      if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === parent) found.push(Number(name));
    } catch {
      // gone
    }
  }
  return found;
}

function commandOf(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'latin1').replace(/\0/g, ' ').trim();
  } catch {
    return '';
  }
}
