// Daemon mode (issue 7): a controller and four tsstepd node daemons on loopback ports, every
// message signed with auth/hmac. Steps fan out through the daemons' tree (width 2 here, so
// forwarding really happens), batch jobs run on their first node's daemon, a daemon killed
// mid-step is a node failure, and forged, replayed or unsigned messages are refused and logged.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execa } from 'execa';
import { existsSync, mkdtempSync, readFileSync, writeFileSync, chmodSync } from 'node:fs';
import { loadCluster } from '../../src/config/load.js';
import { createLogger } from '../../src/core/log.js';
import { createPluginRegistry } from '../../src/plugin-host/create.js';
import { loadMessageAuth } from '../../src/net/load-auth.js';
import { connectEndpoint } from '../../src/net/endpoint.js';
import { request } from '../../src/protocol/rpc.js';
import path from 'node:path';
import { repoRoot, runBin } from '../helpers/run-bin.js';
import { tmpdir } from 'node:os';
import { startDaemonCluster, type DaemonCluster } from '../helpers/daemon-cluster.js';
import { liveWithMark } from '../helpers/proc-scan.js';

function comm(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/comm`, 'utf8').trim();
  } catch {
    return '';
  }
}

// MPICH's compiler (the MPI test runs where it is installed; under CI it must be).
const mpicc = ['mpicc.mpich', 'mpicc'].map((name) => ['/usr/bin', '/usr/local/bin'].map((dir) => path.join(dir, name)).find(existsSync)).find(Boolean);

const tsrunCmd = `${process.execPath} ${path.join(repoRoot, 'bin', 'tsrun.js')}`;

describe('tsctld with four tsstepd node daemons (auth/hmac, tree width 2)', () => {
  let c: DaemonCluster;
  beforeAll(async () => {
    c = await startDaemonCluster({ nodes: 4, treeWidth: 2 });
  }, 60_000);
  afterAll(() => c?.stop());

  it('registers every node: idle in tsinfo, with its daemon address in scontrol', async () => {
    expect(await c.states()).toEqual({ dn1: 'idle', dn2: 'idle', dn3: 'idle', dn4: 'idle' });
    const node = await c.run('tscontrol', ['show', 'node', 'dn3']);
    expect(node.stdout).toMatch(/NodeAddr=127\.0\.0\.1 /);
    for (const name of c.nodes) expect(c.log('tsctld')).toMatch(new RegExp(`node ${name} registered: tsstepd \\d+ at 127\\.0\\.0\\.1:\\d+, 2 CPUs, 1000 MB`));
  });

  it('runs tsrun -N4 -n8 on the four daemons: each task on its node, stdin to every task, exit codes folded', async () => {
    const r = await c.run('tsrun', ['-N4', '-n8', '-l', 'printenv', 'SLURMD_NODENAME']);
    expect(r.exitCode).toBe(0);
    expect(r.stdout.trim().split('\n').sort()).toEqual(['0: dn1', '1: dn1', '2: dn2', '3: dn2', '4: dn3', '5: dn3', '6: dn4', '7: dn4']);
    // The launch went through the tree: dn1 forwarded to dn2, dn3 to dn4; each daemon ran its share.
    for (const name of c.nodes) expect(c.log(name)).not.toMatch(/error/);
    // srun's default --input=all: every task reads it.
    const input = await c.run('tsrun', ['-N2', '-n2', '-l', 'cat'], { input: 'hello\n' });
    expect(input.exitCode).toBe(0);
    expect(input.stdout.split('\n').sort()).toEqual(['', '0: hello', '1: hello']);
    const codes = await c.run('tsrun', ['-N4', '-n4', 'sh', '-c', 'exit $SLURM_PROCID']);
    expect(codes.exitCode).toBe(3);
    expect(codes.stderr.split('\n').filter(Boolean).sort()).toEqual([
      'tsrun: error: dn2: task 1: Exited with exit code 1',
      'tsrun: error: dn3: task 2: Exited with exit code 2',
      'tsrun: error: dn4: task 3: Exited with exit code 3',
    ]);
  });

  it.runIf(mpicc !== undefined || process.env.CI)('runs an MPICH program with --mpi=pmi2 across the four daemons (PMI fences through the tree)', async () => {
    if (!mpicc) throw new Error('mpicc (MPICH) not found: apt-get install mpich libmpich-dev');
    const hello = path.join(c.root, 'hello');
    await execa(mpicc, ['-O', '-o', hello, path.join(repoRoot, 'fixtures', 'programs', 'mpi-hello.c')]);
    const r = await c.run('tsrun', ['-N4', '-n8', '--mpi=pmi2', '-l', hello], { env: { SLURM_PMI2_TREE_WIDTH: '2' } });
    expect(r.stderr).toBe('');
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toContain('0: rank 0: allreduce sum=28 ring token=28 expected=28 OK');
    expect(r.stdout.split('\n').filter((line) => /hello from rank \d of 8/.test(line))).toHaveLength(8);
  });

  it('runs a batch job on its first node\'s daemon, whose steps span all four', async () => {
    const script = path.join(c.root, 'work', 'job.sh');
    writeFileSync(script, `#!/bin/sh\n#SBATCH -N4 -n4 -o job.out\necho "batch on $SLURMD_NODENAME"\n${tsrunCmd} -l printenv SLURMD_NODENAME | sort\n`);
    const submitted = await c.run('tsbatch', ['--parsable', '--wait', script]);
    expect(submitted.exitCode).toBe(0);
    const id = submitted.stdout.trim();
    expect(c.log('dn1')).toContain(`job ${id}: batch step started`);
    const out = await execa('cat', [path.join(c.root, 'work', 'job.out')]);
    expect(out.stdout).toBe('batch on dn1\n0: dn1\n1: dn2\n2: dn3\n3: dn4');
    // The job's end reaches every node's daemon, which deletes its job container there.
    await c.until(() => c.nodes.every((name) => c.log(name).includes(`job ${id}: ended; its job container is deleted`)));
  });

  it('tsbcast writes through each node\'s daemon; a second daemon on the same host finds the file, as Slurm\'s would', async () => {
    const id = (await c.run('tsbatch', ['--parsable', '-N2', '--wrap', 'sleep 60'])).stdout.trim();
    await c.until(async () => (await c.run('tsqueue', ['-h', '-j', id, '-o', '%T'])).stdout.trim() === 'RUNNING');
    const source = path.join(c.root, 'work', 'payload.txt');
    writeFileSync(source, 'payload\n');
    const dest = path.join(c.root, `bcast-${id}.txt`);
    const plain = await c.run('tsbcast', ['-j', id, source, dest]);
    // Both daemons write the same path on this one host: one creates it, the other finds it.
    expect(plain.exitCode).toBe(17);
    expect(plain.stderr).toMatch(/^tsbcast: error: REQUEST_FILE_BCAST\(dn[12]\): File exists\n$/);
    const forced = await c.run('tsbcast', ['-f', '-j', id, source, dest]);
    expect(forced).toMatchObject({ exitCode: 0, stderr: '' });
    expect(readFileSync(dest, 'utf8')).toBe('payload\n');
    await c.run('tscancel', [id]);
  });

  it('refuses forged, replayed and unsigned messages, and says so in its log', async () => {
    // A client with the key seals one real request, then sends it twice, altered, and bare.
    const config = await loadCluster({ file: c.clusterFile });
    const quiet = createLogger('probe', 'quiet');
    const distPlugins = path.join(repoRoot, 'dist', 'plugins');
    const registry = createPluginRegistry({ ...config, plugins: { ...config.plugins, pluginDirs: [distPlugins] } }, quiet, {});
    const auth = await loadMessageAuth(registry, config.auth.type, quiet);
    const sealed = await auth.seal(request(1, 'ping'));
    // A genuine message of another protocol version: verified, then refused for its version.
    const future = await auth.seal({ ...request(5, 'ping'), v: 0x0900 });
    const lines = [sealed, sealed, { ...sealed, op: 'shutdown' }, request(4, 'ping'), future].map((m) => `${JSON.stringify(m)}\n`);
    const socket = await connectEndpoint({ host: '127.0.0.1', port: c.ctldPort });
    let received = '';
    socket.on('data', (chunk) => (received += chunk));
    for (const line of lines) socket.write(line);
    await c.until(() => received.split('\n').length > 5, 5000);
    socket.destroy();
    const r = { stdout: received };
    const answers = r.stdout.trim().split('\n').map((line) => JSON.parse(line) as { id: number; ok: boolean; error?: { message: string } });
    expect(answers.filter((a) => a.ok).map((a) => a.id)).toEqual([1]);
    expect(answers.filter((a) => !a.ok && a.id === 0).map((a) => a.error?.message)).toEqual(Array(3).fill('Protocol authentication error'));
    expect(answers.find((a) => a.id === 5)?.error?.message).toBe('Incompatible protocol version (peer 9.0, this build 1.0)');
    const log = c.log('tsctld');
    expect(log).toMatch(/tsctld: error: rpc: auth\/hmac: rejected message from 127\.0\.0\.1:\d+: replayed credential \(uid \d+\); message refused/);
    expect(log).toMatch(/rejected message from 127\.0\.0\.1:\d+: invalid credential \(forged or altered\); message refused/);
    expect(log).toMatch(/rejected message from 127\.0\.0\.1:\d+: unsigned message; message refused/);
    // The forged shutdown did nothing: the controller still answers.
    expect((await c.run('tscontrol', ['ping'])).exitCode).toBe(0);
  });

  it('a daemon killed mid-step: tsrun reports the node failure and exits, the node goes down*, nothing is left; it comes back idle', async () => {
    const mark = `nodefail-${process.pid}`;
    const step = c.run('tsrun', ['-N4', '-n4', '-l', 'sleep', '300'], { env: { TSLURM_TEST_MARK: mark } });
    // tsrun and its reaper carry the mark too: wait for the four tasks.
    const tasks = () => liveWithMark(mark).filter((pid) => comm(pid) === 'sleep');
    await c.until(() => tasks().length === 4);
    c.killNode(2);
    const r = await step;
    expect(r.exitCode).not.toBe(0);
    expect(r.stderr).toContain('tsrun: error: Node failure on dn3');
    expect(r.stderr).toContain('tsrun: error: dn3: task 2: Killed');
    await c.until(async () => (await c.states()).dn3 === 'down*');
    const reason = await c.run('tsinfo', ['-R', '-h', '-o', '%E %N']);
    expect(reason.stdout).toBe('Not responding dn3\n');
    const job = await c.run('tsqueue', ['-t', 'all', '-h', '-o', '%T %N']);
    expect(job.stdout.trim().split('\n').at(-1)).toBe('NODE_FAIL dn[1-4]');
    await c.until(() => liveWithMark(mark).length === 0, 10_000);
    await c.startNode(2);
    // Its registration and its return to service are two log lines, which a read can fall
    // between: waited for, as the node's state is.
    await c.until(() => c.log('tsctld').includes('node dn3 returned to service'));
    await c.until(async () => (await c.states()).dn3 === 'idle');
  });
});

