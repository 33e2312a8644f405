// The controller's promises about state: a SIGKILL while several processes submit loses no
// acknowledged job and reuses no id; a second controller on the same state directory is
// refused and changes nothing; an unwritable state directory is a one-line error.
import { afterAll, describe, expect, it } from 'vitest';
import { execa } from 'execa';
import { existsSync, mkdirSync, readdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fixture, repoRoot, runBin, startBin } from '../helpers/run-bin.js';
import { testController } from '../helpers/controller.js';

const small = fixture('clusters', 'small.yaml');

describe('tsctld state', () => {
  const ctl = testController();
  afterAll(() => ctl.stop());

  it('keeps every acknowledged job across a SIGKILL during concurrent submissions', async () => {
    const tsbatch = `${process.execPath} ${path.join(repoRoot, 'bin', 'tsbatch.js')}`;
    // Each loop prints "<status> <output>" per submission; only status 0 was acknowledged.
    const loop = `for i in $(seq 1 12); do out=$(${tsbatch} --cluster ${small} --parsable --hold --wrap=true 2>&1); echo "$? $out"; done`;
    const loops = Array.from({ length: 4 }, () =>
      execa('bash', ['-c', loop], { cwd: ctl.workDir, env: { ...process.env, ...ctl.env, NO_COLOR: '1' }, reject: false }),
    );
    await ctl.until(() => {
      try {
        return readFileSync(path.join(ctl.stateDir, 'tsctld.pid'), 'utf8').trim() !== '';
      } catch {
        return false;
      }
    });
    await new Promise((resolve) => setTimeout(resolve, 700));
    const pid = Number.parseInt(readFileSync(path.join(ctl.stateDir, 'tsctld.pid'), 'utf8'), 10);
    process.kill(pid, 'SIGKILL');
    const outputs = (await Promise.all(loops)).map((r) => r.stdout).join('\n');
    const acked = outputs
      .split('\n')
      .filter((line) => line.startsWith('0 '))
      .map((line) => Number(line.slice(2)));
    expect(acked.length).toBeGreaterThan(10);
    // Submissions after the kill started a new controller, which recovered the journal.
    expect(readFileSync(path.join(ctl.stateDir, 'tsctld.pid'), 'utf8').trim()).not.toBe(String(pid));
    expect(new Set(acked).size).toBe(acked.length);
    const shown = await ctl.run('tscontrol', ['-o', 'show', 'job']);
    const present = new Set([...shown.stdout.matchAll(/^JobId=(\d+) /gm)].map((m) => Number(m[1])));
    expect(acked.filter((id) => !present.has(id))).toEqual([]);
    await ctl.run('tscancel', ['-u', String(process.getuid?.() ?? 0)]);
  });

  it('journals a 1,000-task array as one record and keeps all its tasks across a SIGKILL right after the answer', async () => {
    const submitted = await ctl.run('tsbatch', ['--cluster', small, '--parsable', '--hold', '--array=1-1000', '--wrap=true']);
    expect(submitted).toMatchObject({ exitCode: 0, stderr: '' });
    const id = Number.parseInt(submitted.stdout, 10);
    // One record for the whole array (a record per task held the loop ~50 ms per 1,000 tasks).
    const records = readFileSync(path.join(ctl.stateDir, 'ctld', 'journal'), 'utf8')
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => JSON.parse(line) as { t: string; job?: { id: number; arrayJobId: number } })
      .filter((record) => record.job?.arrayJobId === id);
    expect(records.map((record) => record.t)).toEqual(['submit_array']);
    process.kill(Number.parseInt(readFileSync(path.join(ctl.stateDir, 'tsctld.pid'), 'utf8'), 10), 'SIGKILL');
    // A new controller reads the array back task by task.
    expect(await ctl.run('tsctld', ['--cluster', small])).toMatchObject({ exitCode: 0, stderr: '' });
    const queue = await ctl.run('tsqueue', ['--cluster', small, '-h', '-o', '%i %T %r', '-j', String(id)]);
    expect(queue).toMatchObject({ exitCode: 0, stdout: `${id}_[1-1000] PENDING JobHeldUser\n`, stderr: '' });
    const last = await ctl.run('tscontrol', ['--cluster', small, '-o', 'show', 'job', `${id}_1000`]);
    expect(last.stdout).toMatch(new RegExp(`^JobId=${id + 999} ArrayJobId=${id} ArrayTaskId=1000 `));
    const all = await ctl.run('tscontrol', ['--cluster', small, '-o', 'show', 'job', String(id)]);
    expect(all.stdout.match(/^JobId=/gm)).toHaveLength(1000);
    await ctl.run('tscancel', ['--cluster', small, String(id)]);
  });

  it('keeps every acknowledged job across a SIGKILL while snapshots are being written', async () => {
    // A snapshot every few records: the jobs run and end as they come, so the kill lands among
    // snapshots under way (state taken, file written off the loop, renames).
    const busy = testController({ TSLURM_SNAPSHOT_EVERY: '4' });
    try {
      const tsbatch = `${process.execPath} ${path.join(repoRoot, 'bin', 'tsbatch.js')}`;
      const loop = `for i in $(seq 1 15); do out=$(${tsbatch} --cluster ${small} --parsable --wrap=true 2>&1); echo "$? $out"; done`;
      const loops = Array.from({ length: 3 }, () =>
        execa('bash', ['-c', loop], { cwd: busy.workDir, env: { ...process.env, ...busy.env, NO_COLOR: '1' }, reject: false }),
      );
      const ctldDir = path.join(busy.stateDir, 'ctld');
      // Killed once a snapshot has been written while jobs came and went.
      await busy.until(() => existsSync(path.join(ctldDir, 'journal.old')), 60_000);
      const pid = Number.parseInt(readFileSync(path.join(busy.stateDir, 'tsctld.pid'), 'utf8'), 10);
      process.kill(pid, 'SIGKILL');
      const outputs = (await Promise.all(loops)).map((r) => r.stdout).join('\n');
      const acked = outputs
        .split('\n')
        .filter((line) => line.startsWith('0 '))
        .map((line) => Number(line.slice(2)));
      expect(acked.length).toBeGreaterThan(10);
      expect(readFileSync(path.join(busy.stateDir, 'tsctld.pid'), 'utf8').trim()).not.toBe(String(pid));
      const shown = await busy.run('tscontrol', ['-o', 'show', 'job']);
      const present = new Set([...shown.stdout.matchAll(/^JobId=(\d+) /gm)].map((m) => Number(m[1])));
      expect(acked.filter((id) => !present.has(id))).toEqual([]);
      // No damage: the recovered controller's log says nothing of lost jobs.
      expect(readFileSync(path.join(busy.stateDir, 'tsctld.log'), 'utf8')).not.toMatch(/damaged|could not be recovered/);
    } finally {
      await busy.stop();
    }
  });

  it('never gives an acknowledged id again across two SIGKILLs in a burst of arrays and --test-only', async () => {
    const fresh = testController();
    try {
      const tsbatch = `${process.execPath} ${path.join(repoRoot, 'bin', 'tsbatch.js')} --cluster ${small}`;
      // Each loop prints "<status> <kind> <output>": arrays of 3 tasks, single jobs, and
      // --test-only probes (which use an id up, as sbatch's do); only status 0 was answered.
      const loop = `for i in $(seq 1 10); do
        out=$(${tsbatch} --parsable --hold --array=1-3 --wrap=true 2>&1); echo "$? array $out"
        out=$(${tsbatch} --parsable --hold --wrap=true 2>&1); echo "$? job $out"
        out=$(${tsbatch} --test-only --wrap=true 2>&1); echo "$? probe $out"
      done`;
      const loops = Array.from({ length: 3 }, () =>
        execa('bash', ['-c', loop], { cwd: fresh.workDir, env: { ...process.env, ...fresh.env, NO_COLOR: '1' }, reject: false }),
      );
      const pidFile = path.join(fresh.stateDir, 'tsctld.pid');
      const serving = (): number | undefined => {
        try {
          const pid = Number.parseInt(readFileSync(pidFile, 'utf8'), 10);
          process.kill(pid, 0);
          return pid;
        } catch {
          return undefined;
        }
      };
      // Killed twice while the loops go on: each kill lands among submissions in flight.
      let killed: number | undefined;
      for (let round = 0; round < 2; round++) {
        await fresh.until(() => serving() !== undefined && serving() !== killed, 60_000);
        await new Promise((resolve) => setTimeout(resolve, 1500));
        killed = serving()!;
        process.kill(killed, 'SIGKILL');
      }
      const runs = await Promise.all(loops);
      const answered = runs.map((r) =>
        r.stdout
          .split('\n')
          .map((line) => /^0 (array|job|probe) .*?(\d+)/.exec(line))
          .filter((m) => m !== null)
          .map((m) => ({ kind: m[1]!, id: Number(m[2]) })),
      );
      expect(answered.flat().length).toBeGreaterThan(20);
      // Submissions after each kill started a new controller, which recovered the journal.
      expect(serving()).not.toBe(killed);
      // One loop's submissions follow each other: their ids only grow, across the restarts too.
      for (const mine of answered) {
        const firsts = mine.map((a) => a.id);
        expect(firsts).toEqual([...firsts].sort((a, b) => a - b));
      }
      // No id given twice: an array holds its first id and the next two.
      const taken = answered.flat().flatMap((a) => (a.kind === 'array' ? [a.id, a.id + 1, a.id + 2] : [a.id]));
      expect(new Set(taken).size).toBe(taken.length);
      // Every answered job is there.
      const shown = await fresh.run('tscontrol', ['-o', 'show', 'job']);
      const present = new Set([...shown.stdout.matchAll(/^JobId=(\d+) /gm)].map((m) => Number(m[1])));
      const jobs = answered.flat().filter((a) => a.kind !== 'probe').flatMap((a) => (a.kind === 'array' ? [a.id, a.id + 1, a.id + 2] : [a.id]));
      expect(jobs.filter((id) => !present.has(id))).toEqual([]);
    } finally {
      await fresh.run('tscancel', ['-u', String(process.getuid?.() ?? 0)]);
      await fresh.stop();
    }
  }, 180_000);

  it('refuses a second controller on the same state directory', async () => {
    await ctl.run('tsbatch', ['--cluster', small, '--hold', '--wrap', 'true']);
    const pid = readFileSync(path.join(ctl.stateDir, 'tsctld.pid'), 'utf8').trim();
    const second = await ctl.run('tsctld', ['--cluster', small, '-D']);
    expect(second).toMatchObject({
      exitCode: 1,
      stderr: `tsctld: error: another tsctld (pid ${pid}) is already using state directory ${ctl.stateDir}; stop it (kill ${pid}) before starting a new one\n`,
    });
    expect(readFileSync(path.join(ctl.stateDir, 'tsctld.pid'), 'utf8').trim()).toBe(pid);
    expect((await ctl.run('tscontrol', ['ping'])).exitCode).toBe(0);
  });
});

