// The embedded step host (tsstepd --embedded): started on demand by the controller for the
// first batch job, gone once idle; batch scripts are its children (no Node process per job);
// it outlives a SIGKILLed controller and hands the result to the next one; SIGKILLed itself,
// its jobs end NODE_FAIL (or are requeued) and nothing its scripts started survives it.
import { afterAll, describe, expect, it } from 'vitest';
import { existsSync, readFileSync, readdirSync, readlinkSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fixture } from '../helpers/run-bin.js';
import { testController, type TestController } from '../helpers/controller.js';
import { alive, pidIn } from '../helpers/processes.js';

const small = fixture('clusters', 'small.yaml');

/** Node processes (tsctld, tsstepd, a per-job daemon) whose environment names this state directory. */
function nodeProcessesOf(stateDir: string): number[] {
  return readdirSync('/proc').filter((name) => /^\d+$/.test(name)).flatMap((name) => {
    try {
      if (readlinkSync(`/proc/${name}/exe`) !== process.execPath || !alive(Number(name))) return [];
      return readFileSync(`/proc/${name}/environ`, 'latin1').split('\0').includes(`TSLURM_STATE_DIR=${stateDir}`) ? [Number(name)] : [];
    } catch {
      return [];
    }
  });
}

/** The batch scripts' `sleep`s running for this state directory (their environment names it). */
function scriptsOf(stateDir: string): number {
  return readdirSync('/proc').filter((name) => {
    try {
      return /^\d+$/.test(name) && readFileSync(`/proc/${name}/comm`, 'latin1') === 'sleep\n' && readFileSync(`/proc/${name}/environ`, 'latin1').split('\0').includes(`TSLURM_STATE_DIR=${stateDir}`);
    } catch {
      return false;
    }
  }).length;
}

const hostPid = (ctl: TestController) => pidIn(path.join(ctl.stateDir, 'tsstepd.pid'));
const ctldPid = (ctl: TestController) => pidIn(path.join(ctl.stateDir, 'tsctld.pid'));

function stopHost(ctl: TestController): void {
  const pid = hostPid(ctl);
  if (pid !== undefined && alive(pid)) process.kill(pid, 'SIGTERM');
}

describe('the step host started on demand', () => {
  const ctl = testController({ TSLURM_STEPD_IDLE_EXIT: '2' });
  afterAll(async () => (stopHost(ctl), ctl.stop()));

  it('starts with the first batch job, runs it as its child, and exits once idle; the next job starts another', async () => {
    expect(existsSync(path.join(ctl.stateDir, 'tsstepd.pid'))).toBe(false);
    const first = await ctl.run('tsbatch', ['--cluster', small, '--parsable', '--wait', '--wrap', 'echo $(cat /proc/$PPID/comm) parent $(cut -d" " -f4 /proc/$PPID/stat)']);
    expect(first).toMatchObject({ exitCode: 0, stderr: '' });
    const host = hostPid(ctl)!;
    expect(alive(host)).toBe(true);
    expect(readFileSync(`/proc/${host}/cmdline`, 'latin1').split('\0')).toContain('--embedded');
    // The script's parent is the step host's spawn server, the step host's child, which waits
    // for it and reports its rusage itself: no task exec helper between (one fork, one exec),
    // no Node process between, and no Node fork either.
    expect(ctl.read(`slurm-${first.stdout.trim()}.out`)).toBe(`tsspawn_server parent ${host}\n`);
    await ctl.until(() => !alive(host), 20_000);
    expect(existsSync(path.join(ctl.stateDir, 'tsstepd.pid'))).toBe(false);
    expect(alive(ctldPid(ctl)!)).toBe(true);
    const second = await ctl.run('tsbatch', ['--cluster', small, '--parsable', '--wait', '--wrap', 'true']);
    expect(second.exitCode).toBe(0);
    expect(hostPid(ctl)).not.toBe(host);
  });
});