describe('node daemons and the select plugin (select/recorder)', () => {
  let c: DaemonCluster;
  let calls: string;
  beforeAll(async () => {
    calls = path.join(mkdtempSync(path.join(tmpdir(), 'tslurm-rec-')), 'calls.log');
    c = await startDaemonCluster({
      nodes: 2,
      slurmdTimeout: 30,
      // dn2 reports this host's CPUs and memory, not the 1000 MB the file gives it.
      nodeArgs: (i) => (i === 1 ? ['--hardware'] : []),
      extraYaml: `plugins:\n  select: select/recorder\n  plugin_dirs: [${path.join(repoRoot, 'fixtures', 'plugins', 'select-recorder')}]\noptions:\n  select_recorder: { log: ${calls} }\n`,
    });
  }, 60_000);
  afterAll(() => c?.stop());
  const recorded = (hook: string) => readFileSync(calls, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as { hook: string; index?: number; job?: number }).filter((call) => call.hook === hook);

  it('select_p_update_node_config for a node that registers with another configuration', () => {
    expect(recorded('select_p_update_node_config').map((call) => call.index)).toEqual([1]);
  });

  it('select_p_job_mem_confirm for the jobs of a node whose daemon restarted under them', async () => {
    const id = Number((await c.run('tsbatch', ['--parsable', '-w', 'dn1', '--wrap', 'sleep 60'])).stdout.trim());
    await c.until(async () => (await c.run('tsqueue', ['-h', '-j', String(id), '-o', '%T'])).stdout.trim() === 'RUNNING');
    expect(recorded('select_p_job_mem_confirm')).toEqual([]);
    c.killNode(0);
    await c.startNode(0);
    await c.until(() => recorded('select_p_job_mem_confirm').some((call) => call.job === id));
    // The batch script ran inside the daemon and ended with it: the restarted daemon reports
    // it lost, and the job is requeued (as after a node failure) and runs again.
    const restarts = async () => (await c.run('tscontrol', ['-o', 'show', 'job', String(id)])).stdout.match(/ Restarts=(\d+)/)?.[1];
    await c.until(async () => (await restarts()) === '1');
    await c.run('tscancel', [String(id)]);
  });
});

