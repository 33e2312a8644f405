// srun's step options that change how a step ends, as srun 22.05 does them (observed,
// /work/ref/steps-wait.txt and steps-quit-on-interrupt.txt): -W/--wait=SEC kills the tasks
// still running SEC seconds after the first one ended (the step's status, the signal line,
// "Killed", 137); --quit-on-interrupt makes a single Ctrl-C end the step (130); --pty runs
// task 0 on a pseudo-terminal and silences the others (steps-pty.txt).
import { describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import { repoRoot, runBin, startBin } from '../helpers/run-bin.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const stamp = '\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d';
const env = { TSLURM_KILL_WAIT: '1' };

async function waitForFiles(files: string[]): Promise<void> {
  for (let i = 0; i < 400; i++) {
    if (files.every((f) => existsSync(f) && readFileSync(f, 'utf8').trim() !== '')) return;
    await sleep(50);
  }
  throw new Error('tasks did not start');
}

describe('-W/--wait', () => {
  it('kills the tasks still running SEC seconds after the first ended, with srun\'s lines (137)', async () => {
    // The TERM trap never runs: srun kills them outright.
    const script = 'case $SLURM_PROCID in 0) exit 3;; esac; trap "echo got TERM" TERM; sleep 60 & wait';
    const started = Date.now();
    const r = await runBin('tsrun', ['-n3', '-W1', 'sh', '-c', script], { env });
    expect(Date.now() - started).toBeLessThan(20_000);
    expect(r.exitCode).toBe(137);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(
      new RegExp(
        // The failed task's line comes as it ends, before the wait runs out (as srun 22.05 prints it).
        '^tsrun: error: node1: task 0: Exited with exit code 3\\n' +
          'tsrun: First task exited 1s ago\\n' +
          'tsrun: StepId=1\\.0 tasks 1-2: running\\n' +
          'tsrun: StepId=1\\.0 task 0: exited abnormally\\n' +
          'tsrun: launch/slurm: _step_signal: Terminating StepId=1\\.0\\n' +
          `tsstepd-node1: error: \\*\\*\\* STEP 1\\.0 ON node1 CANCELLED AT ${stamp} \\*\\*\\*\\n` +
          'tsrun: Job step aborted: Waiting up to 3 seconds for job step to finish\\.\\n',
      ),
    );
    expect(r.stderr).toContain('tsrun: error: node1: tasks 1-2: Killed\n');
  });

  it('leaves a step alone whose tasks end within the wait; 0 means no limit (drop-in srun, --wait=)', async () => {
    const script = 'case $SLURM_PROCID in 0) exit 0;; esac; sleep 2; echo done $SLURM_PROCID';
    for (const wait of ['--wait=30', '--wait=0']) {
      const r = await runBin('slurm-name', ['srun', '-n2', wait, 'sh', '-c', script], { env });
      expect(r).toEqual({ exitCode: 0, stdout: 'done 1\n', stderr: '' });
    }
  });
});

describe('--quit-on-interrupt', () => {
  it('ends the step at the first Ctrl-C, as a second Ctrl-C does otherwise (130)', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'tslurm-qoi-'));
    const run = startBin('slurm-name', ['srun', '-n2', '--quit-on-interrupt', 'sh', '-c', `echo $$ > ${dir}/pid-$SLURM_PROCID; exec sleep 300`], { env });
    await waitForFiles([0, 1].map((t) => path.join(dir, `pid-${t}`)));
    run.kill('SIGINT');
    const r = await run;
    expect(r.exitCode).toBe(130);
    expect(String(r.stderr)).toMatch(
      new RegExp(
        '^srun: sending Ctrl-C to StepId=1\\.0\\n' +
          'srun: forcing job termination\\n' +
          'srun: Job step aborted: Waiting up to 3 seconds for job step to finish\\.\\n' +
          `tsstepd-node1: error: \\*\\*\\* STEP 1\\.0 ON node1 CANCELLED AT ${stamp} \\*\\*\\*\\n$`,
      ),
    );
  });
});