describe('no Node process per batch job', () => {
  const ctl = testController();
  afterAll(async () => {
    await ctl.run('tscancel', ['-u', process.env.USER ?? 'root']).catch(() => {});
    stopHost(ctl);
    await ctl.stop();
  });

  it('runs 20 batch jobs at once with two Node processes in all: the controller and the step host', async () => {
    const cluster = path.join(ctl.workDir, 'wide.yaml');
    writeFileSync(cluster, 'cluster: wide\nnodes:\n  - name: w[1-2]\n    cpus: 16\npartitions:\n  - name: p\n    nodes: ALL\n    default: true\n');
    const submitted = await ctl.run('tsbatch', ['--cluster', cluster, '--parsable', '--array', '1-20', '--wrap', 'sleep 60']);
    expect(submitted.exitCode).toBe(0);
    await ctl.until(async () => (await ctl.run('tsqueue', ['--cluster', cluster, '-h', '-t', 'R', '-o', '%i'])).stdout.trim().split('\n').length === 20, 30_000);
    // RUNNING is the controller's word (as in Slurm, before the launch reaches the node): the
    // step host the first launch starts, and the scripts, may still be on their way. Counted
    // once all 20 scripts run, and again while a process the host or the controller has just
    // forked (a Node image until its exec: its spawn server, its guard) is still there.
    await ctl.until(() => scriptsOf(ctl.stateDir) === 20, 30_000);
    const expected = [ctldPid(ctl), hostPid(ctl)].sort();
    let node: number[] = [];
    await ctl.until(() => JSON.stringify((node = nodeProcessesOf(ctl.stateDir).sort())) === JSON.stringify(expected), 10_000).catch(() => undefined);
    expect(node).toEqual(expected);
    await ctl.run('tscancel', ['--cluster', cluster, submitted.stdout.trim()]);
  });
});

describe('a controller SIGKILLed under a running job', () => {
  const ctl = testController();
  afterAll(async () => (stopHost(ctl), ctl.stop()));

  it('leaves the job running; its result, kept while no controller listens, reaches the restarted controller', async () => {
    const flag = path.join(ctl.workDir, 'go');
    const started = path.join(ctl.workDir, 'started');
    const id = (await ctl.run('tsbatch', ['--cluster', small, '--parsable', '--wrap', `touch ${started}; while [ ! -e ${flag} ]; do sleep 0.1; done; echo finished; exit 3`])).stdout.trim();
    await ctl.until(() => existsSync(started));
    const host = hostPid(ctl)!;
    process.kill(ctldPid(ctl)!, 'SIGKILL');
    // The script ends while no controller runs: the host keeps its result on disk.
    writeFileSync(flag, '');
    const kept = path.join(ctl.stateDir, 'stepd', 'jobs', id, 'result.json');
    await ctl.until(() => existsSync(kept));
    expect(JSON.parse(readFileSync(kept, 'utf8'))).toMatchObject({ gen: 0, result: { status: 3 << 8 } });
    expect(ctl.read(`slurm-${id}.out`)).toBe('finished\n');
    // The next submission starts a controller, which takes the result from the same host.
    expect((await ctl.run('tsbatch', ['--cluster', small, '--hold', '--wrap', 'true'])).exitCode).toBe(0);
    await ctl.until(async () => (await ctl.jobField(id, 'JobState')) === 'FAILED');
    expect(await ctl.jobField(id, 'ExitCode')).toBe('3:0');
    expect(hostPid(ctl)).toBe(host);
    await ctl.until(() => !existsSync(kept));
  });

  it('re-attaches to a job still running on the host after a restart, and cancels it there', async () => {
    const id = (await ctl.run('tsbatch', ['--cluster', small, '--parsable', '--wrap', 'echo $$ > pid; sleep 60'])).stdout.trim();
    await ctl.until(async () => (await ctl.jobField(id, 'JobState')) === 'RUNNING' && existsSync(path.join(ctl.workDir, 'pid')));
    const script = Number(ctl.read('pid'));
    process.kill(ctldPid(ctl)!, 'SIGKILL');
    expect((await ctl.run('tsbatch', ['--cluster', small, '--hold', '--wrap', 'true'])).exitCode).toBe(0);
    expect(await ctl.jobField(id, 'JobState')).toBe('RUNNING');
    expect(alive(script)).toBe(true);
    expect((await ctl.run('tscancel', [id])).exitCode).toBe(0);
    await ctl.until(async () => (await ctl.jobField(id, 'JobState')) === 'CANCELLED');
    await ctl.until(() => !alive(script));
  });
});

describe('a controller SIGKILLed in the middle of a drain', () => {
  const ctl = testController();
  afterAll(async () => (stopHost(ctl), ctl.stop()));

  it('loses no task: each array task still ends COMPLETED, having run to its end', async () => {
    // Launches of one scheduling pass and ends of jobs are journaled together: a kill at any
    // moment may cut a launch or an end short, never lose a task or leave one half done.
    const tasks = 60;
    const array = (await ctl.run('tsbatch', ['--cluster', small, '--parsable', `--array=1-${tasks}`, '-o', 'task-%a.out', '--wrap', 'sleep 0.1; echo ok'])).stdout.trim();
    const finished = () => readdirSync(ctl.workDir).filter((name) => name.startsWith('task-') && readFileSync(path.join(ctl.workDir, name), 'utf8') === 'ok\n').length;
    await ctl.until(() => finished() >= 5, 60_000);
    process.kill(ctldPid(ctl)!, 'SIGKILL');
    expect(finished()).toBeLessThan(tasks);
    // The next command starts a controller, which recovers the journal and drains the rest.
    expect((await ctl.run('tsbatch', ['--cluster', small, '--hold', '--wrap', 'true'])).exitCode).toBe(0);
    const states = async () => {
      const shown = (await ctl.run('tscontrol', ['-o', 'show', 'job'])).stdout;
      return [...shown.matchAll(/ArrayJobId=(\d+) ArrayTaskId=(\d+) .*?JobState=(\w+)/g)].filter((m) => m[1] === array).map((m) => [Number(m[2]), m[3]] as const);
    };
    await ctl.until(async () => (await states()).filter(([, state]) => state === 'COMPLETED').length === tasks, 120_000);
    expect((await states()).map(([task]) => task).sort((a, b) => a - b)).toEqual(Array.from({ length: tasks }, (_, i) => i + 1));
    expect(finished()).toBe(tasks);
    await ctl.run('tscancel', ['-u', String(process.getuid?.() ?? 0)]);
  });
});