describe('daemons refuse to start', () => {
  it('on TCP with auth/none', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'tslurm-authnone-'));
    const file = path.join(dir, 'c.yaml');
    writeFileSync(file, `cluster: x\ncontrol: { address: 127.0.0.1:1, state_dir: ${dir}/state }\nnodes: [{ name: n1, address: '127.0.0.1:2' }]\npartitions: [{ name: p, nodes: n1 }]\n`);
    for (const [bin, args] of [['tsctld', ['-D']], ['tsstepd', ['--node', 'n1']]] as const) {
      const r = await runBin(bin, ['--cluster', file, ...args]);
      expect(r.exitCode).toBe(1);
      expect(r.stderr).toContain(`${bin}: error: auth/none is for the embedded cluster only; daemons on TCP need auth/hmac`);
    }
  });

  it('with a key file others can read', async () => {
    const c = await startDaemonCluster({ nodes: 1 });
    try {
      chmodSync(c.keyFile, 0o644);
      const r = await c.run('tsstepd', ['--node', 'dn1']);
      expect(r.exitCode).toBe(1);
      expect(r.stderr).toContain(`key file ${c.keyFile} is readable by others (mode 0644); chmod 600 it`);
      expect(existsSync(c.keyFile)).toBe(true);
    } finally {
      await c.stop();
    }
  }, 60_000);
});
