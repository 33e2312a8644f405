// scontrol's record layout and the values in it, on clusters built in memory.
import { describe, expect, it } from 'vitest';
import { buildClusterConfig } from '../../../../src/config/build.js';
import { infoFromConfig } from '../../../../src/ctld/info-snapshot.js';
import { renderKvRecord } from '../../../../src/cli/format/kv-record.js';
import { partitionRecordLines } from '../../../../src/cli/format/scontrol-partition.js';
import { nodeRecordLines } from '../../../../src/cli/format/scontrol-node.js';
import { nodeTres, partitionTres } from '../../../../src/cli/format/tres.js';
import { oversubscribeText } from '../../../../src/cli/format/partition-values.js';
import { nodeToData, partitionToData } from '../../../../src/cli/format/data-parser.js';

const info = infoFromConfig(
  buildClusterConfig(
    {
      cluster: 'c',
      nodes: [
        { name: 'g1', sockets: 2, cores: 8, threads: 2, memory: '64G', gres: ['gpu:a100:2', 'nvme:1'], features: ['avx512'] },
        { name: 'g2', cpus: 4, memory: 1536, state: 'DOWN', reason: 'fan' },
      ],
      partitions: [
        { name: 'p', nodes: 'ALL', default: true, max_time: '1-00:00:00', default_time: 30, max_nodes: 2, oversubscribe: 'FORCE' },
        { name: 'q', oversubscribe: 'YES' },
      ],
    },
    { source: 'test', baseDir: '/' },
  ),
);
const [g1, g2] = info.nodes;
const [p, q] = info.partitions;

describe('renderKvRecord', () => {
  it('joins lines with a newline and three spaces, ending in a blank line; -o joins with spaces', () => {
    expect(renderKvRecord(['A=1 ', 'B=2'], false)).toBe('A=1 \n   B=2\n\n');
    expect(renderKvRecord(['A=1 ', 'B=2'], true)).toBe('A=1  B=2\n');
  });
});

describe('TRES', () => {
  it('prints cpu, mem (scaled while exact) and billing', () => {
    expect(nodeTres(g1!)).toBe('cpu=32,mem=64G,billing=32');
    expect(nodeTres(g2!)).toBe('cpu=4,mem=1.50G,billing=4');
    expect(partitionTres(p!)).toBe('cpu=36,mem=65.50G,node=2,billing=36');
    expect(partitionTres(q!)).toBe('');
  });
});

describe('partition records', () => {
  it('prints limits the way scontrol does', () => {
    expect(partitionRecordLines(p!)).toEqual([
      'PartitionName=p',
      'AllowGroups=ALL AllowAccounts=ALL AllowQos=ALL',
      'AllocNodes=ALL Default=YES QoS=N/A',
      'DefaultTime=00:30:00 DisableRootJobs=NO ExclusiveUser=NO GraceTime=0 Hidden=NO',
      'MaxNodes=2 MaxTime=1-00:00:00 MinNodes=0 LLN=NO MaxCPUsPerNode=UNLIMITED',
      'Nodes=g[1-2]',
      'PriorityJobFactor=1 PriorityTier=1 RootOnly=NO ReqResv=NO OverSubscribe=FORCE:4',
      'OverTimeLimit=NONE PreemptMode=OFF',
      'State=UP TotalCPUs=36 TotalNodes=2 SelectTypeParameters=NONE',
      'JobDefaults=(null)',
      'DefMemPerNode=UNLIMITED MaxMemPerNode=UNLIMITED',
      'TRES=cpu=36,mem=65.50G,node=2,billing=36',
    ]);
    expect(oversubscribeText(q!)).toBe('YES:4');
    expect(partitionRecordLines(q!)).toContain('Nodes=(null)');
  });
});

describe('node records', () => {
  it('prints gres, features, state and reason', () => {
    const lines = nodeRecordLines(g2!);
    expect(lines[0]).toBe('NodeName=g2 CoresPerSocket=1 ');
    expect(lines).toContain('State=DOWN ThreadsPerCore=1 TmpDisk=0 Weight=1 Owner=N/A MCS_label=N/A');
    expect(lines.at(-1)).toBe('Reason=fan');
    expect(nodeRecordLines(g1!).slice(2, 5)).toEqual(['AvailableFeatures=avx512', 'ActiveFeatures=avx512', 'Gres=gpu:a100:2,nvme:1']);
  });
});

describe('data_parser shapes', () => {
  it("uses Slurm's keys", () => {
    expect(nodeToData(g2!)).toMatchObject({ name: 'g2', state: 'down', state_flags: [], reason: 'fan', reason_set_by_user: null, tres: 'cpu=4,mem=1.50G,billing=4' });
    expect(partitionToData(p!)).toMatchObject({
      flags: ['default'],
      default_time_limit: 30,
      max_time_limit: 1440,
      maximum_nodes_per_job: 2,
      'min nodes per job': 0,
      nodes: 'g[1-2]',
    });
    expect(partitionToData(q!)).toMatchObject({ max_time_limit: -1, maximum_nodes_per_job: -1, default_time_limit: null, nodes: '' });
  });
});
