// slurm.conf → ClusterConfig: every key the reader uses, DEFAULT lines, Include, the files
// beside it, what is kept, and errors named by file and line.
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadCluster } from '../../../../src/config/load.js';
import { loadSlurmConf, parseSlurmConf } from '../../../../src/config/slurm-conf/load.js';
import { INFINITE, NO_VAL } from '../../../../src/core/slurm-constants.js';
import { problems } from '../helpers.js';

const FIXTURES = fileURLToPath(new URL('../../../../fixtures/slurm-conf/', import.meta.url));
const FILE = '/virtual/slurm.conf';
const conf = (...lines: string[]) => parseSlurmConf(['ClusterName=T', ...lines].join('\n'), FILE);

describe('NodeName lines', () => {
  it('reads every node key', () => {
    const c = conf(
      'NodeName=n[1-2] NodeHostname=h[1-2] NodeAddr=10.0.0.[1-2] Port=[7001-7002] CPUs=16 Boards=1 SocketsPerBoard=2 CoresPerSocket=4 ThreadsPerCore=2 RealMemory=3000 TmpDisk=100 Gres=gpu:2,nvme:a:1 Feature=avx,big Weight=7 State=DRAIN Reason="in repair"',
      'PartitionName=p Nodes=ALL',
    );
    expect(c.nodes).toEqual([1, 2].map((i) => ({
      name: `n${i}`,
      cpus: 16,
      sockets: 2,
      coresPerSocket: 4,
      threadsPerCore: 2,
      realMemory: 3000,
      gres: [{ name: 'gpu', count: 2 }, { name: 'nvme', type: 'a', count: 1 }],
      features: ['avx', 'big'],
      weight: 7,
      state: 'DRAIN',
      reason: 'in repair',
      boards: 1,
      tmpDisk: 100,
      hostname: `h${i}`,
      nodeAddr: `10.0.0.${i}`,
      slurmdPort: 7000 + i,
    })));
  });

  it('completes the layout as Slurm does', () => {
    const c = conf(
      'NodeName=a CPUs=8',
      'NodeName=b CPUs=8 CoresPerSocket=4',
      'NodeName=c Boards=2 SocketsPerBoard=2 CoresPerSocket=2',
      'NodeName=d CPUs=7 CoresPerSocket=2',
      'NodeName=e CPUs=3 Sockets=2 CoresPerSocket=2',
      'PartitionName=p Nodes=ALL',
    );
    const layout = c.nodes.map((n) => [n.name, n.cpus, n.sockets, n.coresPerSocket, n.threadsPerCore, n.boards]);
    expect(layout).toEqual([
      ['a', 8, 8, 1, 1, 1],
      ['b', 8, 2, 4, 1, 1],
      ['c', 8, 4, 2, 1, 2],
      // 7 CPUs do not divide into 2-core sockets: one socket per board, CPUs reset to the product.
      ['d', 2, 1, 2, 1, 1],
      ['e', 4, 2, 2, 1, 1],
    ]);
  });

  it('NodeAddr defaults to NodeHostname; one address serves every node of the line', () => {
    const c = conf('NodeName=n[1-3] NodeHostname=localhost Port=17001', 'NodeName=m1', 'PartitionName=p Nodes=ALL');
    expect(c.nodes.map((n) => [n.hostname, n.nodeAddr, n.slurmdPort])).toEqual([
      ['localhost', 'localhost', 17001],
      ['localhost', 'localhost', 17001],
      ['localhost', 'localhost', 17001],
      [undefined, undefined, undefined],
    ]);
    // Shown, never dialled: no tsstepd address.
    expect(c.nodes.every((n) => n.addr === undefined && n.port === undefined)).toBe(true);
  });

  it('DEFAULT lines set what later lines leave out; a later DEFAULT changes only its own keys', () => {
    const c = conf(
      'NodeName=DEFAULT CPUs=4 RealMemory=1000',
      'NodeName=a',
      'NodeName=DEFAULT RealMemory=2000',
      'NodeName=b',
      'NodeName=c CPUs=2',
      'PartitionName=p Nodes=ALL',
    );
    expect(c.nodes.map((n) => [n.name, n.cpus, n.realMemory])).toEqual([
      ['a', 4, 1000],
      ['b', 4, 2000],
      ['c', 2, 2000],
    ]);
  });

  it('State=FAIL and FAILING are drained nodes', () => {
    const c = conf('NodeName=a State=FAIL', 'NodeName=b State=failing', 'PartitionName=p Nodes=ALL');
    expect(c.nodes.map((n) => n.state)).toEqual(['DRAIN', 'DRAIN']);
  });

  it('DownNodes sets the state and reason of the nodes it names', () => {
    const c = conf('NodeName=n[1-3]', 'DownNodes=n[2-3] State=DRAIN Reason=bad', 'PartitionName=p Nodes=ALL');
    expect(c.nodes.map((n) => [n.state, n.reason])).toEqual([['UNKNOWN', undefined], ['DRAIN', 'bad'], ['DRAIN', 'bad']]);
  });
});

