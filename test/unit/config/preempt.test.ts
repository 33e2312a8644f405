// The preemption settings of a cluster file: top-level `preempt: {type, mode}` and per-partition
// `priority_tier` / `preempt_mode`, with Slurm's defaults and errors naming file, line and column.
import { describe, expect, it } from 'vitest';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loadCluster } from '../../../src/config/load.js';
import { CLUSTERS, problems } from './helpers.js';

function file(text: string): string {
  const name = path.join(mkdtempSync(path.join(tmpdir(), 'tslurm-preempt-conf-')), 'c.yaml');
  writeFileSync(name, text);
  return name;
}

describe('cluster file: preemption', () => {
  it('reads the type, the cluster mode, and each partition\'s tier and mode (its own, else the cluster\'s)', async () => {
    const c = await loadCluster({ file: 'preempt-suspend.yaml', cwd: CLUSTERS });
    expect(c.preempt).toEqual({ type: 'preempt/partition_prio', mode: 'SUSPEND' });
    expect(c.partitions.map((p) => [p.name, p.priorityTier, p.preemptMode])).toEqual([
      ['low', 1, 'SUSPEND'],
      ['high', 2, 'SUSPEND'],
    ]);
    const own = await loadCluster({
      file: file('cluster: c\npreempt: {type: preempt/partition_prio}\nnodes: [{name: n1}]\npartitions: [{name: p, nodes: n1, priority_tier: 5, preempt_mode: requeue}]\n'),
    });
    expect(own.preempt).toEqual({ type: 'preempt/partition_prio', mode: 'OFF' });
    expect(own.partitions[0]).toMatchObject({ priorityTier: 5, preemptMode: 'REQUEUE' });
  });

  it('defaults to no preemption: preempt/none, OFF, tier 1', async () => {
    const c = await loadCluster({ file: file('cluster: c\nnodes: [{name: n1}]\npartitions: [{name: p, nodes: n1}]\n') });
    expect(c.preempt).toEqual({ type: 'preempt/none', mode: 'OFF' });
    expect(c.partitions[0]).toMatchObject({ priorityTier: 1, preemptMode: 'OFF' });
  });

  it('names the file, line and column of a bad type, mode or tier', async () => {
    const name = file('cluster: c\npreempt: {type: qos, mode: gang}\nnodes: [{name: n1}]\npartitions: [{name: p, nodes: n1, priority_tier: -1}]\n');
    const lines = await problems(() => loadCluster({ file: name }));
    expect(lines.join('\n')).toMatch(/c\.yaml:2:\d+: .*invalid preempt type "qos" \(partition_prio or none\)/);
    expect(lines.join('\n')).toMatch(/c\.yaml:2:\d+: .*unknown preempt mode "gang" \(expected OFF, CANCEL, REQUEUE or SUSPEND\)/);
    expect(lines.join('\n')).toMatch(/c\.yaml:4:\d+: .*priority_tier/);
  });
});
