// tsrun's signals as srun 22.05 takes them (observed, /work/ref/signals.txt): a first Ctrl-C
// prints the step's status, a second within a second sends SIGINT to the tasks and forces the
// step's end (130 when they die of the SIGINT); SIGTERM and SIGHUP force the end at once
// (137), SIGQUIT after a `Quit` line; SIGUSR1 is passed on; and no task outlives tsrun, even
// when tsrun itself is killed with SIGKILL.
import { describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startBin } from '../helpers/run-bin.js';
import { alive } from '../helpers/processes.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const stamp = '\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d';
const env = { TSLURM_KILL_WAIT: '1' };

/** Waits until every task has written its pid file; returns the pids. */
async function pidsOf(dir: string, n: number): Promise<number[]> {
  for (let i = 0; i < 400; i++) {
    const files = Array.from({ length: n }, (_, t) => path.join(dir, `pid-${t}`));
    if (files.every((f) => existsSync(f) && readFileSync(f, 'utf8').trim() !== '')) {
      return files.map((f) => Number.parseInt(readFileSync(f, 'utf8'), 10));
    }
    await sleep(50);
  }
  throw new Error('tasks did not start');
}

// Alive and not a zombie: an orphan nobody reaps (PID 1 in some containers does not) stays
// in the process table as Z, but it is no longer running.

// Each task starts a background sleep (a grandchild), records its pid, then becomes a sleep.
const task = (dir: string) => ['sh', '-c', `sleep 300 & echo $! > ${dir}/pid-$SLURM_PROCID; exec sleep 301`];
const newDir = () => mkdtempSync(path.join(tmpdir(), 'tslurm-sig-'));

describe('tsrun and signals, as srun', () => {
  it('SIGTERM forces the step\'s end: every task killed, srun\'s lines, 137', async () => {
    const dir = newDir();
    const run = startBin('tsrun', ['-n2', ...task(dir)], { env });
    const pids = await pidsOf(dir, 2);
    run.kill('SIGTERM');
    const r = await run;
    expect(r.exitCode).toBe(137);
    expect(String(r.stderr)).toMatch(
      new RegExp(
        '^tsrun: forcing job termination\\n' +
          'tsrun: Job step aborted: Waiting up to 3 seconds for job step to finish\\.\\n' +
          `tsstepd-node1: error: \\*\\*\\* STEP 1\\.0 ON node1 CANCELLED AT ${stamp} \\*\\*\\*\\n` +
          'tsrun: error: node1: tasks 0-1: Killed\\n$',
      ),
    );
    await sleep(200);
    expect(pids.filter(alive)).toEqual([]);
  });

  it('SIGQUIT says Quit first; SIGHUP as SIGTERM', async () => {
    for (const [signal, first] of [['SIGQUIT', 'tsrun: Quit\n'], ['SIGHUP', '']] as const) {
      const dir = newDir();
      const run = startBin('tsrun', ['-n1', ...task(dir)], { env });
      await pidsOf(dir, 1);
      run.kill(signal);
      const r = await run;
      expect(r.exitCode).toBe(137);
      expect(String(r.stderr).startsWith(`${first}tsrun: forcing job termination\n`)).toBe(true);
      expect(String(r.stderr)).toContain('tsrun: error: node1: task 0: Killed\n');
    }
  });

  it('prints the step status on a first Ctrl-C; a second sends Ctrl-C to the step and ends it (130)', async () => {
    const dir = newDir();
    const run = startBin('tsrun', ['-n2', ...task(dir)], { env });
    const pids = await pidsOf(dir, 2);
    run.kill('SIGINT');
    await sleep(200);
    run.kill('SIGINT');
    const r = await run;
    expect(String(r.stderr)).toMatch(
      new RegExp(
        '^tsrun: interrupt \\(one more within 1 sec to abort\\)\\n' +
          'tsrun: StepId=1\\.0 tasks 0-1: running\\n' +
          'tsrun: sending Ctrl-C to StepId=1\\.0\\n' +
          'tsrun: forcing job termination\\n' +
          'tsrun: Job step aborted: Waiting up to 3 seconds for job step to finish\\.\\n' +
          `tsstepd-node1: error: \\*\\*\\* STEP 1\\.0 ON node1 CANCELLED AT ${stamp} \\*\\*\\*\\n$`,
      ),
    );
    expect(r.exitCode).toBe(130);
    await sleep(200);
    expect(pids.filter(alive)).toEqual([]);
  });

  it('tasks that ignore SIGINT are killed by the second Ctrl-C (137); drop-in name srun', async () => {
    const dir = newDir();
    const run = startBin('slurm-name', ['srun', '-n1', 'sh', '-c', `trap '' INT; echo $$ > ${dir}/pid-0; exec sleep 300`], { env });
    await pidsOf(dir, 1);
    run.kill('SIGINT');
    await sleep(200);
    run.kill('SIGINT');
    const r = await run;
    expect(r.exitCode).toBe(137);
    expect(String(r.stderr)).toContain('srun: sending Ctrl-C to StepId=1.0\nsrun: forcing job termination\n');
    expect(String(r.stderr)).not.toContain('Killed');
  });

  it('the first Ctrl-C\'s status names the tasks that ended, normally or not', async () => {
    const dir = newDir();
    const script = `case $SLURM_PROCID in 1) exit 0;; 2) exit 3;; 3) kill -9 $$;; esac; echo $$ > ${dir}/pid-0; exec sleep 300`;
    const run = startBin('tsrun', ['-n4', 'sh', '-c', script], { env });
    await pidsOf(dir, 1);
    await sleep(500); // tasks 1-3 end at once; their exits reach tsrun
    run.kill('SIGINT');
    await sleep(300);
    run.kill('SIGTERM');
    const r = await run;
    expect(String(r.stderr)).toContain(
      'tsrun: interrupt (one more within 1 sec to abort)\n' +
        'tsrun: StepId=1.0 task 0: running\n' +
        'tsrun: StepId=1.0 tasks 2-3: exited abnormally\n' +
        'tsrun: StepId=1.0 task 1: exited\n',
    );
    expect(r.exitCode).toBe(137);
  });

  it('passes SIGUSR1 on to the tasks', async () => {
    const dir = newDir();
    const run = startBin('tsrun', ['-n2', ...task(dir)], { env });
    await pidsOf(dir, 2);
    run.kill('SIGUSR1');
    const r = await run;
    expect(r).toMatchObject({ exitCode: 138, stderr: 'tsrun: error: node1: tasks 0-1: User defined signal 1\n' });
  });

  it('leaves no task behind when tsrun is killed with SIGKILL', async () => {
    const dir = newDir();
    const run = startBin('tsrun', ['-n3', ...task(dir)], { env });
    const pids = await pidsOf(dir, 3);
    run.kill('SIGKILL');
    await run;
    // The reaper is a fresh Node process: on a loaded machine it may take seconds to start.
    for (let i = 0; i < 200 && pids.some(alive); i++) await sleep(100);
    expect(pids.filter(alive)).toEqual([]);
  });
});
