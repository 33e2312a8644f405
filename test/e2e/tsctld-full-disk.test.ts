// A full disk under the state directory (a 256 KB tmpfs, which needs root to mount): the
// controller keeps serving, refuses submissions with Slurm's errno text while it cannot write,
// takes them again by itself once there is room, and leaves no pid-file litter when it cannot
// even start. Skipped, saying why, when not root.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execa } from 'execa';
import { closeSync, mkdirSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync, statSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fixture, runBin } from '../helpers/run-bin.js';

const small = fixture('clusters', 'small.yaml');
const isRoot = process.geteuid?.() === 0;
// Resolves once no file under `dir` has changed size for half a second (within ten seconds).
async function settled(dir: string): Promise<void> {
  const sizes = () => readdirSync(dir).map((name) => `${name}:${statSync(path.join(dir, name)).size}`).join(' ');
  let last = sizes();
  for (let quiet = 0, i = 0; quiet < 5 && i < 100; i++) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    const now = sizes();
    quiet = now === last ? quiet + 1 : 0;
    last = now;
  }
}
const noSpace = 'tsbatch: error: Batch job submission failed: No space left on device\n';

describe.skipIf(!isRoot)('a full disk under the state directory (needs root to mount a tmpfs)', () => {
  const mount = mkdtempSync(path.join(tmpdir(), 'tslurm-fulldisk-'));
  const stateDir = path.join(mount, 'state');
  const filler = path.join(mount, 'filler');
  const env = { TSLURM_STATE_DIR: stateDir, TSLURM_CTLD_IDLE_EXIT: '120' };
  const submit = () => runBin('tsbatch', ['--cluster', small, '--hold', '--parsable', '--wrap', 'true'], { env });
  const pid = () => readFileSync(path.join(stateDir, 'tsctld.pid'), 'utf8').trim();
  // Writes until the file system says it is full.
  const fill = () => {
    const fd = openSync(filler, 'a');
    const block = Buffer.alloc(4096);
    try {
      for (;;) writeSync(fd, block);
    } catch (error) {
      expect((error as NodeJS.ErrnoException).code).toBe('ENOSPC');
    } finally {
      closeSync(fd);
    }
  };
  const litter = () => readdirSync(stateDir).filter((name) => /^tsctld\.pid\.|\.new$/.test(name) || name === 'tsctld.pid.takeover');

  beforeAll(async () => {
    await execa('mount', ['-t', 'tmpfs', '-o', 'size=256k,mode=700', 'tmpfs', mount]);
    mkdirSync(stateDir, { mode: 0o700 });
  });
  afterAll(async () => {
    try {
      process.kill(Number(pid()), 'SIGKILL');
    } catch {
      // not running
    }
    await execa('umount', ['-l', mount], { reject: false });
    rmSync(mount, { recursive: true, force: true });
  });

  it('refuses submissions with No space left on device while serving, and takes them again once there is room', async () => {
    const first = await submit();
    expect(first).toMatchObject({ exitCode: 0, stderr: '' });
    const controller = pid();
    // The accounting store writes its first rows (database, WAL, shared memory) a little after
    // the answer. Filled before that, its failed write gives the WAL's pages back, and a
    // submission fits again (seen once in CI): so fill only once the directory is quiet.
    await settled(stateDir);
    fill();
    // Whatever still fits (the last page of a file) is accepted and must be kept; once nothing
    // fits, every submission is refused.
    const inSlack: string[] = [];
    let refused = await submit();
    while (refused.exitCode === 0 && inSlack.length < 32) {
      inSlack.push(refused.stdout.trim());
      refused = await submit();
    }
    console.log("SLACK", inSlack.length);
    expect(refused).toMatchObject({ exitCode: 1, stderr: noSpace });
    for (let i = 0; i < 8; i++) expect(await submit()).toMatchObject({ exitCode: 1, stderr: noSpace });
    // Still the same controller, answering.
    expect(await runBin('tscontrol', ['--cluster', small, 'ping'], { env })).toMatchObject({ exitCode: 0 });
    expect(pid()).toBe(controller);
    rmSync(filler);
    let again = await submit();
    // The journal is tried again every few seconds.
    for (let i = 0; i < 20 && again.exitCode !== 0; i++) {
      await new Promise((resolve) => setTimeout(resolve, 500));
      again = await submit();
    }
    expect(again).toMatchObject({ exitCode: 0, stderr: '' });
    const queue = await runBin('tsqueue', ['--cluster', small, '-h', '-o', '%i'], { env });
    expect(queue.stdout.split('\n').filter(Boolean).sort()).toEqual([first.stdout.trim(), ...inSlack, again.stdout.trim()].sort());
    expect(pid()).toBe(controller);
    expect(litter()).toEqual([]);
  });

  it('says at once why a controller cannot start on a full disk, and leaves no pid file behind', async () => {
    process.kill(Number(pid()), 'SIGTERM');
    await new Promise((resolve) => setTimeout(resolve, 1000));
    fill();
    for (let i = 0; i < 3; i++) {
      const started = Date.now();
      const refused = await submit();
      expect(refused.exitCode).toBe(1);
      expect(refused.stderr).toMatch(/^tsbatch: error: .*No space left on device\n$/);
      expect(Date.now() - started).toBeLessThan(10_000);
    }
    expect(litter()).toEqual([]);
    rmSync(filler);
    expect(await submit()).toMatchObject({ exitCode: 0, stderr: '' });
    expect(litter()).toEqual([]);
  });
});

describe.skipIf(isRoot)('a full disk (skipped: mounting the small tmpfs it needs takes root)', () => {
  it.skip('runs as root only', () => {});
});
