// Root node daemons run a job's processes as the user who submitted it (DESIGN.md §8): uid,
// primary gid and supplementary groups, on every daemon of a step and for a batch script,
// whose output file the user owns; root's own jobs still run as root. Needs root (it makes a
// throwaway user and group, removed afterwards); skipped with its reason otherwise.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execa } from 'execa';
import { chmodSync, chownSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { repoRoot } from '../helpers/run-bin.js';
import { startDaemonCluster, type DaemonCluster } from '../helpers/daemon-cluster.js';

const isRoot = process.getuid?.() === 0;
const tag = `${process.pid % 100000}`;
const user = `tslurmtest${tag}`;
const group = `tslurmtg${tag}`;

interface Ids {
  uid: number;
  gid: number;
  groups: string;
}

/** `id` of a user as the system answers it: what the tasks must print. */
async function idsOf(name: string): Promise<Ids> {
  const [u, g, all] = await Promise.all([execa('id', ['-u', name]), execa('id', ['-g', name]), execa('id', ['-G', name])]);
  return { uid: Number(u.stdout), gid: Number(g.stdout), groups: all.stdout.trim() };
}

describe.skipIf(!isRoot)('root tsstepd daemons run jobs as the submitting user', () => {
  let c: DaemonCluster;
  let ids: Ids;
  let userState: string;

  /** A command run as the test user (runuser), against the cluster, from its work directory. */
  const asUser = (bin: string, args: string[]) =>
    execa('runuser', ['-u', user, '--', process.execPath, path.join(repoRoot, 'bin', `${bin}.js`), ...args], {
      reject: false,
      cwd: path.join(c.root, 'work'),
      env: { TSLURM_CONF: c.clusterFile, TSLURM_STATE_DIR: userState, NO_COLOR: '1', PATH: process.env['PATH'] },
      extendEnv: false,
      timeout: 30_000,
    });

  beforeAll(async () => {
    await execa('groupadd', ['-r', group]);
    await execa('useradd', ['-M', '-r', '-G', group, user]);
    ids = await idsOf(user);
    c = await startDaemonCluster({ nodes: 4, treeWidth: 2 });
    // The user must reach the cluster file, read the key (auth/hmac: commands sign with it; a
    // key only its owner reads, so it becomes theirs; root's daemons read it anyway), work in
    // the work directory and pass through the state directory to the daemons' spools.
    chownSync(c.keyFile, ids.uid, ids.gid);
    chmodSync(c.root, 0o711);
    chmodSync(path.join(c.root, 'state'), 0o711);
    chmodSync(path.join(c.root, 'work'), 0o777);
    userState = path.join(c.root, 'user-state');
    mkdirSync(userState);
    chownSync(userState, ids.uid, ids.gid);
  }, 60_000);

  afterAll(async () => {
    await c?.stop();
    await execa('userdel', [user], { reject: false });
    await execa('groupdel', [group], { reject: false });
  });

  it('a step of tsrun run by the user has its uid, gid and groups on all four daemons', async () => {
    expect(ids.groups.split(' ')).toHaveLength(2); // primary and the supplementary group
    const r = await asUser('tsrun', ['-N4', '-n4', '-l', 'sh', '-c', 'echo "$(id -u) $(id -g) $(id -G) $(hostname >/dev/null; echo ok)"']);
    expect(r.stderr).toBe('');
    expect(r.exitCode).toBe(0);
    const lines = String(r.stdout).trim().split('\n').sort();
    expect(lines).toEqual([0, 1, 2, 3].map((t) => `${t}: ${ids.uid} ${ids.gid} ${ids.groups} ok`));
  });

  it('a cwd the user cannot enter: slurmstepd\'s error from each node, the task starts in /tmp', async () => {
    const r = await asUser('tsrun', ['-N2', '-n2', '-D', '/root', 'pwd']);
    expect(r.exitCode).toBe(0);
    expect(String(r.stdout).trim().split('\n')).toEqual(['/tmp', '/tmp']);
    expect(String(r.stderr).trim().split('\n').sort()).toEqual(
      ['dn1', 'dn2'].map((node) => `tsstepd-${node}: error: couldn't chdir to \`/root': Permission denied: going to /tmp instead`),
    );
  });

  it('a program only root may run is refused as execve refuses the user', async () => {
    const secret = path.join(c.root, 'work', 'root-only');
    writeFileSync(secret, '#!/bin/sh\necho ran\n', { mode: 0o700 });
    const r = await asUser('tsrun', ['-N1', secret]);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain(`execve(): ${secret}: Permission denied`);
    expect(r.exitCode).toBe(13);
  });

  it('a batch job of the user runs its script as the user, its output file is theirs', async () => {
    const script = path.join(c.root, 'work', 'user-job.sh');
    writeFileSync(script, '#!/bin/sh\n#SBATCH -N1 -o user-job.out\necho "$(id -u) $(id -g) $(id -G)"\n', { mode: 0o644 });
    const r = await asUser('tsbatch', ['--parsable', '--wait', script]);
    expect(r.stderr).toBe('');
    expect(r.exitCode).toBe(0);
    const out = path.join(c.root, 'work', 'user-job.out');
    expect(readFileSync(out, 'utf8')).toBe(`${ids.uid} ${ids.gid} ${ids.groups}\n`);
    expect(statSync(out).uid).toBe(ids.uid);
  });

  it('a batch job of the user cannot write where the user may not: the job fails', async () => {
    const closed = path.join(c.root, 'closed');
    mkdirSync(closed, { mode: 0o755 }); // root's: the user may enter, not write
    const script = path.join(c.root, 'work', 'user-job2.sh');
    writeFileSync(script, `#!/bin/sh\n#SBATCH -N1 -o ${closed}/job.out\necho hi\n`, { mode: 0o644 });
    const r = await asUser('tsbatch', ['--parsable', '--wait', script]);
    expect(r.exitCode).not.toBe(0);
    expect(() => statSync(path.join(closed, 'job.out'))).toThrow();
  });

  it('root\'s own step and batch job still run as root', async () => {
    const step = await c.run('tsrun', ['-N4', '-n4', 'id', '-u']);
    expect(step.stdout.trim().split('\n')).toEqual(['0', '0', '0', '0']);
    const script = path.join(c.root, 'work', 'root-job.sh');
    writeFileSync(script, '#!/bin/sh\n#SBATCH -N1 -o root-job.out\nid -u\n');
    const r = await c.run('tsbatch', ['--parsable', '--wait', script]);
    expect(r.exitCode).toBe(0);
    const out = path.join(c.root, 'work', 'root-job.out');
    expect(readFileSync(out, 'utf8')).toBe('0\n');
    expect(statSync(out).uid).toBe(0);
  });
});

describe.skipIf(isRoot)('running jobs as the submitting user', () => {
  it.skip('needs root (to make a throwaway user and to run root daemons); this run is not root', () => {});
});
