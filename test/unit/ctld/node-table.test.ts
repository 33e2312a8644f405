import { beforeAll, describe, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import { loadCluster } from '../../../src/config/load.js';
import type { ClusterConfig } from '../../../src/config/types.js';
import { UserError } from '../../../src/core/errors.js';
import { NodeTable } from '../../../src/ctld/node-table.js';
import { NODE_STATE_BASE, NODE_STATE_DRAIN, NODE_STATE_IDLE } from '../../../src/plugin-api/records.js';

const LARGE = fileURLToPath(new URL('../../../fixtures/clusters/large.yaml', import.meta.url));

function invalidName(run: () => unknown): UserError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(UserError);
    return error as UserError;
  }
  throw new Error('no error');
}

describe('NodeTable on the 10,000-node fixture', () => {
  let config: ClusterConfig;
  let table: NodeTable;

  beforeAll(async () => {
    config = await loadCluster({ file: LARGE });
    const started = performance.now();
    table = NodeTable.fromConfig(config);
    console.log(`node table of ${table.size} nodes built in ${(performance.now() - started).toFixed(1)} ms`);
  });

  it('has one record per configured node, index = position', () => {
    expect(table.size).toBe(10_000);
    table.nodes.forEach((node, i) => expect(node.index).toBe(i));
    expect(table.indexOf('cpu0001')).toBe(0);
    expect(table.indexOf('cpu6000')).toBe(5999);
    expect(table.indexOf('nope')).toBeUndefined();
  });

  it('copies the configured resources and states', () => {
    const gpu = table.nodes[table.indexOf('gpu0001')!]!;
    expect(gpu).toMatchObject({ cpus: 64, tot_sockets: 2, cores: 32, threads: 1, real_memory: 512 * 1024, weight: 10 });
    expect(gpu.gres_list).toEqual([{ name: 'gpu', type: 'a100', count: 4 }]);
    expect(gpu.features).toEqual(['avx512', 'a100']);
    expect(gpu.node_state).toBe(NODE_STATE_IDLE);
    const svc = table.nodes[table.indexOf('svc001')!]!;
    expect(svc.node_state & NODE_STATE_BASE).toBe(NODE_STATE_IDLE);
    expect(svc.node_state & NODE_STATE_DRAIN).toBe(NODE_STATE_DRAIN);
    expect(svc.node_addr).toBe('10.2.0.1:6818');
  });

  it('turns hostlists into bitmaps and back', () => {
    const started = performance.now();
    const bits = table.bitmapFromHostlist('cpu[0001-0100,0200],gpu0001');
    expect(bits.size).toBe(10_000);
    expect(bits.setCount()).toBe(102);
    expect(bits.test(0)).toBe(true);
    expect(bits.test(199)).toBe(true);
    expect(bits.test(100)).toBe(false);
    expect(table.hostlistFromBitmap(bits)).toBe('cpu[0001-0100,0200],gpu0001');
    expect(table.hostlistFromBitmap(table.emptyBitmap())).toBe('');
    const all = table.allBitmap();
    expect(all.setCount()).toBe(10_000);
    const names = table.namesFromBitmap(all);
    expect(table.bitmapFromNames(names).setCount()).toBe(10_000);
    expect(table.hostlistFromBitmap(all).length).toBeGreaterThan(0);
    console.log(`hostlist <-> bitmap round trips on 10,000 nodes: ${(performance.now() - started).toFixed(1)} ms`);
  });

  it('refuses unknown names and bad expressions with Slurm text', () => {
    for (const expr of ['cpu9999', 'cpu[0001-0002],zz1', 'cpu[0001-']) {
      const error = invalidName(() => table.bitmapFromHostlist(expr));
      expect(error.message).toBe('Invalid node name specified');
      expect(error.code).toBe('ESLURM_INVALID_NODE_NAME');
    }
  });

  it('has a bitmap per partition, in node-table order', () => {
    expect(table.partitionNames()).toEqual(config.partitions.map((p) => p.name));
    expect(table.partitionBitmap('batch')!.setCount()).toBe(10_000);
    const cpu = table.partitionBitmap('cpu')!;
    expect(cpu.setCount()).toBe(6000);
    expect(cpu.ffs()).toBe(0);
    expect(cpu.fls()).toBe(5999);
    expect(table.partitionBitmap('gpu')!.setCount()).toBe(1500);
    expect(table.partitionBitmap('nope')).toBeUndefined();
    // A copy: changing it leaves the table alone.
    cpu.clear(0);
    expect(table.partitionBitmap('cpu')!.test(0)).toBe(true);
  });
});
