// `tscontrol show partition|node|config` against scontrol 22.05. multi.yaml has the shape of
// the reference Slurm cluster, so partition records are scontrol's output as it was printed;
// node records differ only where scontrol shows what a registered slurmd reported (Arch, OS,
// CPULoad, FreeMem, boot times), which an emulated node prints as scontrol does before that.
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { fixture, repoRoot, runBin } from '../helpers/run-bin.js';

const version = (JSON.parse(readFileSync(`${repoRoot}/package.json`, 'utf8')) as { version: string }).version;
const multi = ['--cluster', fixture('clusters', 'multi.yaml')];
const states = ['--cluster', fixture('clusters', 'states.yaml')];
const gpu = ['--cluster', fixture('clusters', 'gpu.yaml')];
const tscontrol = (args: string[]) => runBin('tscontrol', args);

// Observed on Slurm 22.05 (`scontrol show partition`, same cluster), byte for byte.
const DEBUG = `PartitionName=debug
   AllowGroups=ALL AllowAccounts=ALL AllowQos=ALL
   AllocNodes=ALL Default=YES QoS=N/A
   DefaultTime=NONE DisableRootJobs=NO ExclusiveUser=NO GraceTime=0 Hidden=NO
   MaxNodes=UNLIMITED MaxTime=UNLIMITED MinNodes=0 LLN=NO MaxCPUsPerNode=UNLIMITED
   Nodes=node[1-3]
   PriorityJobFactor=1 PriorityTier=1 RootOnly=NO ReqResv=NO OverSubscribe=NO
   OverTimeLimit=NONE PreemptMode=OFF
   State=UP TotalCPUs=12 TotalNodes=3 SelectTypeParameters=NONE
   JobDefaults=(null)
   DefMemPerNode=UNLIMITED MaxMemPerNode=UNLIMITED
   TRES=cpu=12,mem=6000M,node=3,billing=12

`;
const SMALL = `PartitionName=small
   AllowGroups=ALL AllowAccounts=ALL AllowQos=ALL
   AllocNodes=ALL Default=NO QoS=N/A
   DefaultTime=NONE DisableRootJobs=NO ExclusiveUser=NO GraceTime=0 Hidden=NO
   MaxNodes=UNLIMITED MaxTime=00:10:00 MinNodes=0 LLN=NO MaxCPUsPerNode=UNLIMITED
   Nodes=node1
   PriorityJobFactor=1 PriorityTier=1 RootOnly=NO ReqResv=NO OverSubscribe=NO
   OverTimeLimit=NONE PreemptMode=OFF
   State=UP TotalCPUs=4 TotalNodes=1 SelectTypeParameters=NONE
   JobDefaults=(null)
   DefMemPerNode=UNLIMITED MaxMemPerNode=UNLIMITED
   TRES=cpu=4,mem=2000M,node=1,billing=4

`;

// Adapted from `scontrol show node node1` on Slurm 22.05: the same lines, trailing spaces
// and blank line; scontrol also printed Arch=x86_64, CPULoad=1.54, OS=..., FreeMem=22483,
// BootTime/SlurmdStartTime/LastBusyTime dates and NodeHostName=localhost (its slurm.conf).
const node = (n: number, partitions: string) => `NodeName=node${n} CoresPerSocket=4 
   CPUAlloc=0 CPUEfctv=4 CPUTot=4 CPULoad=N/A
   AvailableFeatures=(null)
   ActiveFeatures=(null)
   Gres=(null)
   NodeAddr=127.0.0.1 NodeHostName=node${n} Port=1700${n} Version=${version}
   RealMemory=2000 AllocMem=0 FreeMem=N/A Sockets=1 Boards=1
   State=IDLE ThreadsPerCore=1 TmpDisk=0 Weight=1 Owner=N/A MCS_label=N/A
   Partitions=${partitions} 
   BootTime=None SlurmdStartTime=None
   LastBusyTime=Unknown
   CfgTRES=cpu=4,mem=2000M,billing=4
   AllocTRES=
   CapWatts=n/a
   CurrentWatts=0 AveWatts=0
   ExtSensorsJoules=n/s ExtSensorsWatts=0 ExtSensorsTemp=n/s

`;

