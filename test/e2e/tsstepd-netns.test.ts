// Daemons on different addresses for real (issue 7): three network namespaces joined to a
// bridge by veth pairs, one tsstepd in each, the controller and tsrun on the bridge's address
// in the root namespace. Needs root and `ip netns`; skipped with the reason otherwise.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { startDaemonCluster, type DaemonCluster } from '../helpers/daemon-cluster.js';
import { repoRoot } from '../helpers/run-bin.js';

const mpicc = ['/usr/bin/mpicc.mpich', '/usr/bin/mpicc'].find(existsSync);

const tag = `t${process.pid % 10000}`;
const bridge = `tsbr${tag}`;
const ns = (i: number) => `tsns${tag}n${i}`;
const subnet = `10.${(process.pid % 200) + 20}.0`;
const ip = (...args: string[]) => execFileSync('ip', args, { stdio: 'pipe' });

function netnsWorks(): string | undefined {
  if (process.getuid?.() !== 0) return 'not root';
  try {
    ip('netns', 'add', `${ns(0)}probe`);
    ip('netns', 'del', `${ns(0)}probe`);
    return undefined;
  } catch (error) {
    return `ip netns does not work here: ${(error as Error).message.split('\n')[0]}`;
  }
}

const unavailable = netnsWorks();
if (unavailable) console.warn(`tsstepd-netns e2e: skipped, ${unavailable}`);

function setUp(nodes: number): void {
  ip('link', 'add', bridge, 'type', 'bridge');
  ip('addr', 'add', `${subnet}.1/24`, 'dev', bridge);
  ip('link', 'set', bridge, 'up');
  for (let i = 1; i <= nodes; i++) {
    const veth = `tsv${tag}${i}`;
    ip('netns', 'add', ns(i));
    ip('link', 'add', veth, 'type', 'veth', 'peer', 'name', `${veth}p`);
    ip('link', 'set', `${veth}p`, 'netns', ns(i));
    ip('link', 'set', veth, 'master', bridge);
    ip('link', 'set', veth, 'up');
    ip('netns', 'exec', ns(i), 'ip', 'addr', 'add', `${subnet}.${10 + i}/24`, 'dev', `${veth}p`);
    ip('netns', 'exec', ns(i), 'ip', 'link', 'set', `${veth}p`, 'up');
    ip('netns', 'exec', ns(i), 'ip', 'link', 'set', 'lo', 'up');
  }
}

function tearDown(nodes: number): void {
  for (let i = 1; i <= nodes; i++) {
    try {
      ip('netns', 'del', ns(i));
    } catch {
      // not made
    }
  }
  try {
    ip('link', 'del', bridge);
  } catch {
    // not made
  }
}

describe.skipIf(unavailable !== undefined)('tsstepd daemons in their own network namespaces', () => {
  const NODES = 3;
  let c: DaemonCluster;
  beforeAll(async () => {
    tearDown(NODES);
    setUp(NODES);
    c = await startDaemonCluster({
      nodes: NODES,
      ctldHost: `${subnet}.1`,
      nodeHosts: Array.from({ length: NODES }, (_, i) => `${subnet}.${11 + i}`),
      nodePrefix: (i) => ['ip', 'netns', 'exec', ns(i + 1)],
    });
  }, 60_000);
  afterAll(async () => {
    await c?.stop();
    tearDown(NODES);
  });

  it('runs each task in its node\'s namespace, reaching tsrun by the bridge address', async () => {
    const r = await c.run('tsrun', ['-N3', '-n3', '-l', 'sh', '-c', 'echo $SLURMD_NODENAME $SLURM_LAUNCH_NODE_IPADDR $(ip -4 -o addr show scope global | awk \'{print $4}\')']);
    expect(r.stderr).toBe('');
    expect(r.stdout.trim().split('\n').sort()).toEqual([0, 1, 2].map((i) => `${i}: dn${i + 1} ${subnet}.1 ${subnet}.${11 + i}/24`));
  });

  it.runIf(mpicc !== undefined)('starts an MPICH program across the namespaces (PMI over the bridge)', async () => {
    const hello = path.join(c.root, 'hello');
    execFileSync(mpicc!, ['-O', '-o', hello, path.join(repoRoot, 'fixtures', 'programs', 'mpi-hello.c')]);
    const r = await c.run('tsrun', ['-N3', '-n6', '--mpi=pmi2', '-l', hello]);
    expect(r.stderr).toBe('');
    expect(r.stdout).toContain('0: rank 0: allreduce sum=15 ring token=15 expected=15 OK');
  });

  it('loses a node whose daemon is killed, and gets it back', async () => {
    c.killNode(1);
    await c.until(async () => (await c.states()).dn2 === 'down*');
    const r = await c.run('tsrun', ['-N2', 'hostname']);
    expect(r.exitCode).toBe(0);
    await c.startNode(1);
    expect((await c.states()).dn2).toBe('idle');
  });
});