describe('controllers started at once on one state directory', () => {
  // Clients start a controller on demand, several at a time: exactly one may serve.
  const startMany = async (stateDir: string) => {
    const runs = await Promise.all(
      Array.from({ length: 6 }, () => runBin('tsctld', ['--cluster', small, '-D', '--idle-exit', '2'], { env: { TSLURM_STATE_DIR: stateDir } })),
    );
    const serving = runs.filter((r) => /tsctld \d+ serving cluster small/.test(r.stderr));
    expect(serving.map((r) => r.exitCode)).toEqual([0]);
    for (const r of runs.filter((run) => !serving.includes(run))) {
      expect(r.exitCode).toBe(1);
      expect(r.stderr).toMatch(/^tsctld: error: (another tsctld \(pid \d+\) is already using|cannot lock) state directory .*\n$/);
    }
  };

  it('lets one serve on a fresh directory, and one take over a dead controller\'s pid file', async () => {
    const ctl = testController();
    await startMany(ctl.stateDir);
    // A pid file whose process is gone (this one ran `true`).
    const gone = await execa('sh', ['-c', 'true & echo $!']);
    writeFileSync(path.join(ctl.stateDir, 'tsctld.pid'), `${gone.stdout.trim()}\n`);
    await startMany(ctl.stateDir);
    expect(readdirSync(ctl.stateDir).filter((name) => name.startsWith('tsctld.pid'))).toEqual([]);
  });

  it('leaves a dead controller\'s pid file to the starter already taking it over, unless that one died too', async () => {
    const ctl = testController();
    mkdirSync(ctl.stateDir, { recursive: true });
    const gone = await execa('sh', ['-c', 'true & echo $!']);
    writeFileSync(path.join(ctl.stateDir, 'tsctld.pid'), `${gone.stdout.trim()}\n`);
    const guard = path.join(ctl.stateDir, 'tsctld.pid.takeover');
    mkdirSync(guard);
    const start = () => runBin('tsctld', ['--cluster', small, '-D', '--idle-exit', '1'], { env: { TSLURM_STATE_DIR: ctl.stateDir } });
    expect(await start()).toMatchObject({ exitCode: 1, stderr: `tsctld: error: cannot lock state directory ${ctl.stateDir}: another tsctld is starting\n` });
    // A guard a minute old was left by a starter that died: it is removed, and the lock taken.
    const minuteAgo = new Date(Date.now() - 60_000);
    utimesSync(guard, minuteAgo, minuteAgo);
    const served = await start();
    expect(served.stderr).toMatch(/tsctld \d+ serving cluster small/);
    expect(served.exitCode).toBe(0);
  });
});