describe('PartitionName lines', () => {
  it('reads every partition key', () => {
    const c = conf(
      'NodeName=n[1-4]',
      'PreemptType=preempt/partition_prio',
      'PartitionName=DEFAULT State=UP MaxNodes=3',
      'PartitionName=a Nodes=n[1-2] Default=YES MaxTime=1-00:00:00 DefaultTime=30 MinNodes=1 PriorityTier=5 PreemptMode=REQUEUE OverSubscribe=FORCE:2',
      'PartitionName=b Nodes="n3 n4" MaxTime=UNLIMITED MaxNodes=UNLIMITED State=DRAIN Shared=YES Priority=2',
      'PartitionName=c Nodes=ALL State=INACTIVE OverSubscribe=EXCLUSIVE PreemptMode=SUSPEND,GANG',
    );
    expect(c.partitions).toEqual([
      { name: 'a', nodes: ['n1', 'n2'], isDefault: true, maxTime: 1440, defaultTime: 30, maxNodes: 3, minNodes: 1, state: 'UP', oversubscribe: 'FORCE', shareCount: 2, priorityTier: 5, preemptMode: 'REQUEUE' },
      { name: 'b', nodes: ['n3', 'n4'], isDefault: false, maxTime: INFINITE, defaultTime: NO_VAL, maxNodes: INFINITE, minNodes: 0, state: 'DRAIN', oversubscribe: 'YES', shareCount: 4, priorityTier: 2, preemptMode: 'OFF' },
      { name: 'c', nodes: ['n1', 'n2', 'n3', 'n4'], isDefault: false, maxTime: INFINITE, defaultTime: NO_VAL, maxNodes: 3, minNodes: 0, state: 'INACTIVE', oversubscribe: 'EXCLUSIVE', shareCount: 1, priorityTier: 1, preemptMode: 'SUSPEND' },
    ]);
  });
});