describe('tscontrol show partition', () => {
  it('prints every partition as scontrol does', async () => {
    expect(await tscontrol([...multi, 'show', 'partition'])).toEqual({ exitCode: 0, stdout: DEBUG + SMALL, stderr: '' });
  });

  it('prints one partition, under any of scontrol\'s spellings', async () => {
    for (const word of ['partition', 'partitions', 'part', 'pa', 'PARTITION']) {
      expect((await tscontrol([...multi, 'show', word, 'small'])).stdout).toBe(SMALL);
    }
  });

  it('prints one line per partition with -o (observed: scontrol -o show partition)', async () => {
    expect((await tscontrol([...multi, '-o', 'show', 'partition'])).stdout).toBe(
      'PartitionName=debug AllowGroups=ALL AllowAccounts=ALL AllowQos=ALL AllocNodes=ALL Default=YES QoS=N/A DefaultTime=NONE DisableRootJobs=NO ExclusiveUser=NO GraceTime=0 Hidden=NO MaxNodes=UNLIMITED MaxTime=UNLIMITED MinNodes=0 LLN=NO MaxCPUsPerNode=UNLIMITED Nodes=node[1-3] PriorityJobFactor=1 PriorityTier=1 RootOnly=NO ReqResv=NO OverSubscribe=NO OverTimeLimit=NONE PreemptMode=OFF State=UP TotalCPUs=12 TotalNodes=3 SelectTypeParameters=NONE JobDefaults=(null) DefMemPerNode=UNLIMITED MaxMemPerNode=UNLIMITED TRES=cpu=12,mem=6000M,node=3,billing=12\n' +
        'PartitionName=small AllowGroups=ALL AllowAccounts=ALL AllowQos=ALL AllocNodes=ALL Default=NO QoS=N/A DefaultTime=NONE DisableRootJobs=NO ExclusiveUser=NO GraceTime=0 Hidden=NO MaxNodes=UNLIMITED MaxTime=00:10:00 MinNodes=0 LLN=NO MaxCPUsPerNode=UNLIMITED Nodes=node1 PriorityJobFactor=1 PriorityTier=1 RootOnly=NO ReqResv=NO OverSubscribe=NO OverTimeLimit=NONE PreemptMode=OFF State=UP TotalCPUs=4 TotalNodes=1 SelectTypeParameters=NONE JobDefaults=(null) DefMemPerNode=UNLIMITED MaxMemPerNode=UNLIMITED TRES=cpu=4,mem=2000M,node=1,billing=4\n',
    );
  });

  it('says an unknown partition is not found, on standard output, with status 1 (observed)', async () => {
    expect(await tscontrol([...multi, 'show', 'partition', 'nope'])).toEqual({ exitCode: 1, stdout: 'Partition nope not found\n', stderr: '' });
    // Observed: a list is one name to scontrol.
    expect((await tscontrol([...multi, 'show', 'partition', 'debug,small'])).stdout).toBe('Partition debug,small not found\n');
  });

  it('prints default times, node limits and a partition without nodes', async () => {
    const r = await tscontrol([...gpu, 'show', 'partition', 'gpu']);
    expect(r.stdout).toContain('\n   DefaultTime=01:00:00 DisableRootJobs=NO ExclusiveUser=NO GraceTime=0 Hidden=NO\n');
    expect(r.stdout).toContain('\n   MaxNodes=UNLIMITED MaxTime=1-00:00:00 MinNodes=0 LLN=NO MaxCPUsPerNode=UNLIMITED\n');
    expect(r.stdout).toContain('\n   State=UP TotalCPUs=112 TotalNodes=3 SelectTypeParameters=NONE\n');
    expect(r.stdout).toMatch(/\n {3}TRES=cpu=112,mem=1T,node=3,billing=112\n\n$/);
    const spare = await tscontrol([...states, 'show', 'partition', 'spare']);
    expect(spare.stdout).toContain('\n   Nodes=(null)\n');
    expect(spare.stdout).toContain('\n   State=DOWN TotalCPUs=0 TotalNodes=0 SelectTypeParameters=NONE\n');
    expect(spare.stdout).toMatch(/DefMemPerNode=UNLIMITED MaxMemPerNode=UNLIMITED\n\n$/);
  });
});

