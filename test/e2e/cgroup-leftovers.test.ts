// proctrack/cgroup's tree on a host shared by several step hosts (state directories whose job
// ids repeat, tests in parallel): each step host keeps its steps under a level of its own,
// stepd_<pid>_<start>; what a dead one left empty (killed together with its guard, which then
// cannot clean up) is removed by the next step host, as slurmd cleans up after jobs it no longer
// runs; a cgroup that still holds a process, or whose step host still runs, is kept. Needs a
// writable cgroup v2 hierarchy: skipped otherwise, the reason in the title.
import { describe, expect, it } from 'vitest';
import { accessSync, constants, existsSync, mkdirSync, readdirSync, readFileSync, rmdirSync, utimesSync, writeFileSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { fixture, startBin } from '../helpers/run-bin.js';
import { testController } from '../helpers/controller.js';
import { alive, pidIn } from '../helpers/processes.js';

const CGROUP = fixture('clusters', 'proctrack-cgroup.yaml');
const cgroupRoot = ['/sys/fs/cgroup', '/sys/fs/cgroup/unified'].find((dir) => existsSync(`${dir}/cgroup.controllers`) && writable(dir));
const note = cgroupRoot ? `cgroup v2 at ${cgroupRoot}` : 'SKIPPED: no writable cgroup v2 hierarchy on this machine';

function writable(dir: string): boolean {
  try {
    accessSync(dir, constants.W_OK);
    return true;
  } catch {
    return false;
  }
}

/** Field 22 of /proc/<pid>/stat: the process's start time, as the owner level names it. */
function startTime(pid: number | 'self'): string {
  const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19]!;
}

/** The children of `pid` whose command line matches. */
function childrenOf(pid: number, command: RegExp): number[] {
  const found: number[] = [];
  for (const name of readdirSync('/proc').filter((n) => /^\d+$/.test(n))) {
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'latin1');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === pid && command.test(readFileSync(`/proc/${name}/cmdline`, 'latin1'))) found.push(Number(name));
    } catch {
      // gone
    }
  }
  return found;
}

const populated = (dir: string): boolean => /^populated 1$/m.test(readFileSync(path.join(dir, 'cgroup.events'), 'utf8'));

function stopHost(stateDir: string): void {
  const pid = pidIn(path.join(stateDir, 'tsstepd.pid'));
  if (pid !== undefined && alive(pid)) process.kill(pid, 'SIGTERM');
}

