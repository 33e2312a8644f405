// Which cluster file is used (--cluster > TSLURM_CONF > built-in default) and how an
// unreadable one is reported.
import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { UserError } from '../../../src/core/errors.js';
import { INFINITE } from '../../../src/core/slurm-constants.js';
import { loadCluster } from '../../../src/config/load.js';
import { defaultProctrack } from '../../../src/config/default-proctrack.js';
import { defaultCluster } from '../../../src/config/defaults.js';
import { CLUSTERS } from './helpers.js';

describe('loadCluster: file choice', () => {
  it('--cluster wins over TSLURM_CONF', async () => {
    const c = await loadCluster({ file: 'small.yaml', env: { TSLURM_CONF: 'gpu.yaml' }, cwd: CLUSTERS });
    expect(c.clusterName).toBe('small');
    expect(c.source).toBe(join(CLUSTERS, 'small.yaml'));
  });

  it('TSLURM_CONF is used without --cluster', async () => {
    const c = await loadCluster({ env: { TSLURM_CONF: 'gpu.yaml' }, cwd: CLUSTERS });
    expect(c.clusterName).toBe('gpu');
  });

  it('SLURM_CONF naming a cluster YAML (as tslurm sets it in tasks and salloc) loads the YAML', async () => {
    const c = await loadCluster({ env: { SLURM_CONF: join(CLUSTERS, 'small.yaml') }, cwd: '/' });
    expect(c.clusterName).toBe('small');
  });

  it('an absolute TSLURM_CONF ignores cwd', async () => {
    const c = await loadCluster({ env: { TSLURM_CONF: join(CLUSTERS, 'one-node.yaml') }, cwd: '/' });
    expect(c.source).toBe(join(CLUSTERS, 'one-node.yaml'));
  });

  it('neither (or an empty TSLURM_CONF): the built-in default', async () => {
    expect(await loadCluster({ env: {} })).toBe(defaultCluster());
    expect(await loadCluster({ env: { TSLURM_CONF: '' } })).toBe(defaultCluster());
  });

  it('a missing file names the path as given and the OS reason', async () => {
    const error = await loadCluster({ file: 'nope/missing.yaml', env: {}, cwd: CLUSTERS }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UserError);
    expect((error as Error).message).toBe('nope/missing.yaml: cannot read cluster file: No such file or directory');
  });

  it("a directory is reported the same way, in glibc's words", async () => {
    const error = await loadCluster({ file: 'bad', env: {}, cwd: CLUSTERS }).catch((e: unknown) => e);
    expect((error as Error).message).toBe('bad: cannot read cluster file: Is a directory');
  });
});

describe('the built-in default cluster', () => {
  it('is node[1-4], 2 sockets x 4 cores, 8000 MB, partition debug', () => {
    const c = defaultCluster();
    expect(c.clusterName).toBe('tslurm');
    expect(c.source).toBe('<built-in default>');
    expect(c.nodes.map((n) => n.name)).toEqual(['node1', 'node2', 'node3', 'node4']);
    for (const node of c.nodes) {
      expect(node).toMatchObject({ cpus: 8, sockets: 2, coresPerSocket: 4, threadsPerCore: 1, realMemory: 8000, state: 'UNKNOWN', weight: 1 });
    }
    expect(c.partitions).toEqual([
      expect.objectContaining({ name: 'debug', nodes: ['node1', 'node2', 'node3', 'node4'], isDefault: true, maxTime: INFINITE }),
    ]);
    expect(c.plugins).toEqual({
      select: 'select/cons_tres',
      mpiDefault: 'mpi/none',
      jobContainer: 'job_container/none',
      proctrack: defaultProctrack(),
      ...(defaultProctrack() === 'proctrack/cgroup' && { proctrackFallback: 'proctrack/linuxproc' }),
      sched: 'sched/builtin',
      auth: 'auth/none',
      pluginDirs: [],
    });
    expect(Object.isFrozen(c.nodes[0])).toBe(true);
  });
});
