// accounting.purge_after in the cluster YAML, and PurgeJobAfter from a slurm.conf (slurmdbd.conf's
// key in Slurm), reaching the same setting; a bad value is one positioned line.
import { describe, expect, it } from 'vitest';
import { parseClusterYaml } from '../../../src/config/parse.js';
import { parseSlurmConf } from '../../../src/config/slurm-conf/load.js';
import { writeSlurmConf } from '../../../src/config/slurm-conf/write.js';
import { problems } from './helpers.js';

const yaml = (accounting: string) => `cluster: demo\n${accounting}nodes: [{name: n1}]\npartitions:\n  - name: p\n    nodes: ALL\n`;
const parse = (text: string) => parseClusterYaml(text, 'c.yaml', { cwd: '/etc/tslurm' });

describe('retention of accounting records', () => {
  it('is unset by default, months when bare, hours or days when named', () => {
    expect(parse(yaml('')).accounting).toBeUndefined();
    expect(parse(yaml('accounting:\n  purge_after: 6\n')).accounting).toEqual({ purgeAfter: { amount: 6, unit: 'months' } });
    expect(parse(yaml('accounting:\n  purge_after: 12hours\n')).accounting).toEqual({ purgeAfter: { amount: 12, unit: 'hours' } });
  });

  it('refuses a bad value with its position, and an unknown key', async () => {
    expect(await problems(() => parse(yaml('accounting:\n  purge_after: soon\n')))).toEqual([
      'c.yaml:3:16: accounting.purge_after: expected a number of months, or of hours or days (12hours, 30days, 6months), got "soon"',
    ]);
    expect((await problems(() => parse(yaml('accounting:\n  purge: 1\n'))))[0]).toMatch(/^c\.yaml:3:3: accounting\.purge: unknown key/);
  });

  it('comes from PurgeJobAfter in a slurm.conf, and is written back there', () => {
    const c = parseSlurmConf('ClusterName=T\nPurgeJobAfter=30days\nNodeName=n1\nPartitionName=p Nodes=n1\n', '/virtual/slurm.conf');
    expect(c.accounting).toEqual({ purgeAfter: { amount: 30, unit: 'days' } });
    expect(writeSlurmConf(c, 'now').slurmConf).toMatch(/^PurgeJobAfter=30days$/m);
  });
});
