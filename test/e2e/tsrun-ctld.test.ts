// tsrun with a controller running on its state directory: the job is the controller's (it
// waits for the nodes batch jobs hold, shows in tscontrol, ends as srun's job ends), and
// without one tsrun starts it on demand, as tsbatch does — expectations observed on Slurm 22.05.
import { afterAll, describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fixture, runBin, startBin } from '../helpers/run-bin.js';
import { testController } from '../helpers/controller.js';

const small = fixture('clusters', 'small.yaml'); // node[1-4], 4 CPUs; partition small: 10 min, 2 nodes
const stamp = '\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d';

describe('tsrun through a running controller', () => {
  const ctl = testController();
  afterAll(() => ctl.stop());
  const sbatch = (args: string[]) => ctl.run('tsbatch', ['--cluster', small, '--parsable', ...args]);
  const tsrun = (args: string[]) => ctl.run('tsrun', ['--cluster', small, ...args]);
  const startTsrun = (args: string[]) => startBin('tsrun', ['--cluster', small, ...args], { cwd: ctl.workDir, env: ctl.env });
  /** The id of the newest job named `name`, once the controller has it. */
  const jobNamed = async (name: string): Promise<string> => {
    let id = '';
    await ctl.until(async () => {
      const shown = await ctl.run('tscontrol', ['-o', 'show', 'job']);
      id = [...shown.stdout.matchAll(/JobId=(\d+) JobName=(\S+)/g)].filter((m) => m[2] === name).map((m) => m[1]!).pop() ?? '';
      return id !== '';
    });
    return id;
  };

  it('queues behind a batch job holding every node with srun\'s line, and runs once it is cancelled', async () => {
    const batch = (await sbatch(['-N4', '--exclusive', '--wrap', 'sleep 60'])).stdout.trim();
    await ctl.until(async () => (await ctl.jobField(batch, 'JobState')) === 'RUNNING');
    const running = startTsrun(['-N1', 'hostname']);
    const id = await jobNamed('hostname');
    await ctl.until(async () => (await ctl.jobField(id, 'Reason')) === 'Resources');
    expect(await ctl.jobField(id, 'JobState')).toBe('PENDING');
    expect(await ctl.jobField(id, 'BatchFlag')).toBe('0');
    expect((await ctl.run('tscancel', [batch])).exitCode).toBe(0);
    const result = await running;
    expect(result).toMatchObject({
      exitCode: 0,
      stdout: `${os.hostname()}\n`,
      stderr: `tsrun: job ${id} queued and waiting for resources\ntsrun: job ${id} has been allocated resources\n`,
    });
    expect(await ctl.jobField(id, 'JobState')).toBe('COMPLETED');
    expect(await ctl.jobField(id, 'ExitCode')).toBe('0:0');
  });

  it('shows the job RUNNING on its nodes while tsrun holds it, COMPLETED after; runs with the job\'s id', async () => {
    const running = startTsrun(['-N2', '-n3', '-J', 'shown', '-l', 'sh', '-c', 'echo $SLURM_JOB_ID $SLURMD_NODENAME; sleep 2']);
    const id = await jobNamed('shown');
    await ctl.until(async () => (await ctl.jobField(id, 'JobState')) === 'RUNNING');
    expect(await ctl.jobField(id, 'NodeList')).toBe('node[1-2]');
    expect(await ctl.jobField(id, 'NumTasks')).toBe('3');
    const result = await running;
    expect(result.exitCode).toBe(0);
    expect(result.stderr).toBe('');
    expect(result.stdout.split('\n').filter(Boolean).sort()).toEqual([`0: ${id} node1`, `1: ${id} node1`, `2: ${id} node2`]);
    expect(await ctl.jobField(id, 'JobState')).toBe('COMPLETED');
  });

  it('ends the job FAILED with the step\'s exit code, as srun reports it', async () => {
    const result = await tsrun(['-J', 'three', 'sh', '-c', 'exit 3']);
    expect(result).toMatchObject({ exitCode: 3, stderr: 'tsrun: error: node1: task 0: Exited with exit code 3\n' });
    const id = await jobNamed('three');
    expect(await ctl.jobField(id, 'JobState')).toBe('FAILED');
    expect(await ctl.jobField(id, 'Reason')).toBe('NonZeroExitCode');
    expect(await ctl.jobField(id, 'ExitCode')).toBe('3:0');
  });

  it('tscancel ends tsrun with srun\'s lines and status; the job is CANCELLED 0:15', async () => {
    const running = startTsrun(['-J', 'victim', 'sleep', '30']);
    const id = await jobNamed('victim');
    await ctl.until(async () => (await ctl.jobField(id, 'JobState')) === 'RUNNING');
    expect((await ctl.run('tscancel', [id])).exitCode).toBe(0);
    const result = await running;
    expect(result.exitCode).toBe(143);
    expect(result.stderr).toMatch(
      new RegExp(
        `^tsstepd-node1: error: \\*\\*\\* STEP ${id}\\.0 ON node1 CANCELLED AT ${stamp} \\*\\*\\*\\n` +
          'tsrun: Job step aborted: Waiting up to 4 seconds for job step to finish\\.\\n' +
          'tsrun: error: node1: task 0: Terminated\\n$',
      ),
    );
    expect(await ctl.jobField(id, 'JobState')).toBe('CANCELLED');
    expect(await ctl.jobField(id, 'ExitCode')).toBe('0:15');
  });

  it('a tsrun killed with SIGKILL loses its job: CANCELLED, as a lost srun\'s', async () => {
    const running = startTsrun(['-J', 'lost', 'sleep', '30']);
    const id = await jobNamed('lost');
    await ctl.until(async () => (await ctl.jobField(id, 'JobState')) === 'RUNNING');
    running.kill('SIGKILL');
    await running;
    await ctl.until(async () => (await ctl.jobField(id, 'JobState')) === 'CANCELLED');
    expect(await ctl.jobField(id, 'ExitCode')).toBe('0:0');
  });

  it('tscancel of a queued tsrun job ends tsrun as srun ends', async () => {
    const batch = (await sbatch(['-N4', '--exclusive', '--wrap', 'sleep 60'])).stdout.trim();
    await ctl.until(async () => (await ctl.jobField(batch, 'JobState')) === 'RUNNING');
    const waiting = startTsrun(['-J', 'queued', 'true']);
    const id = await jobNamed('queued');
    await ctl.until(async () => (await ctl.jobField(id, 'Reason')) === 'Resources');
    await ctl.run('tscancel', [id]);
    expect(await waiting).toMatchObject({
      exitCode: 1,
      stderr: `tsrun: job ${id} queued and waiting for resources\ntsrun: Job has been cancelled\ntsrun: error: Unable to allocate resources: Job/step already completing or completed\n`,
    });
    await ctl.run('tscancel', [batch]);
  });

  it('--test-only asks the controller and runs nothing (3 CPUs for -n3)', async () => {
    const result = await tsrun(['--test-only', '-N2', '-n3', 'sh', '-c', 'echo ran']);
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(new RegExp(`^tsrun: Job \\d+ to start at ${stamp} using 3 processors on nodes node\\[1-2\\] in partition debug\\n$`));
  });

  it.each([
    [['-p', 'nope', 'true'], 'tsrun: error: invalid partition specified: nope\ntsrun: error: Unable to allocate resources: Invalid partition name specified\n'],
    [['-N', '5', 'true'], 'tsrun: error: Unable to allocate resources: Requested node configuration is not available\n'],
    [['-w', 'node9', 'true'], 'tsrun: error: Unable to allocate resources: Invalid node name specified\n'],
    [['-x', 'node1', '-w', 'node1', 'true'], 'tsrun: error: Unable to allocate resources: Invalid node name specified\n'],
    [['--mem=99999', 'true'], 'tsrun: error: Memory specification can not be satisfied\ntsrun: error: Unable to allocate resources: Requested node configuration is not available\n'],
    [['-p', 'small', '-t', '20', 'true'], 'tsrun: error: Unable to allocate resources: Requested time limit is invalid (missing or exceeds some limit)\n'],
    [['--gres=fpga:1', 'true'], 'tsrun: error: Invalid generic resource (gres) specification\n'],
  ])('refuses %j with srun\'s words', async (args, stderr) => {
    expect(await tsrun(args)).toEqual({ exitCode: 1, stdout: '', stderr });
  });
});

