// The embedded step host's life (issue 19): SIGKILLed, it loses its running steps and batch
// jobs as a failed node does — each job NODE_FAIL in tscontrol, tsqueue and tsacct, tsrun's
// own job included — and nothing else (pending jobs, finished ones, the controller); the next
// tsrun or tsbatch starts a new host. Idle, it exits after TSLURM_STEPD_IDLE_EXIT, but never
// while a batch job or a step runs.
import { afterAll, describe, expect, it } from 'vitest';
import { existsSync, readFileSync, renameSync } from 'node:fs';
import path from 'node:path';
import { fixture, repoRoot, startBin } from '../helpers/run-bin.js';
import { testController, type TestController } from '../helpers/controller.js';
import { alive, pidIn } from '../helpers/processes.js';

const small = fixture('clusters', 'small.yaml');
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const hostPid = (ctl: TestController) => pidIn(path.join(ctl.stateDir, 'tsstepd.pid'));
const ctldPid = (ctl: TestController) => pidIn(path.join(ctl.stateDir, 'tsctld.pid'));

function stopHost(ctl: TestController): void {
  const pid = hostPid(ctl);
  if (pid !== undefined && alive(pid)) process.kill(pid, 'SIGTERM');
}

async function acctState(ctl: TestController, id: string): Promise<string> {
  return (await ctl.run('tsacct', ['--cluster', small, '-j', id, '-X', '-n', '-P', '-o', 'State'])).stdout.trim();
}

describe('a step host SIGKILLed under a tsrun step and a batch job', () => {
  const ctl = testController();
  afterAll(async () => (stopHost(ctl), ctl.stop()));

  it("ends both jobs NODE_FAIL everywhere, keeps the others, and the next tsrun and tsbatch start a new host", async () => {
    const done = (await ctl.run('tsbatch', ['--cluster', small, '--parsable', '--wait', '--wrap', 'true'])).stdout.trim();
    const held = (await ctl.run('tsbatch', ['--cluster', small, '--parsable', '--hold', '--wrap', 'true'])).stdout.trim();
    const batch = (await ctl.run('tsbatch', ['--cluster', small, '--parsable', '--no-requeue', '--wrap', 'touch batch.up; sleep 300'])).stdout.trim();
    const run = startBin('tsrun', ['--cluster', small, '-J', 'lost', 'sh', '-c', 'touch step.up; sleep 300'], { cwd: ctl.workDir, env: ctl.env });
    await ctl.until(() => existsSync(path.join(ctl.workDir, 'batch.up')) && existsSync(path.join(ctl.workDir, 'step.up')));
    const step = (await ctl.run('tsqueue', ['--cluster', small, '-h', '-n', 'lost', '-o', '%i'])).stdout.trim();
    expect(step).toMatch(/^\d+$/);
    const host = hostPid(ctl)!;
    const controller = ctldPid(ctl)!;
    process.kill(host, 'SIGKILL');

    const r = await run;
    expect(String(r.stderr)).toContain('Node failure on node1');
    expect(r.exitCode).not.toBe(0);
    for (const id of [step, batch]) {
      await ctl.until(async () => (await ctl.jobField(id, 'JobState')) === 'NODE_FAIL');
      expect(await ctl.jobField(id, 'Reason')).toBe('NodeDown');
    }
    expect((await ctl.run('tsqueue', ['--cluster', small, '-h', '-t', 'NF', '-o', '%i %T'])).stdout.trim().split('\n').sort()).toEqual(
      [`${batch} NODE_FAIL`, `${step} NODE_FAIL`].sort(),
    );
    await ctl.until(async () => (await acctState(ctl, step)) === 'NODE_FAIL' && (await acctState(ctl, batch)) === 'NODE_FAIL');

    // Nothing else is lost: the finished and the pending job, the controller, the nodes.
    expect(await ctl.jobField(done, 'JobState')).toBe('COMPLETED');
    expect(await ctl.jobField(held, 'JobState')).toBe('PENDING');
    expect(ctldPid(ctl)).toBe(controller);
    expect((await ctl.run('tsinfo', ['--cluster', small, '-h', '-o', '%T'])).stdout).not.toMatch(/down/);

    // The next tsrun and tsbatch run on a new host.
    // The task names its parent (the new host's spawn server) and the server's parent.
    const next = await ctl.run('tsrun', ['--cluster', small, '-J', 'next', 'sh', '-c', 'echo $(cat /proc/$PPID/comm) $(cut -d" " -f4 /proc/$PPID/stat)']);
    expect(next).toMatchObject({ exitCode: 0, stderr: '' });
    const newHost = hostPid(ctl)!;
    expect(newHost).not.toBe(host);
    expect(next.stdout).toBe(`tsspawn_server ${newHost}\n`);
    const nextId = (await ctl.run('tsqueue', ['--cluster', small, '-h', '-t', 'all', '-n', 'next', '-o', '%i'])).stdout.trim();
    await ctl.until(async () => (await acctState(ctl, nextId)) === 'COMPLETED');
    const again = await ctl.run('tsbatch', ['--cluster', small, '--parsable', '--wait', '--wrap', 'true']);
    expect(again.exitCode).toBe(0);
    expect(hostPid(ctl)).toBe(newHost);
  });
});