describe('top-level keys', () => {
  it('plugin and scheduling keys are used; Slurm defaults to sched/backfill', () => {
    const c = conf(
      'SelectType=select/linear',
      'ProctrackType=proctrack/linuxproc',
      'JobContainerType=job_container/none',
      'MpiDefault=pmi2',
      'PreemptType=preempt/partition_prio',
      'PreemptMode=CANCEL',
      'SlurmdTimeout=60',
      'TreeWidth=8',
      'NodeName=n1',
      'PartitionName=p Nodes=n1',
    );
    expect(c.clusterName).toBe('t');
    expect(c.plugins).toMatchObject({ select: 'select/linear', proctrack: 'proctrack/linuxproc', jobContainer: 'job_container/none', mpiDefault: 'mpi/pmi2', sched: 'sched/backfill', auth: 'auth/none' });
    expect(c.preempt).toEqual({ type: 'preempt/partition_prio', mode: 'CANCEL' });
    expect(c.control).toEqual({ slurmdTimeout: 60, treeWidth: 8 });
  });

  it('keys tslurm does not model are kept as written, and not used', () => {
    const c = conf(
      'AuthType=auth/munge',
      'SlurmctldHost=head(10.1.1.1)',
      'StateSaveLocation=/var/spool/slurmctld',
      'KillWait=5',
      'MinJobAge=300',
      'InactiveLimit=0',
      'ReturnToService=2',
      'PropagateResourceLimits=NONE',
      'SelectTypeParameters=CR_Core',
      'NodeName=n1',
      'PartitionName=p Nodes=n1',
    );
    expect(c.slurmConf?.settings).toMatchObject({
      AuthType: 'auth/munge',
      StateSaveLocation: '/var/spool/slurmctld',
      KillWait: '5',
      MinJobAge: '300',
      InactiveLimit: '0',
      ReturnToService: '2',
      PropagateResourceLimits: 'NONE',
      SelectTypeParameters: 'CR_Core',
    });
    expect(c.auth.type).toBe('auth/none');
    expect(c.control.stateDir).toBeUndefined();
    expect(c.control.host).toBeUndefined();
  });

  it('SlurmctldHost lines are kept in order; ControlMachine/ControlAddr stand in for them', () => {
    const both = conf('SlurmctldHost=head(10.0.0.1)', 'SlurmctldHost=backup', 'NodeName=n1', 'PartitionName=p Nodes=n1');
    expect(both.slurmConf?.controllers).toEqual(['head(10.0.0.1)', 'backup']);
    const old = conf('ControlMachine=head', 'ControlAddr=10.0.0.1', 'NodeName=n1', 'PartitionName=p Nodes=n1');
    expect(old.slurmConf?.controllers).toEqual(['head(10.0.0.1)']);
  });

  it('ClusterName is required, as in Slurm', async () => {
    expect(await problems(() => parseSlurmConf('NodeName=n1\nPartitionName=p Nodes=n1\n', FILE))).toEqual([
      '/virtual/slurm.conf: ClusterName needs to be specified',
    ]);
  });
});

describe('errors', () => {
  it('bad values name the file, the line, the record and the key', async () => {
    expect(
      await problems(() =>
        conf('SelectType=select/a/b', 'NodeName=n1 CPUs=abc', 'NodeName=n2 State=SLEEPY', 'PartitionName=p Nodes=n[1-3] MaxTime=xyz', 'PartitionName=p Nodes=n1'),
      ),
    ).toEqual([
      '/virtual/slurm.conf:2: SelectType: invalid plugin name "select/a/b" (expected select/<name> or <name>)',
      '/virtual/slurm.conf:3: NodeName=n1: CPUs: expected a positive integer, got "abc"',
      '/virtual/slurm.conf:4: NodeName=n2: State: unknown node state "SLEEPY" (expected UNKNOWN, IDLE, DOWN, DRAIN or FUTURE)',
      '/virtual/slurm.conf:5: PartitionName=p: MaxTime: invalid time "xyz" (expected minutes, [days-]hours:minutes:seconds or UNLIMITED)',
      '/virtual/slurm.conf:6: PartitionName=p: PartitionName: partition p is already defined by /virtual/slurm.conf:5',
      '/virtual/slurm.conf:5: PartitionName=p: Nodes: unknown node n3',
    ]);
  });

  it('NodeAddr on a DEFAULT line, and too few addresses, are errors', async () => {
    expect(await problems(() => conf('NodeName=DEFAULT NodeAddr=x', 'NodeName=n[1-3] NodeHostname=h[1-2]', 'PartitionName=p Nodes=ALL'))).toEqual([
      '/virtual/slurm.conf:2: NodeAddr not allowed with NodeName=DEFAULT',
      '/virtual/slurm.conf:3: NodeName=n[1-3]: at least as many NodeHostname are required as NodeName (2 < 3)',
    ]);
  });
});