describe('running jobs across a controller crash', () => {
  const ctl = testController();
  afterAll(() => ctl.stop());
  const sbatch = (args: string[]) => ctl.run('tsbatch', ['--cluster', small, '--parsable', ...args]);
  const pidOf = (file: string) => Number.parseInt(readFileSync(file, 'utf8'), 10);

  it('finishes a job whose batch step outlived a SIGKILLed controller, and tsbatch --wait sees it end', async () => {
    const waiting = startBin('tsbatch', ['--cluster', small, '--parsable', '--wait', '--wrap', 'sleep 2; echo done; exit 4'], {
      cwd: ctl.workDir,
      env: ctl.env,
    });
    await ctl.until(async () => (await ctl.jobField(1, 'JobState')) === 'RUNNING');
    process.kill(pidOf(path.join(ctl.stateDir, 'tsctld.pid')), 'SIGKILL');
    const waited = await waiting;
    expect(waited).toMatchObject({ exitCode: 4, stdout: '1\n', stderr: '' });
    expect(await ctl.jobField(1, 'JobState')).toBe('FAILED');
    expect(ctl.read('slurm-1.out')).toBe('done\n');
  });

  it('requeues a job whose batch step vanished, or ends it NODE_FAIL with --no-requeue', async () => {
    const requeued = (await sbatch(['--wrap', 'echo run $SLURM_RESTART_COUNT; sleep 30'])).stdout.trim();
    const lost = (await sbatch(['--no-requeue', '--wrap', 'sleep 30'])).stdout.trim();
    for (const id of [requeued, lost]) await ctl.until(async () => (await ctl.jobField(id, 'JobState')) === 'RUNNING');
    await ctl.stop();
    // The node "fails": its step daemons die without leaving a result, with their scripts.
    for (const id of [requeued, lost]) {
      const stepd = Number(/"stepdPid":(\d+)/.exec(readFileSync(path.join(ctl.stateDir, 'ctld', 'job_state'), 'utf8').split('\n').find((l) => l.includes(`"id":${id},`))!)![1]);
      process.kill(stepd, 'SIGKILL');
      // A process listed may end before it is reached (its parent just died): that is fine.
      for (const pid of processesOfJob(id)) killIfAlive(pid);
    }
    await sbatch(['--hold', '--wrap', 'true']);
    expect(await ctl.jobField(lost, 'JobState')).toBe('NODE_FAIL');
    await ctl.until(async () => (await ctl.jobField(requeued, 'Restarts')) === '1' && (await ctl.jobField(requeued, 'JobState')) === 'RUNNING');
    await ctl.until(() => ctl.read(`slurm-${requeued}.out`).includes('run 1'));
    expect(ctl.read(`slurm-${requeued}.out`)).toBe('run\nrun 1\n');
    await ctl.run('tscancel', [requeued]);
  });
});