describe('tscontrol show node', () => {
  it('prints one node', async () => {
    expect(await tscontrol([...multi, 'show', 'node', 'node1'])).toEqual({ exitCode: 0, stdout: node(1, 'debug,small'), stderr: '' });
  });

  it('prints every node, and a hostlist of them, under any spelling', async () => {
    const all = node(1, 'debug,small') + node(2, 'debug') + node(3, 'debug');
    expect((await tscontrol([...multi, 'show', 'node'])).stdout).toBe(all);
    expect((await tscontrol([...multi, 'show', 'nodes', 'node[1-3]'])).stdout).toBe(all);
    expect((await tscontrol([...multi, 'show', 'n', 'node2'])).stdout).toBe(node(2, 'debug'));
  });

  it('prints one line per node with -o', async () => {
    const r = await tscontrol([...multi, '--oneliner', 'show', 'node', 'node2']);
    expect(r.stdout).toBe(
      `NodeName=node2 CoresPerSocket=4  CPUAlloc=0 CPUEfctv=4 CPUTot=4 CPULoad=N/A AvailableFeatures=(null) ActiveFeatures=(null) Gres=(null) NodeAddr=127.0.0.1 NodeHostName=node2 Port=17002 Version=${version} RealMemory=2000 AllocMem=0 FreeMem=N/A Sockets=1 Boards=1 State=IDLE ThreadsPerCore=1 TmpDisk=0 Weight=1 Owner=N/A MCS_label=N/A Partitions=debug  BootTime=None SlurmdStartTime=None LastBusyTime=Unknown CfgTRES=cpu=4,mem=2000M,billing=4 AllocTRES= CapWatts=n/a CurrentWatts=0 AveWatts=0 ExtSensorsJoules=n/s ExtSensorsWatts=0 ExtSensorsTemp=n/s\n`,
    );
  });

  it('says which names are not found, in the order given, with status 1 (observed)', async () => {
    expect(await tscontrol([...multi, 'show', 'node', 'nope'])).toEqual({ exitCode: 1, stdout: 'Node nope not found\n', stderr: '' });
    expect(await tscontrol([...multi, 'show', 'node', 'nope,node1'])).toEqual({
      exitCode: 1,
      stdout: `Node nope not found\n${node(1, 'debug,small')}`,
      stderr: '',
    });
    expect((await tscontrol([...multi, 'show', 'node', 'node[1-2],nope'])).stdout).toBe(
      `${node(1, 'debug,small')}${node(2, 'debug')}Node nope not found\n`,
    );
  });

  it('prints State=IDLE+DRAIN and the reason last (layout observed with node3 drained)', async () => {
    const r = await tscontrol([...states, 'show', 'node', 'n3']);
    expect(r.stdout).toContain('\n   State=IDLE+DRAIN ThreadsPerCore=1 TmpDisk=0 Weight=1 Owner=N/A MCS_label=N/A\n');
    // scontrol adds " [root@2026-11-22T01:03:32]" for a reason set by scontrol update; a
    // reason from the cluster file has no author or time, as one from slurm.conf.
    expect(r.stdout).toMatch(/\n {3}ExtSensorsJoules=n\/s ExtSensorsWatts=0 ExtSensorsTemp=n\/s\n {3}Reason=disk failing\n\n$/);
    expect((await tscontrol([...states, 'show', 'node', 'n4'])).stdout).toContain('\n   State=DOWN ThreadsPerCore=1');
  });

  it('hides FUTURE nodes unless -F is given', async () => {
    expect(await tscontrol([...states, 'show', 'node', 'n6'])).toEqual({ exitCode: 1, stdout: 'Node n6 not found\n', stderr: '' });
    const r = await tscontrol([...states, '-F', 'show', 'node', 'n6']);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toContain('\n   State=FUTURE ThreadsPerCore=1');
    expect((await tscontrol([...states, 'show', 'node'])).stdout).not.toContain('NodeName=n6');
  });

  it('prints features, gres and TRES of bigger nodes', async () => {
    const r = await tscontrol([...gpu, 'show', 'node', 'gpu3']);
    expect(r.stdout.split('\n').slice(0, 8)).toEqual([
      'NodeName=gpu3 CoresPerSocket=24 ',
      '   CPUAlloc=0 CPUEfctv=48 CPUTot=48 CPULoad=N/A',
      '   AvailableFeatures=avx512,a100',
      '   ActiveFeatures=avx512,a100',
      '   Gres=gpu:a100:8,nvme:2',
      `   NodeAddr=gpu3 NodeHostName=gpu3 Version=${version}`,
      '   RealMemory=524288 AllocMem=0 FreeMem=N/A Sockets=2 Boards=1',
      '   State=IDLE ThreadsPerCore=1 TmpDisk=0 Weight=20 Owner=N/A MCS_label=N/A',
    ]);
    expect(r.stdout).toContain('\n   CfgTRES=cpu=48,mem=512G,billing=48\n');
  });
});