describe('files', () => {
  it('Include: relative to the including file, %c for the cluster name, DEFAULTs and continuations across files', () => {
    const c = loadSlurmConf(join(FIXTURES, 'include/slurm.conf'));
    expect(c.nodes.map((n) => [n.name, n.cpus, n.realMemory, n.tmpDisk, n.features, n.weight])).toEqual([
      ['c1', 4, 2000, 500, ['fast'], 1],
      ['c2', 4, 2000, 500, ['fast'], 1],
      ['c3', 4, 2000, 500, ['fast'], 1],
      ['c4', 2, 2000, 500, [], 5],
    ]);
    expect(c.partitions.map((p) => [p.name, p.nodes.length, p.isDefault, p.maxTime, p.defaultTime])).toEqual([
      ['short', 2, true, 30, NO_VAL],
      ['long', 4, false, 2880, 60],
    ]);
    expect(c.slurmConf?.files).toEqual(['slurm.conf', 'nodes.conf', 'parts/split.conf'].map((f) => join(FIXTURES, 'include', f)));
  });

  it('an error in an included file names that file', async () => {
    expect(await problems(() => loadSlurmConf(join(FIXTURES, 'include-error/slurm.conf')))).toEqual([
      `${join(FIXTURES, 'include-error/more.conf')}:3: NodeName=n2: RealMemory: invalid memory size "lots" (expected megabytes, or a number with a K, M, G or T suffix)`,
    ]);
    expect(await problems(() => parseSlurmConf('ClusterName=c\nInclude include/nodes.conf\nNodeName=c1\nPartitionName=p Nodes=ALL', join(FIXTURES, 'slurm.conf')))).toEqual([
      `${join(FIXTURES, 'slurm.conf')}:3: NodeName=c1: NodeName: node c1 is already defined by ${join(FIXTURES, 'include/nodes.conf')}:4`,
    ]);
  });

  it('gres.conf beside it is read and kept', () => {
    const c = loadSlurmConf(join(FIXTURES, 'gres/slurm.conf'));
    expect(c.nodes[0]).toMatchObject({ cpus: 32, sockets: 2, coresPerSocket: 8, threadsPerCore: 2, gres: [{ name: 'gpu', type: 'a100', count: 4 }] });
    expect(c.slurmConf?.gres).toEqual([{ name: 'gpu', type: 'a100', file: '/dev/nvidia[0-3]', nodes: 'g[1-2]' }]);
  });

  it('job_container.conf beside a job_container/tmpfs cluster becomes the plugin options', () => {
    const c = loadSlurmConf(join(FIXTURES, 'real-slurm/slurm-tmpfs.conf'));
    expect(c.plugins.jobContainer).toBe('job_container/tmpfs');
    expect(c.options).toEqual({ job_container_tmpfs: { auto_base_path: true, base_path: '/var/tmp/slurm-jc' } });
    // Not read for a cluster without tmpfs.
    expect(loadSlurmConf(join(FIXTURES, 'real-slurm/slurm.conf')).options).toEqual({});
  });
});

describe('which file is a slurm.conf', () => {
  it('SLURM_CONF is read as a slurm.conf, after --cluster and TSLURM_CONF', async () => {
    const real = join(FIXTURES, 'real-slurm/slurm-multi.conf');
    expect((await loadCluster({ env: { SLURM_CONF: real } })).nodes.length).toBe(3);
    const clusters = fileURLToPath(new URL('../../../../fixtures/clusters/', import.meta.url));
    expect((await loadCluster({ env: { SLURM_CONF: real, TSLURM_CONF: join(clusters, 'small.yaml') } })).clusterName).toBe('small');
  });

  it('--cluster and TSLURM_CONF take a .conf, or a file whose first line is Key=Value', async () => {
    expect((await loadCluster({ file: join(FIXTURES, 'gres/slurm.conf'), env: {} })).clusterName).toBe('gpus');
    expect((await loadCluster({ env: { TSLURM_CONF: join(FIXTURES, 'include/slurm.conf') } })).clusterName).toBe('split');
  });
});