describe('the time limit and a restart, with a controller', () => {
  // One minute of time limit lasts two seconds, for the controller and for tsrun.
  const ctl = testController({ TSLURM_MINUTE_SECONDS: '2' });
  afterAll(() => ctl.stop());
  const startTsrun = (args: string[], env: Record<string, string> = {}) =>
    startBin('tsrun', ['--cluster', small, ...args], { cwd: ctl.workDir, env: { ...ctl.env, ...env } });
  const ctldPid = (): number => Number.parseInt(readFileSync(path.join(ctl.stateDir, 'tsctld.pid'), 'utf8'), 10);

  it('the controller ends the job at its limit through tsrun: TIMEOUT', async () => {
    await ctl.run('tsbatch', ['--cluster', small, '--hold', '--wrap', 'true']); // starts the controller
    // tsrun's own clock is slowed down, so the controller's order is what ends the step.
    const result = await startTsrun(['-t', '1', '-J', 'limited', 'sleep', '30'], { TSLURM_MINUTE_SECONDS: '60' });
    expect(result.exitCode).toBe(143);
    expect(result.stderr).toMatch(/tsstepd-node1: error: \*\*\* STEP \d+\.0 ON node1 CANCELLED AT \S+ DUE TO TIME LIMIT \*\*\*\n/);
    expect(result.stderr).toContain('tsrun: error: node1: task 0: Terminated\n');
    expect(result.stderr).not.toContain('Force Terminated');
    const id = /STEP (\d+)\.0/.exec(result.stderr)![1]!;
    expect(await ctl.jobField(id, 'JobState')).toBe('TIMEOUT');
    expect(await ctl.jobField(id, 'Reason')).toBe('TimeLimit');
    expect(await ctl.jobField(id, 'ExitCode')).toBe('0:15');
  });

  it('a job whose tsrun outlives a SIGKILLed controller is recovered and completes', async () => {
    await ctl.run('tsbatch', ['--cluster', small, '--hold', '--wrap', 'true']); // a controller runs
    // The step ends once the test creates `go`, after it has seen the job recovered.
    const running = startTsrun(['-J', 'survivor', 'sh', '-c', 'while [ ! -e go ]; do sleep 0.1; done; echo done']);
    await ctl.until(async () => (await ctl.jobField(String(await lastId()), 'JobState')) === 'RUNNING');
    const id = String(await lastId());
    process.kill(ctldPid(), 'SIGKILL');
    // The next command starts a new controller on the same state directory.
    await ctl.run('tsbatch', ['--cluster', small, '--hold', '--wrap', 'true']);
    expect(await ctl.jobField(id, 'JobState')).toBe('RUNNING');
    writeFileSync(path.join(ctl.workDir, 'go'), '');
    const result = await running;
    expect(result).toMatchObject({ exitCode: 0, stdout: 'done\n', stderr: '' });
    await ctl.until(async () => (await ctl.jobField(id, 'JobState')) === 'COMPLETED');
  });

  async function lastId(): Promise<number> {
    const shown = await ctl.run('tscontrol', ['-o', 'show', 'job']);
    const ids = [...shown.stdout.matchAll(/JobId=(\d+) JobName=survivor/g)].map((m) => Number(m[1]));
    return ids.pop() ?? 0;
  }
});

