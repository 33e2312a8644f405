// tsrun's signals: SIGTERM is passed on to the tasks, two Ctrl-C within a second end the step,
// and no task outlives tsrun — even when tsrun itself is killed with SIGKILL.
import { describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startBin } from '../helpers/run-bin.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits until every task has written its pid file; returns the pids. */
async function pidsOf(dir: string, n: number): Promise<number[]> {
  for (let i = 0; i < 200; i++) {
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
function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
}

// Each task starts a background sleep (a grandchild) and records its pid.
const task = (dir: string) => ['sh', '-c', `sleep 300 & echo $! > ${dir}/pid-$SLURM_PROCID; wait`];

describe('tsrun and signals', () => {
  it('passes SIGTERM on to the tasks and reports them Terminated', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'tslurm-sig-'));
    const run = startBin('tsrun', ['-n2', ...task(dir)], { env: { TSLURM_KILL_WAIT: '1' } });
    const pids = await pidsOf(dir, 2);
    run.kill('SIGTERM');
    const r = await run;
    expect(r.exitCode).toBe(143);
    expect(String(r.stderr)).toContain('tsrun: error: node1: tasks 0-1: Terminated');
    await sleep(200);
    expect(pids.filter(alive)).toEqual([]);
  });

  it('prints the step status on a first Ctrl-C and ends the step on a second', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'tslurm-int-'));
    const run = startBin('tsrun', ['-n2', ...task(dir)]);
    const pids = await pidsOf(dir, 2);
    run.kill('SIGINT');
    await sleep(200);
    run.kill('SIGINT');
    const r = await run;
    expect(String(r.stderr)).toMatch(/^tsrun: interrupt \(one more within 1 sec to abort\)\ntsrun: StepId=1\.0 tasks 0-1: running\ntsrun: forcing job termination\n/);
    expect(r.exitCode).toBe(137);
    await sleep(200);
    expect(pids.filter(alive)).toEqual([]);
  });

  it('leaves no task behind when tsrun is killed with SIGKILL', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'tslurm-kill-'));
    const run = startBin('tsrun', ['-n3', ...task(dir)], { env: { TSLURM_KILL_WAIT: '1' } });
    const pids = await pidsOf(dir, 3);
    run.kill('SIGKILL');
    await run;
    // The reaper is a fresh Node process: on a loaded machine it may take seconds to start.
    for (let i = 0; i < 200 && pids.some(alive); i++) await sleep(100);
    expect(pids.filter(alive)).toEqual([]);
  });
});
