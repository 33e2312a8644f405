// The good cluster fixtures load to exactly these normalised values.
import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { INFINITE, NO_VAL } from '../../../src/core/slurm-constants.js';
import { loadCluster } from '../../../src/config/load.js';
import { defaultProctrack } from '../../../src/config/default-proctrack.js';
import { CLUSTERS } from './helpers.js';

const load = (name: string) => loadCluster({ file: name, cwd: CLUSTERS, env: {} });

// The proctrack default depends on the host: cgroup where a v2 tree is writable, else linuxproc.
const proctrack = defaultProctrack();
const DEFAULT_PLUGINS = {
  select: 'select/cons_tres',
  mpiDefault: 'mpi/none',
  jobContainer: 'job_container/none',
  proctrack,
  ...(proctrack === 'proctrack/cgroup' && { proctrackFallback: 'proctrack/linuxproc' }),
  sched: 'sched/builtin',
  auth: 'auth/none',
  pluginDirs: [],
};

describe('good cluster fixtures', () => {
  it('one-node.yaml', async () => {
    expect(await load('one-node.yaml')).toEqual({
      clusterName: 'one',
      source: join(CLUSTERS, 'one-node.yaml'),
      control: {},
      auth: { type: 'auth/none' },
      plugins: DEFAULT_PLUGINS,
      nodes: [
        {
          name: 'node1',
          cpus: 8,
          sockets: 1,
          coresPerSocket: 8,
          threadsPerCore: 1,
          realMemory: 4000,
          gres: [],
          features: [],
          weight: 1,
          state: 'UNKNOWN',
        },
      ],
      partitions: [
        {
          name: 'debug',
          nodes: ['node1'],
          isDefault: true,
          maxTime: INFINITE,
          defaultTime: NO_VAL,
          maxNodes: INFINITE,
          minNodes: 0,
          state: 'UP',
          oversubscribe: 'NO',
          shareCount: 1,
          priorityTier: 1,
          preemptMode: 'OFF',
        },
      ],
      preempt: { type: 'preempt/none', mode: 'OFF' },
      options: {},
    });
  });

  it('small.yaml: four nodes, a limited second partition', async () => {
    const c = await load('small.yaml');
    expect(c.nodes.map((n) => [n.name, n.cpus, n.sockets, n.coresPerSocket, n.realMemory])).toEqual([
      ['node1', 4, 1, 4, 2000],
      ['node2', 4, 1, 4, 2000],
      ['node3', 4, 1, 4, 2000],
      ['node4', 4, 1, 4, 2000],
    ]);
    expect(c.partitions).toEqual([
      expect.objectContaining({ name: 'debug', nodes: ['node1', 'node2', 'node3', 'node4'], isDefault: true, maxTime: INFINITE, maxNodes: INFINITE }),
      expect.objectContaining({ name: 'small', nodes: ['node1', 'node2'], isDefault: false, maxTime: 10, maxNodes: 2, defaultTime: NO_VAL }),
    ]);
  });

  it('gpu.yaml: gres, typed gres, features, weights, memory suffixes', async () => {
    const c = await load('gpu.yaml');
    const pick = (name: string) => c.nodes.find((n) => n.name === name)!;
    expect(pick('cpu2')).toMatchObject({ cpus: 32, sockets: 2, coresPerSocket: 8, threadsPerCore: 2, realMemory: 65536, gres: [], features: ['avx2', 'skylake'], weight: 1 });
    expect(pick('gpu1')).toMatchObject({ cpus: 32, realMemory: 262144, gres: [{ name: 'gpu', count: 4 }], features: ['avx512'], weight: 10 });
    expect(pick('gpu3')).toMatchObject({
      cpus: 48,
      realMemory: 524288,
      gres: [{ name: 'gpu', type: 'a100', count: 8 }, { name: 'nvme', count: 2 }],
      features: ['avx512', 'a100'],
      weight: 20,
    });
    expect(c.partitions.map((p) => [p.name, p.nodes, p.isDefault, p.maxTime, p.defaultTime])).toEqual([
      ['cpu', ['cpu1', 'cpu2'], true, INFINITE, NO_VAL],
      ['gpu', ['gpu1', 'gpu2', 'gpu3'], false, 24 * 60, 60],
    ]);
  });

  it('is deep-frozen', async () => {
    const c = await load('gpu.yaml');
    expect(Object.isFrozen(c)).toBe(true);
    expect(Object.isFrozen(c.nodes[3]!.gres[0])).toBe(true);
    expect(Object.isFrozen(c.partitions[1]!.nodes)).toBe(true);
    expect(() => c.nodes.push(c.nodes[0]!)).toThrow(TypeError);
  });
});