describe(`proctrack/cgroup's leftovers (${note})`, () => {
  it.skipIf(!cgroupRoot)("the next step host removes what a host killed with its guard left empty, never a cgroup with a process or a live host's", async () => {
    const ctl = testController({ TSLURM_STEPD_IDLE_EXIT: '60' });
    const tree = `${cgroupRoot}/tslurm`;
    // An empty step cgroup of a step host that still runs (this test's process stands for it).
    const liveOwned = path.join(tree, `stepd_${process.pid}_${startTime('self')}`, 'node_node1', 'job_1', 'step_0');
    let stepDir: string | undefined;
    try {
      mkdirSync(liveOwned, { recursive: true });
      const run = startBin('tsrun', ['--cluster', CGROUP, 'sh', '-c', "sed -n 's/^0:://p' /proc/self/cgroup > cg.txt; exec sleep 300"], { cwd: ctl.workDir, env: ctl.env });
      const cgFile = path.join(ctl.workDir, 'cg.txt');
      await ctl.until(() => existsSync(cgFile) && readFileSync(cgFile, 'utf8').endsWith('\n'));
      const host = pidIn(path.join(ctl.stateDir, 'tsstepd.pid'))!;
      stepDir = `${cgroupRoot}${readFileSync(cgFile, 'utf8').trim()}`;
      const hostLevel = path.join(tree, `stepd_${host}_${startTime(host)}`);
      expect(stepDir).toBe(path.join(hostLevel, 'node_node1', 'job_1', 'step_0'));

      // The host and its guard SIGKILLed: nothing is left to end the task or remove its cgroup.
      const guards = childrenOf(host, /tsstep_guard|reaper\.js/);
      expect(guards).toHaveLength(1);
      process.kill(guards[0]!, 'SIGKILL');
      process.kill(host, 'SIGKILL');
      await run;
      expect(populated(stepDir)).toBe(true);
      // An empty step cgroup the dead host left beside it.
      const emptyLeftover = path.join(path.dirname(stepDir), 'step_1');
      mkdirSync(emptyLeftover);

      // The next step host removes the empty one; the one with the task stays, as does the live host's.
      const next = await ctl.run('tsrun', ['--cluster', CGROUP, 'true']);
      expect(next).toMatchObject({ exitCode: 0, stderr: '' });
      const nextHost = pidIn(path.join(ctl.stateDir, 'tsstepd.pid'))!;
      expect(nextHost).not.toBe(host);
      await ctl.until(() => !existsSync(emptyLeftover));
      expect(existsSync(stepDir)).toBe(true);
      expect(existsSync(liveOwned)).toBe(true);

      // Once the task is gone, the host after that one removes the dead host's whole level; the
      // host that stopped normally took its own level with it.
      writeFileSync(path.join(stepDir, 'cgroup.kill'), '1');
      await ctl.until(() => !populated(stepDir!));
      const nextLevel = path.join(tree, `stepd_${nextHost}_${startTime(nextHost)}`);
      stopHost(ctl.stateDir);
      await ctl.until(() => !alive(nextHost));
      expect(existsSync(nextLevel)).toBe(false);
      expect(await ctl.run('tsrun', ['--cluster', CGROUP, 'true'])).toMatchObject({ exitCode: 0, stderr: '' });
      await ctl.until(() => !existsSync(hostLevel));
      expect(existsSync(liveOwned)).toBe(true);
    } finally {
      if (stepDir !== undefined && existsSync(stepDir)) writeFileSync(path.join(stepDir, 'cgroup.kill'), '1');
      for (let dir = liveOwned, i = 0; i < 4; dir = path.dirname(dir), i++) if (existsSync(dir)) rmdirSync(dir);
      stopHost(ctl.stateDir);
      await ctl.stop();
    }
  });

  it.skipIf(!cgroupRoot)("a batch step whose job container cannot be joined fails, and its step cgroup goes with it", async () => {
    const ctl = testController({ TSLURM_PLUGIN_DIR: fixture('plugins', 'join-fails'), TSLURM_STEPD_IDLE_EXIT: '60' });
    const cluster = path.join(ctl.workDir, 'cluster.yaml');
    writeFileSync(cluster, readFileSync(CGROUP, 'utf8').replace('plugins:\n', 'plugins:\n  job_container: job_container/joinfails\n'));
    try {
      const id = (await ctl.run('tsbatch', ['--cluster', cluster, '--parsable', '--wrap', 'echo ran'])).stdout.trim();
      await ctl.until(async () => (await ctl.jobField(id, 'JobState')) === 'FAILED');
      const host = pidIn(path.join(ctl.stateDir, 'tsstepd.pid'))!;
      const jobDir = path.join(`${cgroupRoot}/tslurm`, `stepd_${host}_${startTime(host)}`, 'node_node1', `job_${id}`);
      expect(existsSync(jobDir)).toBe(false);
    } finally {
      stopHost(ctl.stateDir);
      await ctl.stop();
    }
  });

  it.skipIf(!cgroupRoot)('the layout of older versions (no host level): an empty step cgroup an hour old is removed, a recent one kept', async () => {
    const ctl = testController();
    const legacy = path.join(`${cgroupRoot}/tslurm`, `node_legacy-${randomUUID()}`);
    const old = path.join(legacy, 'job_1', 'step_0');
    const recent = path.join(legacy, 'job_2', 'step_0');
    try {
      mkdirSync(old, { recursive: true });
      mkdirSync(recent, { recursive: true });
      const twoHoursAgo = new Date(Date.now() - 2 * 3600_000);
      utimesSync(old, twoHoursAgo, twoHoursAgo);
      expect(await ctl.run('tsrun', ['--cluster', CGROUP, 'true'])).toMatchObject({ exitCode: 0, stderr: '' });
      await ctl.until(() => !existsSync(path.dirname(old)));
      expect(existsSync(recent)).toBe(true);
    } finally {
      for (const dir of [old, path.dirname(old), recent, path.dirname(recent), legacy]) if (existsSync(dir)) rmdirSync(dir);
      stopHost(ctl.stateDir);
      await ctl.stop();
    }
  });
});
