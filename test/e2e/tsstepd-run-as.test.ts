// Root node daemons run a job's processes as the user who submitted it (DESIGN.md §8): uid,
// primary gid and supplementary groups, on every daemon of a step and for a batch script,
// whose output file the user owns; root's own jobs still run as root. Needs root (it makes a
// throwaway user and group, removed afterwards); skipped with its reason otherwise.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execa } from 'execa';
import { chmodSync, chownSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import net from 'node:net';
import { repoRoot } from '../helpers/run-bin.js';
import { loadCluster } from '../../src/config/load.js';
import { createLogger } from '../../src/core/log.js';
import { createPluginRegistry } from '../../src/plugin-host/create.js';
import { loadMessageAuth } from '../../src/net/load-auth.js';
import { CtldClient } from '../../src/client/ctld-client.js';
import type { NodeLaunchResult, RemoteLaunch } from '../../src/protocol/remote-launch.js';
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

  it('a cwd the user cannot enter: slurmstepd\'s error from each node and each task, the task starts in /tmp', async () => {
    const r = await asUser('tsrun', ['-N2', '-n2', '-D', '/root', 'pwd']);
    expect(r.exitCode).toBe(0);
    expect(String(r.stdout).trim().split('\n')).toEqual(['/tmp', '/tmp']);
    expect(String(r.stderr).trim().split('\n').sort()).toEqual(
      ['dn1', 'dn1', 'dn2', 'dn2'].map((node) => `tsstepd-${node}: error: couldn't chdir to \`/root': Permission denied: going to /tmp instead`),
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

  it('tsbcast of the user writes the file as the user on each node', async () => {
    const id = String((await asUser('tsbatch', ['--parsable', '-N2', '--wrap', 'sleep 60'])).stdout).trim();
    await c.until(async () => (await c.run('tsqueue', ['-h', '-j', id, '-o', '%T'])).stdout.trim() === 'RUNNING');
    const source = path.join(c.root, 'work', 'bcast-src.txt');
    writeFileSync(source, 'data\n', { mode: 0o644 });
    const dest = path.join(c.root, 'work', `bcast-${id}.txt`);
    const r = await asUser('tsbcast', ['-f', '-j', id, source, dest]);
    expect(r.stderr).toBe('');
    expect(r.exitCode).toBe(0);
    expect(statSync(dest).uid).toBe(ids.uid);
    // Where the user may not write, neither may their broadcast.
    const denied = await asUser('tsbcast', ['-j', id, source, path.join(c.root, 'state', `bcast-${id}.txt`)]);
    expect(denied.exitCode).toBe(13);
    expect(String(denied.stderr)).toMatch(/REQUEST_FILE_BCAST\(dn[12]\): Permission denied/);
    await c.run('tscancel', [id]);
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

  it('a launch signed by the user that names root as its user still runs as the user', async () => {
    // The request tsrun would send, plus `user: root`, sealed with the user's credential (this
    // root test process signs as the user with its effective uid switched for the call).
    const config = await loadCluster({ file: c.clusterFile });
    const quiet = createLogger('probe', 'quiet');
    const registry = createPluginRegistry({ ...config, plugins: { ...config.plugins, pluginDirs: [path.join(repoRoot, 'dist', 'plugins')] } }, quiet, {});
    const auth = await loadMessageAuth(registry, config.auth.type, quiet);
    const io = net.createServer(() => {}); // takes the node's I/O connection and holds it
    await new Promise<void>((resolve) => io.listen(0, '127.0.0.1', resolve));
    const out = path.join(c.root, 'work', 'forged.out');
    const port = Number(/address: 127\.0\.0\.1:(\d+)/.exec(readFileSync(c.clusterFile, 'utf8').split('name: dn1')[1]!)![1]);
    const launch: RemoteLaunch = {
      step: {
        jobId: 999, stepId: 0, jobName: 'forged', partition: 'debug', clusterName: 'daemons', nodeNames: ['dn1'],
        tasksPerNode: [1], tids: [[0]], ntasks: 1, jobNodelist: 'dn1', jobCpusPerNode: '1', jobNumNodes: 1,
        cpusPerTask: undefined, distribution: undefined, taskDist: 'block', mpiType: 'none', submitDir: '/tmp',
        submitHost: 'localhost', launchNodeAddr: '127.0.0.1', umask: '0022', label: false, timeLimit: 5,
      },
      cwd: '/tmp',
      env: [`PATH=${process.env['PATH']}`],
      killWaitSeconds: 1,
      plugins: { clusterName: config.clusterName, plugins: config.plugins, options: config.options },
      endsJob: true,
      nodes: [{ name: 'dn1', host: '127.0.0.1', port, spec: { nodeId: 0, cpusOnNode: 1, gpus: [], argv: [['sh', '-c', `id -u > ${out}`]], stdin: 'none' } }],
      io: { host: '127.0.0.1', port: (io.address() as net.AddressInfo).port, key: 'x' },
      treeWidth: 50,
      user: { uid: 0, gid: 0 },
    };
    const client = await CtldClient.connect({ host: '127.0.0.1', port }, auth);
    let answer: NodeLaunchResult[];
    process.seteuid!(ids.uid);
    try {
      answer = await client.call<NodeLaunchResult[]>('launch', { launch, span: [0, 1] });
    } finally {
      process.seteuid!(0);
      client.close();
    }
    try {
      expect(answer).toEqual([{ node: 'dn1', ok: true }]);
      // Never create the file here: one made by this root process first is root's, and the
      // user's task could then not write it (a race the task's start-up decides).
      await c.until(() => existsSync(out) && readFileSync(out, 'utf8').length > 0, 10_000);
      expect(readFileSync(out, 'utf8')).toBe(`${ids.uid}\n`);
    } finally {
      io.close();
      await registry.finiAll();
    }
  });

  it('only root or the controller\'s user may drain nodes, reconfigure, stop the controller or speak for a node daemon', async () => {
    const drain = await asUser('tscontrol', ['update', 'NodeName=dn2', 'State=DRAIN', 'Reason=mine']);
    expect({ exit: drain.exitCode, stderr: String(drain.stderr) }).toEqual({ exit: 1, stderr: 'slurm_update error: Access/permission denied' }); // scontrol's words (execa strips the newline)
    expect((await asUser('tscontrol', ['reconfigure'])).exitCode).toBe(1);
    // What a node daemon or an administrator sends, signed by the user (effective uid switched).
    const config = await loadCluster({ file: c.clusterFile });
    const quiet = createLogger('probe', 'quiet');
    const registry = createPluginRegistry({ ...config, plugins: { ...config.plugins, pluginDirs: [path.join(repoRoot, 'dist', 'plugins')] } }, quiet, {});
    const auth = await loadMessageAuth(registry, config.auth.type, quiet);
    const refusals: string[] = [];
    for (const [op, body] of [['shutdown', undefined], ['node-heartbeat', { node: 'dn2' }], ['reconfigure', undefined]] as const) {
      const client = await CtldClient.connect({ host: '127.0.0.1', port: c.ctldPort }, auth);
      process.seteuid!(ids.uid);
      try {
        refusals.push(await client.call(op as 'shutdown', body as never).then(() => 'accepted', (error: Error) => error.message));
      } finally {
        process.seteuid!(0);
        client.close();
      }
    }
    await registry.finiAll();
    expect(refusals).toEqual(['Access/permission denied', 'Access/permission denied', 'Access/permission denied']);
    // The controller still serves and dn2 was left as it was; root may drain it.
    expect((await c.states())['dn2']).not.toMatch(/^dr/);
    expect((await c.run('tscontrol', ['update', 'NodeName=dn2', 'State=DRAIN', 'Reason=root'])).exitCode).toBe(0);
    await c.until(async () => /^dr/.test((await c.states())['dn2'] ?? ''));
    expect((await c.run('tscontrol', ['update', 'NodeName=dn2', 'State=RESUME'])).exitCode).toBe(0);
  });

  it('a user may lower a job\'s priority with --nice but not raise it (Slurm 22.05\'s messages)', async () => {
    const negative = await asUser('tsbatch', ['-H', '--nice=-5', '--wrap', 'true']);
    expect({ exit: negative.exitCode, stderr: String(negative.stderr) }).toEqual({ exit: 1, stderr: 'tsbatch: error: Batch job submission failed: Invalid --nice value' });
    const held = await asUser('tsbatch', ['--parsable', '-H', '--nice=5', '--wrap', 'true']);
    expect(held.exitCode).toBe(0);
    const id = String(held.stdout).trim();
    expect((await asUser('tscontrol', ['update', `JobId=${id}`, 'Nice=7'])).exitCode).toBe(0);
    const raise = await asUser('tscontrol', ['update', `JobId=${id}`, 'Nice=-5']);
    expect({ exit: raise.exitCode, stderr: String(raise.stderr) }).toEqual({ exit: 1, stderr: `Access/permission denied for job ${id}` });
    expect((await c.run('tscontrol', ['update', `JobId=${id}`, 'Nice=-5'])).exitCode).toBe(0);
    expect((await asUser('tscancel', [id])).exitCode).toBe(0);
    // Another user's job: scancel exits with 2002 & 0xff (observed on Slurm 22.05).
    const roots = (await c.run('tsbatch', ['--parsable', '-H', '--wrap', 'true'])).stdout.trim();
    const refused = await asUser('tscancel', [roots]);
    expect({ exit: refused.exitCode, stderr: String(refused.stderr) }).toEqual({ exit: 210, stderr: `tscancel: error: Kill job error on job id ${roots}: Access/permission denied` });
    expect((await c.run('tscancel', [roots])).exitCode).toBe(0);
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