describe('--pty', () => {
  const tsrun = `${process.execPath} ${path.join(repoRoot, 'bin', 'tsrun.js')}`;

  it('runs task 0 on a terminal of tsrun\'s size; the other tasks are not heard (under script(1))', async () => {
    const task = 'test -t 1 && o=out; echo t$SLURM_PROCID $(test -t 0 && echo in) $o $(stty size) $SLURM_PTY_WIN_ROW $SLURM_PTY_WIN_COL; echo err >&2; exit 3';
    const inner = `stty rows 30 cols 100; ${tsrun} --pty -n2 sh -c '${task}'`;
    const r = await execa('script', ['-qec', inner, '/dev/null'], { reject: false, env: { ...process.env, NO_COLOR: '1', TSLURM_STATE_DIR: mkdtempSync(path.join(tmpdir(), 'tslurm-pty-')) }, timeout: 60_000 });
    // The task's terminal ends its lines with CR LF, and so does script's.
    const lines = String(r.stdout).split('\n').map((line) => line.replace(/[\r\0]/g, ''));
    expect(lines).toContain('t0 in out 30 100 30 100');
    expect(lines).toContain('err');
    expect(lines.filter((line) => line.startsWith('t1'))).toEqual([]);
    expect(lines).toContain('tsrun: error: node1: tasks 0-1: Exited with exit code 3');
    expect(r.exitCode).toBe(3);
  });

  it('passes a Ctrl-C typed at tsrun\'s terminal to the task, as a key of its own terminal (130)', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'tslurm-pty-'));
    // The key is typed once the task runs (tsrun's terminal is raw by then).
    const feed = `until [ -f ${dir}/started ]; do sleep 0.1; done; printf '\\003'; sleep 10`;
    const inner = `${tsrun} --pty -n1 sh -c 'touch ${dir}/started; exec sleep 60'; echo rc=\\$?`;
    const r = await execa('sh', ['-c', `(${feed}) | script -qec "${inner}" /dev/null`], { reject: false, env: { ...process.env, NO_COLOR: '1', TSLURM_STATE_DIR: dir }, timeout: 60_000 });
    const lines = String(r.stdout).split('\n').map((line) => line.replace(/[\r\0]/g, ''));
    expect(lines).toContain('^Ctsrun: error: node1: task 0: Interrupt');
    expect(lines).toContain('rc=130');
  });

  it('passes a change of tsrun\'s window size on to the task\'s terminal, and bytes 0xFF through', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'tslurm-pty-'));
    // Once the task runs: its input (with a 0xFF byte), then tsrun's terminal resized.
    const feed = `until [ -f ${dir}/started ]; do sleep 0.1; done; printf 'x\\377y\\n'; until [ -f ${dir}/read ]; do sleep 0.1; done; stty -F $(cat ${dir}/outer) rows 40 cols 120; sleep 10`;
    const task = `trap \\"stty size > ${dir}/size; exit 0\\" WINCH; touch ${dir}/started; head -n1 | od -An -tx1 > ${dir}/bytes; touch ${dir}/read; while :; do sleep 0.2; done`;
    const inner = `tty > ${dir}/outer; ${tsrun} --pty -n1 sh -c '${task}'; echo rc=\\$?`;
    const r = await execa('sh', ['-c', `(${feed}) | script -qec "${inner}" /dev/null`], { reject: false, env: { ...process.env, NO_COLOR: '1', TSLURM_STATE_DIR: dir }, timeout: 60_000 });
    expect(String(r.stdout).replace(/[\r\0]/g, '')).toContain('rc=0');
    expect(readFileSync(path.join(dir, 'bytes'), 'utf8').trim()).toBe('78 ff 79 0a');
    expect(readFileSync(path.join(dir, 'size'), 'utf8')).toBe('40 120\n');
  });

  it('without a terminal says so in srun\'s two lines and runs the step as usual (drop-in srun)', async () => {
    const r = await runBin('slurm-name', ['srun', '--pty', '-n2', 'sh', '-c', 'test -t 1 || echo t$SLURM_PROCID no terminal']);
    expect(r).toEqual({
      exitCode: 0,
      stdout: expect.stringMatching(/^(t0 no terminal\nt1 no terminal\n|t1 no terminal\nt0 no terminal\n)$/),
      stderr: 'srun: error: ioctl(TIOCGWINSZ): Inappropriate ioctl for device\nsrun: error: Not using a pseudo-terminal, disregarding --pty option\n',
    });
  });
});
