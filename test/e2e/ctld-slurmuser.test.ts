// A controller that runs as an ordinary user (the embedded tsctld a user's own commands start)
// takes that user as its SlurmUser: every administrator's request is theirs to make, as
// slurmctld's validate_slurm_user allows SlurmUser beside root — suspend and resume,
// reservations, raising a time limit, an administrator's hold, a negative nice. Needs root to
// make the throwaway user (removed afterwards); skipped with its reason otherwise.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execa } from 'execa';
import { chownSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fixture, repoRoot } from '../helpers/run-bin.js';

const isRoot = process.getuid?.() === 0;
const user = `tslurmsu${process.pid % 100000}`;

describe.skipIf(!isRoot)('a controller run by an ordinary user', () => {
  let root: string;
  let stateDir: string;
  let workDir: string;

  /** A command run as the user (runuser) against their own controller. */
  const asUser = async (bin: string, args: string[]) => {
    const r = await execa('runuser', ['-u', user, '--', process.execPath, path.join(repoRoot, 'bin', `${bin}.js`), ...args], {
      reject: false,
      cwd: workDir,
      env: { TSLURM_CONF: fixture('clusters', 'one-node.yaml'), TSLURM_STATE_DIR: stateDir, TSLURM_CTLD_IDLE_EXIT: '120', NO_COLOR: '1', PATH: process.env['PATH'] },
      extendEnv: false,
      timeout: 60_000,
    });
    return { exitCode: r.exitCode, stdout: String(r.stdout), stderr: String(r.stderr) };
  };

  beforeAll(async () => {
    await execa('useradd', ['-M', '-r', user]);
    const { stdout } = await execa('id', ['-u', user]);
    const uid = Number(stdout);
    root = mkdtempSync(path.join(tmpdir(), 'tslurm-su-'));
    stateDir = path.join(root, 'state');
    workDir = path.join(root, 'work');
    for (const dir of [stateDir, workDir]) {
      mkdirSync(dir);
      chownSync(dir, uid, uid);
    }
    chownSync(root, uid, uid);
  }, 30_000);

  afterAll(async () => {
    const pidFile = path.join(stateDir ?? '', 'tsctld.pid');
    if (stateDir && existsSync(pidFile)) {
      try {
        process.kill(Number(readFileSync(pidFile, 'utf8')), 'SIGTERM');
      } catch {
        // already gone
      }
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
    await execa('userdel', [user], { reject: false });
    if (root) rmSync(root, { recursive: true, force: true });
  });

  it('may suspend and resume, raise a time limit, hold as administrator, use a negative nice and manage reservations', async () => {
    const submitted = await asUser('tsbatch', ['--parsable', '-t', '5', '--wrap', 'sleep 120']);
    expect(submitted.stderr).toBe('');
    const id = submitted.stdout.trim();
    const state = async () => /JobState=(\S+)/.exec((await asUser('tscontrol', ['show', 'job', id])).stdout)?.[1];
    for (let i = 0; i < 200 && (await state()) !== 'RUNNING'; i++) await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await state()).toBe('RUNNING');
    expect(await asUser('tscontrol', ['suspend', id])).toEqual({ exitCode: 0, stdout: '', stderr: '' });
    expect(await state()).toBe('SUSPENDED');
    expect(await asUser('tscontrol', ['resume', id])).toEqual({ exitCode: 0, stdout: '', stderr: '' });
    expect(await state()).toBe('RUNNING');
    expect(await asUser('tscontrol', ['update', `JobId=${id}`, 'TimeLimit=+10'])).toEqual({ exitCode: 0, stdout: '', stderr: '' });
    expect((await asUser('tscontrol', ['show', 'job', id])).stdout).toContain(' TimeLimit=00:15:00 ');
    // An administrator's hold, which only an administrator may release.
    const later = await asUser('tsbatch', ['--parsable', '--begin=now+1hour', '--nice=-5', '--wrap', 'true']);
    expect(later.stderr).toBe('');
    const laterId = later.stdout.trim();
    expect((await asUser('tscontrol', ['hold', laterId])).exitCode).toBe(0);
    expect((await asUser('tscontrol', ['show', 'job', laterId])).stdout).toContain('Reason=JobHeldAdmin');
    expect((await asUser('tscontrol', ['release', laterId])).exitCode).toBe(0);
    const created = await asUser('tscontrol', ['create', 'reservation', 'ReservationName=mine', 'StartTime=now+1hour', 'Duration=10', 'Nodes=node1', `Users=${user}`]);
    expect(created).toEqual({ exitCode: 0, stdout: 'Reservation created: mine', stderr: '' });
    expect((await asUser('tscontrol', ['update', 'ReservationName=mine', 'Duration=20'])).exitCode).toBe(0);
    expect(await asUser('tscontrol', ['delete', 'ReservationName=mine'])).toEqual({ exitCode: 0, stdout: '', stderr: '' });
    expect((await asUser('tscancel', [id, laterId])).exitCode).toBe(0);
  }, 120_000);
});
