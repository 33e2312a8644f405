// tsrun's steps on the embedded step host: started on demand by the first tsrun (no controller
// needed to start it), its idle exit never ends a step that runs longer than the idle time,
// two tsruns starting at once on a fresh state directory end up with one host, and the host
// goes once idle.
import { describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { runBin } from '../helpers/run-bin.js';
import { alive } from '../helpers/processes.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function hostPid(stateDir: string): number | undefined {
  try {
    return Number.parseInt(readFileSync(path.join(stateDir, 'tsstepd.pid'), 'utf8'), 10);
  } catch {
    return undefined;
  }
}

async function until(check: () => boolean, ms: number): Promise<boolean> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) return false;
    await sleep(100);
  }
  return true;
}

describe('the step host runs the steps of tsrun', () => {
  it('runs a step longer than its idle time to the end, then exits once idle', async () => {
    const stateDir = mkdtempSync(path.join(tmpdir(), 'tslurm-host-steps-'));
    const env = { TSLURM_STATE_DIR: stateDir, TSLURM_STEPD_IDLE_EXIT: '1' };
    const r = await runBin('tsrun', ['-n2', '-l', 'sh', '-c', 'sleep 4; echo ended; echo $PPID > /dev/null'], { env });
    expect(r).toMatchObject({ exitCode: 0, stderr: '' });
    expect(r.stdout.split('\n').sort()).toEqual(['', '0: ended', '1: ended']);
    const pid = hostPid(stateDir)!;
    expect(pid).toBeGreaterThan(0);
    expect(await until(() => !alive(pid), 20_000)).toBe(true);
  });

  it('two tsruns started at once on a fresh state directory share one step host', async () => {
    const stateDir = mkdtempSync(path.join(tmpdir(), 'tslurm-host-steps-'));
    const env = { TSLURM_STATE_DIR: stateDir };
    // Each task names its parent, the step host's spawn server, and the server's: the step host.
    const script = 'cat /proc/$PPID/comm; h=$(cut -d" " -f4 /proc/$PPID/stat); cat /proc/$h/cmdline | tr "\\0" " "; echo; echo $h';
    const [a, b] = await Promise.all([0, 1].map(() => runBin('tsrun', ['-n1', 'sh', '-c', script], { env })));
    expect(a!.exitCode).toBe(0);
    expect(b!.exitCode).toBe(0);
    const parent = (out: string) => out.trim().split('\n');
    expect(parent(a!.stdout)[0]).toBe('tsspawn_server');
    expect(parent(a!.stdout)[1]).toMatch(/tsstepd\.js --embedded/);
    expect(parent(a!.stdout)[2]).toBe(parent(b!.stdout)[2]);
    expect(parent(a!.stdout)[2]).toBe(String(hostPid(stateDir)));
  });
});
