// The sinfo engine (records, sort, columns) on clusters built in memory.
import { describe, expect, it } from 'vitest';
import { buildClusterConfig } from '../../../../src/config/build.js';
import { infoFromConfig } from '../../../../src/ctld/info-snapshot.js';
import { buildSinfoRecords, type SinfoOptions } from '../../../../src/cli/format/sinfo-records.js';
import { layoutFromFormat, layoutFromLongFormat, matchFlagsOf, renderSinfo } from '../../../../src/cli/format/sinfo-print.js';
import { defaultSinfoSort, sortSinfoRecords } from '../../../../src/cli/format/sinfo-sort.js';
import type { ClusterInfo } from '../../../../src/protocol/node-info.js';

function cluster(description: object): ClusterInfo {
  return infoFromConfig(buildClusterConfig(description, { source: 'test', baseDir: '/' }));
}

const mixed = cluster({
  cluster: 'mixed',
  nodes: [
    { name: 'a[1-2]', cpus: 4, memory: 1000, features: ['x'] },
    { name: 'b1', cpus: 8, memory: 4000, features: ['y'] },
    { name: 'c1', cpus: 2, memory: 500, state: 'DRAIN', reason: 'broken' },
  ],
  partitions: [
    { name: 'all', nodes: 'ALL', default: true },
    { name: 'some', nodes: 'a1,c1', max_time: 90 },
  ],
});

function sinfo(info: ClusterInfo, format: string, opts: Partial<SinfoOptions> & { long?: boolean } = {}): string {
  const layout = opts.long ? layoutFromLongFormat(format) : layoutFromFormat(format);
  const records = buildSinfoRecords(info, {
    match: matchFlagsOf(layout),
    nodeFlag: false,
    exact: false,
    listReasons: false,
    partitions: null,
    keepNode: () => true,
    ...opts,
  });
  sortSinfoRecords(records, defaultSinfoSort(opts.nodeFlag ?? false));
  return renderSinfo(records, layout, { header: true, sizePartitions: false, sizeNodes: false });
}

describe('sinfo records', () => {
  it('groups on the fields shown, with min+ for ranges', () => {
    expect(sinfo(mixed, '%P %c %m %N')).toBe(
      ['PARTITION CPUS MEMORY NODELIST', 'all* 2+ 500+ a[1-2],b1,c1', 'some 2+ 500+ a1,c1', ''].join('\n'),
    );
    expect(sinfo(mixed, '%P %t %f %N')).toBe(
      [
        'PARTITION STATE AVAIL_FEATURES NODELIST',
        'all* drain (null) c1',
        'all* idle x a[1-2]',
        'all* idle y b1',
        'some drain (null) c1',
        'some idle x a1',
        '',
      ].join('\n'),
    );
  });

  it('splits on sizes only with -e (the drained c1 first: the default sort puts higher states first)', () => {
    expect(sinfo(mixed, '%R %c', { exact: true })).toBe(['PARTITION CPUS', 'all 2', 'all 4', 'all 8', 'some 2', 'some 4', ''].join('\n'));
  });

  it('merges partitions when no partition field is shown, counting each node once', () => {
    expect(sinfo(mixed, '%D %F %C')).toBe(['NODES NODES(A/I/O/T) CPUS(A/I/O/T)', '4 0/3/1/4 0/16/2/18', ''].join('\n'));
  });

  it('ignores partitions for -R', () => {
    const layout = '%20E %9u %19H %N';
    expect(sinfo(mixed, layout, { listReasons: true, keepNode: (n) => n.reason !== null })).toBe(
      ['REASON               USER      TIMESTAMP           NODELIST', 'broken               Unknown   Unknown             c1', ''].join('\n'),
    );
  });

  it('lists each node per partition with -N, sorted by name', () => {
    expect(sinfo(mixed, '%N %P', { nodeFlag: true })).toBe(['NODELIST PARTITION', 'a1 all*', 'a1 some', 'a2 all*', 'b1 all*', 'c1 all*', 'c1 some', ''].join('\n'));
  });

  it('keeps a partition whose nodes are all filtered out, as n/a', () => {
    expect(sinfo(mixed, '%P %D %t %N', { keepNode: (n) => n.name === 'b1' })).toBe(
      ['PARTITION NODES STATE NODELIST', 'all* 1 idle b1', 'some 0 n/a ', ''].join('\n'),
    );
  });

  it('prints an unknown -o field as written and reports it', () => {
    const layout = layoutFromFormat('%5Q|%P');
    expect(layout.invalid).toEqual(['Invalid node format specification: Q']);
    expect(sinfo(mixed, '%5Q|%P')).toBe(['%5Q|PARTITION', '%5Q|all*', '%5Q|some', ''].join('\n'));
  });

  it('prints an unknown -O field as nothing and reports it with sinfo\'s words', () => {
    expect(layoutFromLongFormat('partition,bogus').invalid).toEqual(['Invalid job format specification: bogus']);
    expect(sinfo(mixed, 'partition:6,bogus,nodes:.3', { long: true })).toBe(['PARTITNOD', 'all*    4', 'some    2', ''].join('\n'));
  });

  it('marks the default partition by replacing the last character that fits', () => {
    // Observed on Slurm 22.05: sinfo -O partition:5 prints "debu*" for debug*.
    expect(sinfo(mixed, '%3P|%.2P|%P', {})).toBe(['PAR|PA|PARTITION', 'al*|a*|all*', 'som|so|some', ''].join('\n'));
  });
});

describe('sinfo sort', () => {
  it('sorts UNLIMITED before a finite limit, as the unsigned subtraction in sort.c does', () => {
    expect(sinfo(mixed, '%R %l').split('\n')[1]).toBe('all infinite');
    const layout = layoutFromFormat('%R %l');
    const records = buildSinfoRecords(mixed, {
      match: matchFlagsOf(layout),
      nodeFlag: false,
      exact: false,
      listReasons: false,
      partitions: null,
      keepNode: () => true,
    });
    sortSinfoRecords(records, '-P');
    expect(records.map((r) => r.part.name)).toEqual(['some', 'all']);
    sortSinfoRecords(records, 'l');
    expect(records.map((r) => r.part.name)).toEqual(['all', 'some']);
  });
});
