// YAML cluster → `tscontrol write config`'s slurm.conf → read back: the same cluster, for every
// fixture cluster. What a slurm.conf cannot carry for tslurm is listed per fixture, and the
// test checks that exactly those fields differ (so the list stays true).
import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadCluster } from '../../../../src/config/load.js';
import { loadSlurmConf } from '../../../../src/config/slurm-conf/load.js';
import { writeSlurmConf } from '../../../../src/config/slurm-conf/write.js';
import type { ClusterConfig } from '../../../../src/config/types.js';
import { CLUSTERS } from '../helpers.js';

// Fixture → the fields that do not survive, and why.
const NOT_EXPRESSIBLE: Record<string, { fields: string[]; why: string }> = {
  'multi.yaml': { fields: ['nodes.addr', 'nodes.port'], why: 'tsstepd addresses (daemon mode) come back as shown-only NodeAddr/Port' },
  'large.yaml': { fields: ['nodes.addr', 'nodes.port'], why: 'tsstepd addresses (daemon mode) come back as shown-only NodeAddr/Port' },
  'cray-aries.yaml': { fields: ['options'], why: "select/cray_aries's torus size has no slurm.conf key" },
  'job-container-cncu.yaml': { fields: ['options'], why: "job_container/cncu's cleanup settings have no slurm.conf key" },
  'proctrack-cgroup-memory.yaml': { fields: ['options'], why: 'ConstrainRAMSpace lives in cgroup.conf, which tslurm does not read' },
};

function comparable(config: ClusterConfig, drop: readonly string[]): unknown {
  const nodes = config.nodes.map((n) => {
    const { hostname, nodeAddr, slurmdPort, boards, tmpDisk, ...rest } = n;
    const node: Record<string, unknown> = { ...rest, boards: boards ?? 1, tmpDisk: tmpDisk ?? 0 };
    // What the YAML's tsstepd address shows as, and what a slurm.conf's NodeAddr/Port is.
    node.shownAddr = nodeAddr ?? n.addr;
    node.shownPort = slurmdPort ?? n.port;
    if (hostname !== undefined) node.hostname = hostname;
    for (const field of drop) if (field.startsWith('nodes.')) delete node[field.slice(6)];
    return node;
  });
  const { source: _source, slurmConf: _slurmConf, ...rest } = config;
  const out: Record<string, unknown> = { ...rest, nodes };
  for (const field of drop) if (!field.includes('.')) delete out[field];
  return JSON.parse(JSON.stringify(out));
}

const fixtures = readdirSync(CLUSTERS).filter((f) => f.endsWith('.yaml'));

describe.each(fixtures)('%s → slurm.conf → back', (name) => {
  it('describes the same cluster', async () => {
    const yaml = await loadCluster({ file: join(CLUSTERS, name), env: {} });
    const written = writeSlurmConf(yaml, '2026-01-01T00:00:00');
    const dir = mkdtempSync(join(tmpdir(), 'tslurm-roundtrip-'));
    writeFileSync(join(dir, 'slurm.conf'), written.slurmConf);
    if (written.jobContainerConf !== undefined) writeFileSync(join(dir, 'job_container.conf'), written.jobContainerConf);
    const back = loadSlurmConf(join(dir, 'slurm.conf'));
    const lost = NOT_EXPRESSIBLE[name]?.fields ?? [];
    expect(comparable(back, lost)).toEqual(comparable(yaml, lost));
    if (lost.length > 0) expect(comparable(back, [])).not.toEqual(comparable(yaml, []));
    // And once more: the slurm.conf written from the slurm.conf reads back the same.
    writeFileSync(join(dir, 'slurm.conf'), writeSlurmConf(back, '2026-01-01T00:00:00').slurmConf);
    expect(comparable(loadSlurmConf(join(dir, 'slurm.conf')), [])).toEqual(comparable(back, []));
  });
});