describe('a step host SIGKILLed under a step of a tsalloc allocation', () => {
  const ctl = testController();
  afterAll(async () => (stopHost(ctl), ctl.stop()));

  it('revokes the allocation, which ends NODE_FAIL', async () => {
    const tsrun = `${process.execPath} ${path.join(repoRoot, 'bin', 'tsrun.js')}`;
    const alloc = startBin('tsalloc', ['--cluster', small, '-J', 'held', 'sh', '-c', `${tsrun} sh -c 'touch step.up; sleep 300'; echo "tsrun rc=$?"`], { cwd: ctl.workDir, env: ctl.env });
    await ctl.until(() => existsSync(path.join(ctl.workDir, 'step.up')));
    const id = (await ctl.run('tsqueue', ['--cluster', small, '-h', '-n', 'held', '-o', '%i'])).stdout.trim();
    process.kill(hostPid(ctl)!, 'SIGKILL');
    const r = await alloc;
    expect(String(r.stderr)).toContain('Node failure on node1');
    expect(String(r.stderr)).toContain(`Job allocation ${id} has been revoked.`);
    expect(String(r.stdout)).toContain('tsrun rc=137');
    await ctl.until(async () => (await ctl.jobField(id, 'JobState')) === 'NODE_FAIL');
    await ctl.until(async () => (await acctState(ctl, id)) === 'NODE_FAIL');
  });
});

describe('the step host idle', () => {
  const ctl = testController({ TSLURM_STEPD_IDLE_EXIT: '1' });
  afterAll(async () => (stopHost(ctl), ctl.stop()));

  it('stays while a batch job runs longer than its idle time, and exits once the job has ended', async () => {
    const id = (await ctl.run('tsbatch', ['--cluster', small, '--parsable', '--wrap', 'touch up; sleep 4'])).stdout.trim();
    await ctl.until(() => existsSync(path.join(ctl.workDir, 'up')));
    const host = hostPid(ctl)!;
    // Three idle times, with no request reaching the host: the running script keeps it.
    await sleep(3500);
    expect(alive(host)).toBe(true);
    await ctl.until(async () => (await ctl.jobField(id, 'JobState')) === 'COMPLETED', 20_000);
    await ctl.until(() => !alive(host), 20_000);
    expect(existsSync(path.join(ctl.stateDir, 'tsstepd.pid'))).toBe(false);
    expect(alive(ctldPid(ctl)!)).toBe(true);
  });
});

describe('a signal the step host cannot take at once', () => {
  const ctl = testController();
  afterAll(async () => (stopHost(ctl), ctl.stop()));

  it('is sent again, in order, until the host takes it (scancel -s succeeds; slurmctld retries the node)', async () => {
    const script = 'trap "echo got USR1 >> got" USR1; trap "echo got USR2 >> got" USR2; touch up; while :; do sleep 0.2; done';
    const id = (await ctl.run('tsbatch', ['--cluster', small, '--parsable', '--wrap', script])).stdout.trim();
    await ctl.until(() => existsSync(path.join(ctl.workDir, 'up')));
    // A restarted controller finds the host running but cannot reach it (its socket moved away).
    process.kill(ctldPid(ctl)!, 'SIGKILL');
    const socket = path.join(ctl.stateDir, 'tsstepd.sock');
    renameSync(socket, `${socket}.away`);
    try {
      expect((await ctl.run('tsbatch', ['--cluster', small, '--hold', '--wrap', 'true'])).exitCode).toBe(0);
      for (const signal of ['USR1', 'USR2']) expect(await ctl.run('tscancel', ['-b', '-s', signal, id])).toMatchObject({ exitCode: 0, stderr: '' });
      await sleep(1500);
      expect(existsSync(path.join(ctl.workDir, 'got'))).toBe(false);
    } finally {
      renameSync(`${socket}.away`, socket);
    }
    await ctl.until(() => existsSync(path.join(ctl.workDir, 'got')) && ctl.read('got') === 'got USR1\ngot USR2\n', 20_000);
    expect(await ctl.jobField(id, 'JobState')).toBe('RUNNING');
    await ctl.run('tscancel', [id]);
  });
});
