import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fileURLToPath } from 'node:url';
import { loadCluster } from '../../../src/config/load.js';
import { NodeTable } from '../../../src/ctld/node-table.js';
import {
  errnoValue,
  SELECT_MODE_TEST_ONLY,
  SELECT_MODE_WILL_RUN,
  SLURM_SUCCESS,
  type job_record_t,
} from '../../../src/plugin-api/index.js';
import { allBits, bits, indicesOf, loadPlugin, makeJob, makeNodes, start, testArgs, type SelectModule } from './select-helpers.js';

const BUSY = errnoValue('ESLURM_NODES_BUSY');
const NEVER = errnoValue('ESLURM_REQUESTED_NODE_CONFIG_UNAVAILABLE');

// The reference cluster of real Slurm's `multi` setup: node[1-3], 4 CPUs, 2000 MB, CR_Core.
const multi = makeNodes(3);

describe('select/cons_tres', () => {
  let plugin: SelectModule;
  beforeEach(async () => {
    plugin = await loadPlugin('select_cons_tres', multi);
  });

  const cpusOf = async (job: job_record_t, n = 3) => (await plugin.select_p_job_test(testArgs(job, allBits(n)))).job_resources?.cpus;

  it('exports Slurm header symbols', () => {
    expect(plugin.plugin_type).toBe('select/cons_tres');
    expect(plugin.plugin_name).toBe('Trackable RESources (TRES) Selection plugin');
  });

  describe('CPUs per node, as real Slurm 22.05 gives them (SLURM_JOB_CPUS_PER_NODE)', () => {
    it('-N2 -n3: one core kept for each later node, then fill: 2+1', async () => {
      expect(await cpusOf(makeJob({ min_nodes: 2, max_nodes: 2, num_tasks: 3 }))).toEqual([2, 1]);
    });

    it('-n5: fill the first node, then the next: 4+1', async () => {
      expect(await cpusOf(makeJob({ num_tasks: 5 }))).toEqual([4, 1]);
    });

    it('-N3 -n4: 2,1(x2); node ranges keep a core for each node up to the maximum', async () => {
      expect(await cpusOf(makeJob({ min_nodes: 3, max_nodes: 3, num_tasks: 4 }))).toEqual([2, 1, 1]);
      expect(await cpusOf(makeJob({ min_nodes: 2, max_nodes: 3, num_tasks: 3 }))).toEqual([1, 1, 1]);
      expect(await cpusOf(makeJob({ min_nodes: 1, max_nodes: 3, num_tasks: 3 }))).toEqual([1, 1, 1]);
      expect(await cpusOf(makeJob({ min_nodes: 2, max_nodes: 3, num_tasks: 5 }))).toEqual([3, 1, 1]);
      expect(await cpusOf(makeJob({ min_nodes: 2, max_nodes: 3, num_tasks: 9 }))).toEqual([4, 4, 1]);
      expect(await cpusOf(makeJob({ min_nodes: 1, max_nodes: 2, num_tasks: 2 }))).toEqual([1, 1]);
    });

    it('-N2 (one task per node): 1(x2)', async () => {
      expect(await cpusOf(makeJob({ min_nodes: 2, max_nodes: 2, num_tasks: 2 }))).toEqual([1, 1]);
    });

    it('-n1 -c2: 2 CPUs on one node; -n2 -c3: 3(x2), CPUs no task uses given back', async () => {
      expect(await cpusOf(makeJob({ num_tasks: 1, cpus_per_task: 2 }))).toEqual([2]);
      expect(await cpusOf(makeJob({ num_tasks: 2, cpus_per_task: 3 }))).toEqual([3, 3]);
      expect(await cpusOf(makeJob({ min_nodes: 2, max_nodes: 2, num_tasks: 2, cpus_per_task: 3 }))).toEqual([3, 3]);
      expect(await cpusOf(makeJob({ num_tasks: 3, cpus_per_task: 2 }))).toEqual([4, 2]);
      expect(await cpusOf(makeJob({ num_tasks: 3, cpus_per_task: 3 }))).toEqual([3, 3, 3]);
      expect(await cpusOf(makeJob({ num_tasks: 6, cpus_per_task: 2 }))).toEqual([4, 4, 4]);
    });

    it('-n2 --exclusive: the whole node, 4 CPUs', async () => {
      const r = await plugin.select_p_job_test(testArgs(makeJob({ num_tasks: 2, whole_node: true, share_res: false }), allBits(3)));
      expect(r.job_resources).toMatchObject({ cpus: [4], whole_node: true, memory_allocated: [2000] });
    });

    it('-N2 --ntasks-per-node=2: 2+2', async () => {
      expect(await cpusOf(makeJob({ min_nodes: 2, max_nodes: 2, num_tasks: 4, ntasks_per_node: 2 }))).toEqual([2, 2]);
    });

    it('-N1 -n8 (more than one node has) can never run', async () => {
      const job = makeJob({ min_nodes: 1, max_nodes: 1, num_tasks: 8 });
      expect(await plugin.select_p_job_test(testArgs(job, allBits(3), SELECT_MODE_TEST_ONLY))).toEqual({ rc: NEVER });
    });

    it('-n13 (more than the cluster has) can never run', async () => {
      expect(await plugin.select_p_job_test(testArgs(makeJob({ num_tasks: 13 }), allBits(3), SELECT_MODE_TEST_ONLY))).toEqual({
        rc: NEVER,
      });
    });

    it('allocates whole cores: -n1 on 2-thread cores gets 2 CPUs, -n3 gets 4', async () => {
      plugin = await loadPlugin('select_cons_tres', makeNodes(2, { cpus: 8, tot_sockets: 1, cores: 4, threads: 2 }));
      expect(await cpusOf(makeJob({ num_tasks: 1 }), 2)).toEqual([2]);
      expect(await cpusOf(makeJob({ num_tasks: 3 }), 2)).toEqual([4]);
      expect(await cpusOf(makeJob({ min_nodes: 2, max_nodes: 2, num_tasks: 2 }), 2)).toEqual([2, 2]);
    });
  });

  it('packs several jobs per node, the fullest node that fits first', async () => {
    const a = await start(plugin, makeJob({ num_tasks: 2 }), allBits(3));
    const b = await start(plugin, makeJob({ num_tasks: 2 }), allBits(3));
    const c = await start(plugin, makeJob({ num_tasks: 3 }), allBits(3));
    expect(indicesOf(a.node_bitmap!)).toEqual([0]);
    expect(indicesOf(b.node_bitmap!)).toEqual([0]);
    expect(indicesOf(c.node_bitmap!)).toEqual([1]);
    // n2 has 1 CPU left: a 1-CPU job goes there, not to the empty n3.
    const d = await start(plugin, makeJob({ num_tasks: 1 }), allBits(3));
    expect(indicesOf(d.node_bitmap!)).toEqual([1]);
    // A 5-CPU job no longer fits now, but could once jobs end.
    expect(await plugin.select_p_job_test(testArgs(makeJob({ num_tasks: 5 }), allBits(3)))).toEqual({ rc: BUSY });
    await plugin.select_p_job_fini(a);
    await plugin.select_p_job_fini(b);
    const e = await plugin.select_p_job_test(testArgs(makeJob({ num_tasks: 5 }), allBits(3)));
    expect(indicesOf(e.nodes!)).toEqual([0, 2]);
  });

  it('job_begin refuses what job_test offered when resources were taken in between (a job resumed)', async () => {
    const held = await start(plugin, makeJob({ num_tasks: 4 }, { job_id: 1 }), allBits(3));
    expect(plugin.select_p_job_suspend!(held, true)).toBe(SLURM_SUCCESS);
    // All 12 CPUs are free while job 1 is suspended: job 2 is offered all three nodes.
    const wide = makeJob({ num_tasks: 12 }, { job_id: 2 });
    const offer = await plugin.select_p_job_test(testArgs(wide, allBits(3)));
    expect(indicesOf(offer.nodes!)).toEqual([0, 1, 2]);
    expect(plugin.select_p_job_resume!(held, true)).toBe(SLURM_SUCCESS);
    expect(await plugin.select_p_job_begin({ ...wide, node_bitmap: offer.nodes!, job_resrcs: offer.job_resources ?? null })).toBe(BUSY);
    // Asked again, it waits for job 1.
    expect((await plugin.select_p_job_test(testArgs(wide, allBits(3)))).rc).toBe(BUSY);
  });

  it('--exclusive takes only empty nodes and shares them with nobody', async () => {
    plugin = await loadPlugin('select_cons_tres', makeNodes(2));
    await start(plugin, makeJob({ num_tasks: 1 }), allBits(2));
    const ex = await start(plugin, makeJob({ num_tasks: 1, whole_node: true }), allBits(2));
    expect(indicesOf(ex.node_bitmap!)).toEqual([1]);
    expect(ex.job_resrcs?.cpus).toEqual([4]);
    const small = await plugin.select_p_job_test(testArgs(makeJob({ num_tasks: 1 }), bits(2, [1])));
    expect(small).toEqual({ rc: BUSY });
    const another = await plugin.select_p_job_test(testArgs(makeJob({ num_tasks: 1, whole_node: true }), allBits(2)));
    expect(another).toEqual({ rc: BUSY });
  });

  describe('sets of consecutive usable nodes', () => {
    // Free CPUs [2, 1, 4, 0, 3] on five 4-CPU nodes, made with jobs pinned by -w.
    const pattern = async () => {
      plugin = await loadPlugin('select_cons_tres', makeNodes(5));
      for (const [node, tasks] of [[0, 2], [1, 3], [3, 4], [4, 1]] as const) {
        await start(plugin, makeJob({ num_tasks: tasks, req_node_bitmap: bits(5, [node]) }), allBits(5));
      }
    };

    it('-N1 -n2: a node with fewer free CPUs than the job needs there ends a set; the tightest set wins', async () => {
      await pattern();
      // Usable: n1 (2), n3 (4), n5 (3), three sets; n1's is the tightest that suffices.
      const r = await plugin.select_p_job_test(testArgs(makeJob({ num_tasks: 2, max_nodes: 1 }), allBits(5)));
      expect(indicesOf(r.nodes!)).toEqual([0]);
    });

    it('-n2 over any nodes: every open node counts, n1-n3 make one set, n5 is the tighter one', async () => {
      await pattern();
      const r = await plugin.select_p_job_test(testArgs(makeJob({ num_tasks: 2 }), allBits(5)));
      expect(indicesOf(r.nodes!)).toEqual([4]);
    });
  });

  describe('memory', () => {
    it('--mem is per node and consumed: two 1500 MB jobs do not share a 2000 MB node', async () => {
      const a = await start(plugin, makeJob({ pn_min_memory: 1500 }), allBits(3));
      const b = await start(plugin, makeJob({ pn_min_memory: 1500 }), allBits(3));
      expect(indicesOf(a.node_bitmap!)).toEqual([0]);
      expect(indicesOf(b.node_bitmap!)).toEqual([1]);
      expect(b.job_resrcs?.memory_allocated).toEqual([1500]);
      // No memory asked for: none is consumed (real Slurm's CR_Core), the job fits beside.
      const c = await start(plugin, makeJob({ num_tasks: 3 }), allBits(3));
      expect(indicesOf(c.node_bitmap!)).toEqual([0]);
      expect(c.job_resrcs?.memory_allocated).toEqual([0]);
    });

    it('--mem larger than any node can never run (srun: Memory specification can not be satisfied)', async () => {
      const job = makeJob({ pn_min_memory: 3000 });
      expect(await plugin.select_p_job_test(testArgs(job, allBits(3), SELECT_MODE_TEST_ONLY))).toEqual({ rc: NEVER });
    });

    it('--mem-per-cpu scales with the CPUs and limits the CPUs a node gives', async () => {
      const fits = await plugin.select_p_job_test(testArgs(makeJob({ num_tasks: 4, mem_per_cpu: 500 }), allBits(3)));
      expect(fits.job_resources).toMatchObject({ cpus: [4], memory_allocated: [2000] });
      const spread = await plugin.select_p_job_test(testArgs(makeJob({ num_tasks: 4, mem_per_cpu: 600 }), allBits(3)));
      expect(spread.job_resources).toMatchObject({ cpus: [3, 1], memory_allocated: [1800, 600] });
      const oneNode = makeJob({ num_tasks: 4, min_nodes: 1, max_nodes: 1, mem_per_cpu: 600 });
      expect(await plugin.select_p_job_test(testArgs(oneNode, allBits(3), SELECT_MODE_TEST_ONLY))).toEqual({ rc: NEVER });
      const huge = makeJob({ mem_per_cpu: 3000 });
      expect(await plugin.select_p_job_test(testArgs(huge, allBits(3), SELECT_MODE_TEST_ONLY))).toEqual({ rc: NEVER });
    });
  });

  describe('GPUs', () => {
    const gpuNodes = makeNodes(3, (i) => ({
      cpus: 8,
      cores: 8,
      gres_list: i === 0 ? [] : i === 1 ? [{ name: 'gpu', count: 4 }] : [{ name: 'gpu', type: 'a100', count: 2 }, { name: 'gpu', type: 'v100', count: 2 }],
      weight: i === 0 ? 1 : 10,
    }));
    beforeEach(async () => {
      plugin = await loadPlugin('select_cons_tres', gpuNodes);
    });

    it('--gres gpu:N per node gets the lowest free GPU indices', async () => {
      const a = await start(plugin, makeJob({}, { gres_list: [{ name: 'gpu', count: 2 }] }), allBits(3));
      expect(indicesOf(a.node_bitmap!)).toEqual([1]);
      expect(a.job_resrcs?.gres_allocated).toEqual([[{ name: 'gpu', count: 2, indices: [0, 1] }]]);
      const b = await start(plugin, makeJob({}, { gres_list: [{ name: 'gpu', count: 2 }] }), allBits(3));
      expect(b.job_resrcs?.gres_allocated).toEqual([[{ name: 'gpu', count: 2, indices: [2, 3] }]]);
      const c = await start(plugin, makeJob({}, { gres_list: [{ name: 'gpu', count: 2 }] }), allBits(3));
      expect(indicesOf(c.node_bitmap!)).toEqual([2]);
      await plugin.select_p_job_fini(a);
      const d = await start(plugin, makeJob({}, { gres_list: [{ name: 'gpu', count: 1 }] }), allBits(3));
      expect(d.job_resrcs?.gres_allocated).toEqual([[{ name: 'gpu', count: 1, indices: [0] }]]);
    });

    it('typed requests take units of that type', async () => {
      const r = await plugin.select_p_job_test(testArgs(makeJob({}, { gres_list: [{ name: 'gpu', type: 'v100', count: 2 }] }), allBits(3)));
      expect(indicesOf(r.nodes!)).toEqual([2]);
      expect(r.job_resources?.gres_allocated).toEqual([[{ name: 'gpu', type: 'v100', count: 2, indices: [2, 3] }]]);
    });

    it('--gpus N is spread over the nodes', async () => {
      const r = await plugin.select_p_job_test(testArgs(makeJob({}, { gres_per_job: [{ name: 'gpu', count: 6 }] }), allBits(3)));
      expect(indicesOf(r.nodes!)).toEqual([1, 2]);
      expect(r.job_resources?.gres_allocated).toEqual([
        [{ name: 'gpu', count: 4, indices: [0, 1, 2, 3] }],
        [{ name: 'gpu', type: 'a100', count: 2, indices: [0, 1] }],
      ]);
    });

    it('too many GPUs, unknown gres and types', async () => {
      const many = makeJob({}, { gres_list: [{ name: 'gpu', count: 5 }] });
      expect(await plugin.select_p_job_test(testArgs(many, allBits(3), SELECT_MODE_TEST_ONLY))).toEqual({ rc: NEVER });
      const fpga = makeJob({}, { gres_list: [{ name: 'fpga', count: 1 }] });
      expect(await plugin.select_p_job_test(testArgs(fpga, allBits(3)))).toEqual({ rc: errnoValue('ESLURM_INVALID_GRES') });
      const h100 = makeJob({}, { gres_per_job: [{ name: 'gpu', type: 'h100', count: 1 }] });
      expect(await plugin.select_p_job_test(testArgs(h100, allBits(3)))).toEqual({ rc: errnoValue('ESLURM_INVALID_GRES') });
    });
  });

  it('prefers lower weights and honours features, matching OR and counts', async () => {
    plugin = await loadPlugin('select_cons_tres', makeNodes(6, (i) => ({ weight: i < 3 ? 5 : 1, features: i % 2 ? ['r2'] : ['r1'] })));
    const r = await plugin.select_p_job_test(testArgs(makeJob({ num_tasks: 1 }), allBits(6)));
    expect(indicesOf(r.nodes!)).toEqual([3]);
    const f = await plugin.select_p_job_test(testArgs(makeJob({ num_tasks: 1, features: 'r2' }), allBits(6)));
    expect(indicesOf(f.nodes!)).toEqual([3]);
    const same = await plugin.select_p_job_test(testArgs(makeJob({ min_nodes: 3, num_tasks: 3, features: '[r1|r2]' }), allBits(6)));
    expect(indicesOf(same.nodes!)).toEqual([0, 2, 4]);
    const counts = await plugin.select_p_job_test(testArgs(makeJob({ min_nodes: 3, num_tasks: 3, features: '[r1*1&r2*2]' }), allBits(6)));
    expect(indicesOf(counts.nodes!)).toEqual([3, 4, 5]);
  });

  it('honours required nodes and --contiguous', async () => {
    const req = await plugin.select_p_job_test(testArgs(makeJob({ num_tasks: 1, req_node_bitmap: bits(3, [2]) }), allBits(3)));
    expect(indicesOf(req.nodes!)).toEqual([2]);
    await start(plugin, makeJob({ num_tasks: 1, req_node_bitmap: bits(3, [1]), whole_node: true }), allBits(3));
    const contig = makeJob({ min_nodes: 2, num_tasks: 2, contiguous: true });
    expect(await plugin.select_p_job_test(testArgs(contig, allBits(3)))).toEqual({ rc: BUSY });
  });

  describe('WILL_RUN', () => {
    afterEach(() => vi.useRealTimers());

    it('starts when enough running jobs have ended', async () => {
      vi.useFakeTimers({ now: 2_000_000_000 * 1000, toFake: ['Date'] });
      const t0 = 2_000_000_000;
      await start(plugin, makeJob({ num_tasks: 4 }, { start_time: t0, time_limit: 60 }), allBits(3));
      await start(plugin, makeJob({ num_tasks: 4 }, { start_time: t0, time_limit: 5 }), allBits(3));
      const now = await plugin.select_p_job_test(testArgs(makeJob({ num_tasks: 2 }), allBits(3), SELECT_MODE_WILL_RUN));
      expect(now.start_time).toBe(t0);
      await start(plugin, makeJob({ num_tasks: 4 }, { start_time: t0, time_limit: 30 }), allBits(3));
      const later = await plugin.select_p_job_test(testArgs(makeJob({ num_tasks: 6 }), allBits(3), SELECT_MODE_WILL_RUN));
      expect(later.rc).toBe(SLURM_SUCCESS);
      expect(later.start_time).toBe(t0 + 30 * 60);
      expect(await plugin.select_p_job_test(testArgs(makeJob({ num_tasks: 13 }), allBits(3), SELECT_MODE_WILL_RUN))).toEqual({ rc: NEVER });
    });
  });

  it('job_init restores recorded allocations exactly', async () => {
    const a = await start(plugin, makeJob({ num_tasks: 3, pn_min_memory: 1000 }), allBits(3));
    plugin = await loadPlugin('select_cons_tres', multi);
    expect(await plugin.select_p_job_init([{ ...a, job_state: 1 }])).toBe(SLURM_SUCCESS);
    const next = await plugin.select_p_job_test(testArgs(makeJob({ num_tasks: 2 }), allBits(3)));
    expect(indicesOf(next.nodes!)).toEqual([1]);
    const tight = await plugin.select_p_job_test(testArgs(makeJob({ num_tasks: 1, pn_min_memory: 1000 }), allBits(3)));
    expect(indicesOf(tight.nodes!)).toEqual([0]);
  });

  it('job_test on 10,000 nodes stays well under a second', async () => {
    const config = await loadCluster({ file: fileURLToPath(new URL('../../../fixtures/clusters/large.yaml', import.meta.url)) });
    const table = NodeTable.fromConfig(config);
    plugin = await loadPlugin('select_cons_tres', [...table.nodes]);
    const all = table.allBitmap();
    const timings: string[] = [];
    for (const [label, job] of [
      ['-n1', makeJob({ num_tasks: 1 })],
      ['-N100 -n6400', makeJob({ min_nodes: 100, max_nodes: 100, num_tasks: 6400 })],
      ['--gpus=64', makeJob({ num_tasks: 16 }, { gres_per_job: [{ name: 'gpu', count: 64 }] })],
      ['-C bigmem -N10', makeJob({ min_nodes: 10, num_tasks: 10, features: 'bigmem' })],
    ] as const) {
      const started = performance.now();
      const r = await plugin.select_p_job_test(testArgs(job, all));
      const ms = performance.now() - started;
      timings.push(`${label}: ${ms.toFixed(1)} ms`);
      expect([label, r.rc]).toEqual([label, SLURM_SUCCESS]);
    }
    const started = performance.now();
    const never = await plugin.select_p_job_test(testArgs(makeJob({ num_tasks: 10_000_000 }), all, SELECT_MODE_TEST_ONLY));
    timings.push(`never: ${(performance.now() - started).toFixed(1)} ms`);
    expect(never.rc).toBe(NEVER);
    // WILL_RUN behind 300 running jobs that fill the 6000 avx2 (CPU) nodes.
    const t0 = Math.floor(Date.now() / 1000);
    for (let k = 0; k < 300; k++) {
      const job = makeJob({ min_nodes: 20, max_nodes: 20, num_tasks: 1280 }, { start_time: t0, time_limit: 10 + k });
      await start(plugin, job, table.partitionBitmap('cpu')!);
    }
    const willStart = performance.now();
    const later = await plugin.select_p_job_test(testArgs(makeJob({ num_tasks: 2048, features: 'avx2' }), all, SELECT_MODE_WILL_RUN));
    const willMs = performance.now() - willStart;
    timings.push(`WILL_RUN behind 300 jobs: ${willMs.toFixed(1)} ms`);
    expect(later.start_time).toBe(t0 + 11 * 60);
    console.log(`cons_tres job_test on ${table.size} nodes: ${timings.join(', ')}`);
  });
});
