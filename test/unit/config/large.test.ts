// large.yaml (10,000 nodes, made by fixtures/clusters/generate-large.js) loads quickly.
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseClusterYaml } from '../../../src/config/parse.js';
import { CLUSTERS } from './helpers.js';

describe('large.yaml', () => {
  it('loads 10,000 nodes in well under a second', () => {
    const text = readFileSync(join(CLUSTERS, 'large.yaml'), 'utf8');
    const time = () => {
      const start = performance.now();
      const config = parseClusterYaml(text, 'large.yaml', { cwd: CLUSTERS });
      return [config, performance.now() - start] as const;
    };
    const [, cold] = time();
    const [c, warm] = time();
    console.log(
      `large.yaml: ${c.nodes.length} nodes, ${c.partitions.length} partitions: ` +
        `${cold.toFixed(0)} ms cold, ${warm.toFixed(0)} ms warm`,
    );

    expect(c.nodes).toHaveLength(10_000);
    expect(new Set(c.nodes.map((n) => n.name)).size).toBe(10_000);
    expect(c.partitions.map((p) => [p.name, p.nodes.length, p.isDefault])).toEqual([
      ['batch', 10_000, true],
      ['cpu', 6000, false],
      ['gpu', 1500, false],
      ['bigmem', 500, false],
      ['edge', 1600, false],
    ]);
    expect(c.nodes.find((n) => n.name === 'edge0300')).toMatchObject({ addr: '10.1.2.1', port: 7100, cpus: 4 });
    expect(c.nodes.at(-1)).toMatchObject({ name: 'svc400', addr: '10.2.1.144', port: 6818, state: 'DRAIN', reason: 'reserved' });
    expect(c.nodes.find((n) => n.name === 'gpu1500')!.gres).toEqual([{ name: 'gpu', type: 'v100', count: 8 }]);
    expect(c.plugins.sched).toBe('sched/backfill');
  });
});