/** Processes whose environment says they belong to job `id` (the batch script and its children). */
function processesOfJob(id: string): number[] {
  return readdirSync('/proc').filter((name) => /^\d+$/.test(name)).flatMap((name) => {
    try {
      return readFileSync(`/proc/${name}/environ`, 'latin1').split('\0').includes(`SLURM_JOB_ID=${id}`) ? [Number(name)] : [];
    } catch {
      return [];
    }
  });
}

describe('a restart under a changed cluster file', () => {
  const ctl = testController();
  afterAll(() => ctl.stop());

  it('brings the jobs back, and one now beyond its partition\'s limit waits with PartitionTimeLimit', async () => {
    const cluster = path.join(ctl.workDir, 'cluster.yaml');
    const describe = (maxTime: number) =>
      writeFileSync(cluster, `cluster: c\nnodes:\n  - name: n[1-2]\n    cpus: 2\npartitions:\n  - name: p\n    nodes: ALL\n    max_time: ${maxTime}\n`);
    describe(60);
    const id = (await ctl.run('tsbatch', ['--cluster', cluster, '--parsable', '--hold', '-t', '30', '--wrap', 'true'])).stdout.trim();
    await ctl.stop();
    describe(10);
    await ctl.run('tsbatch', ['--cluster', cluster, '--hold', '--wrap', 'true']); // starts one, which recovers
    expect(await ctl.jobField(id, 'TimeLimit')).toBe('00:30:00');
    expect((await ctl.run('tscontrol', ['release', id])).exitCode).toBe(0);
    await ctl.until(async () => (await ctl.jobField(id, 'Reason')) === 'PartitionTimeLimit');
    expect(await ctl.jobField(id, 'JobState')).toBe('PENDING');
  });
});