describe('tscontrol show --json', () => {
  it("prints nodes and partitions with Slurm's data_parser keys", async () => {
    const nodes = JSON.parse((await tscontrol([...states, '--json', 'show', 'node', 'n3'])).stdout) as { nodes: unknown[] };
    expect(nodes.nodes).toEqual([expect.objectContaining({ name: 'n3', state: 'idle', state_flags: ['DRAIN'], reason: 'disk failing' })]);
    const parts = JSON.parse((await tscontrol([...multi, '--json', 'show', 'partition'])).stdout) as { partitions: unknown[] };
    expect(parts.partitions).toEqual([
      expect.objectContaining({ name: 'debug', flags: ['default'], nodes: 'node[1-3]', max_time_limit: -1, total_cpus: 12, tres: 'cpu=12,mem=6000M,node=3,billing=12' }),
      expect.objectContaining({ name: 'small', flags: [], nodes: 'node1', max_time_limit: 10, total_nodes: 1 }),
    ]);
  });

  it('puts unknown names in errors and exits 1', async () => {
    const r = await tscontrol([...multi, '--json', 'show', 'node', 'nope']);
    expect(r.exitCode).toBe(1);
    expect(JSON.parse(r.stdout)).toMatchObject({
      errors: [{ error: 'Invalid node name specified', errno: 2018, description: 'Node nope not found' }],
      nodes: [],
    });
  });
});

describe('tscontrol show config', () => {
  it("prints scontrol's header and every key of scontrol 22.05, with the values tslurm uses", async () => {
    const r = await tscontrol([...multi, 'show', 'config'], );
    expect(r.exitCode).toBe(0);
    const [header, ...rest] = r.stdout.split('\n');
    expect(header).toMatch(/^Configuration data as of \d{4}-\d\d-\d\dT\d\d:\d\d:\d\d$/);
    expect(rest[0]).toBe('AccountingStorageBackupHost = (null)');
    for (const line of [
      'AuthType                = auth/none',
      'ClusterName             = refcluster',
      'EnforcePartLimits       = ALL',
      'JobContainerType        = job_container/none',
      'KillWait                = 30 sec',
      'MaxNodeCount            = 3',
      'MpiDefault              = none',
      'SelectType              = select/cons_tres',
      `SLURM_CONF              = ${fixture('clusters', 'multi.yaml')}`,
      `SLURM_VERSION           = ${version}`,
    ]) {
      expect(rest).toContain(line);
    }
    // Keys tslurm does not model show Slurm's defaults; the MPI section follows the list.
    expect(rest).toContain('MessageTimeout          = 10 sec');
    expect(r.stdout).toContain('\n\nMPI Plugins Configuration:\nPMIxCliTmpDirBase       = (null)\n');
    // `c` is config to scontrol too.
    expect((await tscontrol([...multi, 'show', 'c'])).stdout).toContain('\nClusterName             = refcluster\n');
  });
});

describe('tscontrol show words', () => {
  it('refuses a second name as scontrol does', async () => {
    expect(await tscontrol([...multi, 'show', 'node', 'node1', 'node2'])).toEqual({
      exitCode: 1,
      stdout: '',
      stderr: 'tscontrol: error: too many arguments for keyword:show\n',
    });
  });

  it('refuses `p`, which scontrol does not read as partition', async () => {
    expect((await tscontrol([...multi, 'show', 'p'])).stderr).toBe('invalid entity:p for keyword:show \n');
  });
});