describe('tsrun without a controller', () => {
  it('starts one on demand, which holds its job and leaves once idle', async () => {
    const stateDir = mkdtempSync(path.join(os.tmpdir(), 'tslurm-noctld-'));
    // Idle for 5 s, not less: tscontrol below must reach it before it leaves, and a command's
    // start takes over a second on a loaded machine (with no controller it lists no jobs).
    const env = { TSLURM_STATE_DIR: stateDir, TSLURM_CTLD_IDLE_EXIT: '5' };
    const result = await runBin('tsrun', ['--cluster', small, '-N2', '-l', 'printenv', 'SLURM_JOB_ID'], { env });
    expect(result).toMatchObject({ exitCode: 0, stderr: '' });
    expect(result.stdout.split('\n').filter(Boolean).sort()).toEqual(['0: 1', '1: 1']);
    // The job is the controller's: journaled, and shown as srun's job is once it has ended.
    const shown = await runBin('tscontrol', ['--cluster', small, '-o', 'show', 'job', '1'], { env });
    expect(shown.stdout).toMatch(/JobId=1 JobName=printenv .*JobState=COMPLETED .*BatchFlag=0 /);
    const until = Date.now() + 20_000;
    while (existsSync(path.join(stateDir, 'tsctld.pid')) && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 100));
    expect(existsSync(path.join(stateDir, 'tsctld.pid'))).toBe(false);
  });

  // The controllers these start stay until stopped (testController's idle exit, 120 s): the
  // commands that follow need the one the first started, which a short idle exit took away
  // on a loaded machine before the next command got to it.
  it('several started at once on a fresh state directory share one controller and get distinct jobs', async () => {
    const ctl = testController();
    try {
      const results = await Promise.all([1, 2, 3, 4].map(() => ctl.run('tsrun', ['--cluster', small, '-n1', 'printenv', 'SLURM_JOB_ID'])));
      for (const result of results) expect(result).toMatchObject({ exitCode: 0, stderr: '' });
      expect(results.map((r) => Number(r.stdout)).sort()).toEqual([1, 2, 3, 4]);
      const shown = await ctl.run('tscontrol', ['--cluster', small, '-o', 'show', 'job']);
      expect([...shown.stdout.matchAll(/JobState=COMPLETED/g)]).toHaveLength(4);
    } finally {
      await ctl.stop();
    }
  });

  it('says so when the controller on its state directory serves another cluster', async () => {
    const ctl = testController();
    try {
      expect((await ctl.run('tsrun', ['true'])).exitCode).toBe(0);
      const other = await ctl.run('tsrun', ['--cluster', fixture('clusters', 'gpu.yaml'), '-p', 'gpu', 'true']);
      expect(other).toEqual({
        exitCode: 1,
        stdout: '',
        stderr: 'tsrun: error: the controller on this state directory serves cluster tslurm, not gpu: give each cluster a state directory of its own (TSLURM_STATE_DIR)\n',
      });
    } finally {
      await ctl.stop();
    }
  });

  it('queues for a drained node as srun does, saying so first, rather than refusing', async () => {
    const states = fixture('clusters', 'states.yaml'); // n3 DRAIN
    const result = await runBin('tsrun', ['--cluster', states, '-I1', '-w', 'n3', 'true']);
    expect(result).toMatchObject({
      exitCode: 1,
      stderr:
        'tsrun: Required node not available (down, drained or reserved)\ntsrun: job 1 queued and waiting for resources\n' +
        'tsrun: error: Unable to allocate resources: Requested nodes are busy\n',
    });
  });
});