describe('a controller that cannot start, or finds another', () => {
  it('is one line at once from tsbatch and tsctld for an odd state directory or a bad TSLURM_CTLD_IDLE_EXIT', async () => {
    for (const [bin, args] of [
      ['tsbatch', ['--wrap', 'true']],
      ['tsctld', ['-D']],
      ['tsctld', []],
    ] as const) {
      const started = Date.now();
      const odd = await runBin(bin, args, { env: { TSLURM_STATE_DIR: '/proc/self' } });
      expect(odd.exitCode, bin).toBe(1);
      expect(odd.stderr, bin).toMatch(new RegExp(`^${bin}: error: state directory /proc/self is not writable: E[A-Z]+\n$`));
      expect(Date.now() - started).toBeLessThan(10_000);
    }
    const started = Date.now();
    const idle = await runBin('tsbatch', ['--wrap', 'true'], { env: { TSLURM_CTLD_IDLE_EXIT: 'abc' } });
    expect(idle).toMatchObject({ exitCode: 1, stderr: 'tsbatch: error: invalid TSLURM_CTLD_IDLE_EXIT value: abc (seconds to stay with nothing to do, 0: never)\n' });
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it('in the background, finding another running, says so as slurmctld does and exits 1', async () => {
    const ctl = testController();
    try {
      expect(await ctl.run('tsctld', ['--cluster', small])).toMatchObject({ exitCode: 0, stderr: '' });
      const pid = readFileSync(path.join(ctl.stateDir, 'tsctld.pid'), 'utf8').trim();
      expect(await ctl.run('tsctld', ['--cluster', small])).toMatchObject({
        exitCode: 1,
        stderr: `tsctld: error: another tsctld (pid ${pid}) is already using state directory ${ctl.stateDir}; stop it (kill ${pid}) before starting a new one\n`,
      });
    } finally {
      await ctl.stop();
    }
  });
});

describe('an unusable state directory', () => {
  it('is one clear line from tsbatch and from tsctld', async () => {
    const env = { TSLURM_STATE_DIR: '/proc/tslurm-no-such-dir' };
    const batch = await runBin('tsbatch', ['--wrap', 'true'], { env });
    expect(batch.exitCode).toBe(1);
    expect(batch.stderr).toBe('tsbatch: error: state directory /proc/tslurm-no-such-dir is not writable: ENOENT\n');
    const daemon = await runBin('tsctld', ['-D'], { env });
    expect(daemon.exitCode).toBe(1);
    expect(daemon.stderr).toBe('tsctld: error: state directory /proc/tslurm-no-such-dir is not writable: ENOENT\n');
  });
});

function killIfAlive(pid: number): void {
  try {
    process.kill(pid, 'SIGKILL');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ESRCH') throw error;
  }
}