describe('a kill order the step host cannot take at once', () => {
  const ctl = testController();
  afterAll(async () => (stopHost(ctl), ctl.stop()));

  it('is sent again until the host takes it: the job ends CANCELLED and its script is gone', async () => {
    const id = (await ctl.run('tsbatch', ['--cluster', small, '--parsable', '--wrap', 'echo $$ > pid; sleep 300'])).stdout.trim();
    await ctl.until(async () => (await ctl.jobField(id, 'JobState')) === 'RUNNING' && existsSync(path.join(ctl.workDir, 'pid')));
    const script = Number(ctl.read('pid'));
    const host = hostPid(ctl)!;
    // A restarted controller finds the host running but cannot reach it (its socket moved away).
    process.kill(ctldPid(ctl)!, 'SIGKILL');
    const socket = path.join(ctl.stateDir, 'tsstepd.sock');
    renameSync(socket, `${socket}.away`);
    expect((await ctl.run('tsbatch', ['--cluster', small, '--hold', '--wrap', 'true'])).exitCode).toBe(0);
    expect(await ctl.jobField(id, 'JobState')).toBe('RUNNING');
    expect((await ctl.run('tscancel', [id])).exitCode).toBe(0);
    await ctl.until(async () => (await ctl.jobField(id, 'JobState')) === 'COMPLETING');
    // The order did not get there: the script still runs.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(alive(script)).toBe(true);
    expect(await ctl.jobField(id, 'JobState')).toBe('COMPLETING');
    renameSync(`${socket}.away`, socket);
    await ctl.until(async () => (await ctl.jobField(id, 'JobState')) === 'CANCELLED', 30_000);
    await ctl.until(() => !alive(script));
    expect(hostPid(ctl)).toBe(host);
    expect(ctl.read(`slurm-${id}.out`)).toMatch(new RegExp(`CANCELLED AT .* \\*\\*\\*`));
  });
});

describe('a step host SIGKILLed under running jobs', () => {
  const ctl = testController();
  afterAll(async () => (stopHost(ctl), ctl.stop()));

  it('ends a --no-requeue job NODE_FAIL, requeues the other, and leaves none of their processes', async () => {
    // Each script starts a child in the background and records both pids.
    const script = (name: string) => `sleep 300 & echo $$ $! > ${name}; echo run $SLURM_RESTART_COUNT; wait`;
    const lost = (await ctl.run('tsbatch', ['--cluster', small, '--parsable', '--no-requeue', '--wrap', script('lost.pids')])).stdout.trim();
    const requeued = (await ctl.run('tsbatch', ['--cluster', small, '--parsable', '--wrap', script('requeued.pids')])).stdout.trim();
    await ctl.until(() => existsSync(path.join(ctl.workDir, 'lost.pids')) && existsSync(path.join(ctl.workDir, 'requeued.pids')));
    const pids = ['lost.pids', 'requeued.pids'].flatMap((file) => ctl.read(file).trim().split(' ').map(Number));
    expect(pids.every(alive)).toBe(true);
    const host = hostPid(ctl)!;
    writeFileSync(path.join(ctl.workDir, 'requeued.pids'), '');
    process.kill(host, 'SIGKILL');
    await ctl.until(async () => (await ctl.jobField(lost, 'JobState')) === 'NODE_FAIL');
    expect(await ctl.jobField(lost, 'Reason')).toBe('NodeDown');
    // The host's guard ended the scripts and their children.
    await ctl.until(() => !pids.some(alive), 15_000);
    // The requeued job runs again, on a new step host.
    await ctl.until(async () => (await ctl.jobField(requeued, 'Restarts')) === '1' && (await ctl.jobField(requeued, 'JobState')) === 'RUNNING');
    await ctl.until(() => ctl.read(`slurm-${requeued}.out`).includes('run 1'));
    expect(hostPid(ctl)).not.toBe(host);
    await ctl.run('tscancel', [requeued]);
  });
});
