import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fileURLToPath } from 'node:url';
import { loadCluster } from '../../../src/config/load.js';
import { NodeTable } from '../../../src/ctld/node-table.js';
import {
  errnoValue,
  JOB_RUNNING,
  SELECT_MODE_RUN_NOW,
  SELECT_MODE_TEST_ONLY,
  SELECT_MODE_WILL_RUN,
  SLURM_ERROR,
  SLURM_SUCCESS,
} from '../../../src/plugin-api/index.js';
import { allBits, bits, indicesOf, loadPlugin, makeJob, makeNodes, start, testArgs, type SelectModule } from './select-helpers.js';

const BUSY = errnoValue('ESLURM_NODES_BUSY');
const NEVER = errnoValue('ESLURM_REQUESTED_NODE_CONFIG_UNAVAILABLE');

describe('select/linear', () => {
  let plugin: SelectModule;
  const nodes = makeNodes(10);
  beforeEach(async () => {
    plugin = await loadPlugin('select_linear', nodes);
  });

  it('exports Slurm header symbols', () => {
    expect(plugin.plugin_type).toBe('select/linear');
    expect(plugin.plugin_name).toBe('Linear node selection plugin');
    expect(plugin.plugin_version).toBe((0 << 16) | (1 << 8) | 0);
  });

  describe('best fit over runs of free nodes', () => {
    // Free runs: n1-n5 (5 nodes) and n7-n9 (3 nodes).
    const runs = bits(10, [0, 1, 2, 3, 4, 6, 7, 8]);

    it('gives a 3-node job the run of 3', async () => {
      const r = await plugin.select_p_job_test(testArgs(makeJob({ min_nodes: 3, num_tasks: 3 }), runs));
      expect(indicesOf(r.nodes!)).toEqual([6, 7, 8]);
    });

    it('gives a 4-node job the tightest run that fits (the run of 5)', async () => {
      const r = await plugin.select_p_job_test(testArgs(makeJob({ min_nodes: 4, num_tasks: 4 }), runs));
      expect(indicesOf(r.nodes!)).toEqual([0, 1, 2, 3]);
    });

    it('combines runs, largest first, when none is large enough', async () => {
      const r = await plugin.select_p_job_test(testArgs(makeJob({ min_nodes: 6, num_tasks: 6 }), runs));
      expect(indicesOf(r.nodes!)).toEqual([0, 1, 2, 3, 4, 6]);
    });

    it('--contiguous takes a single run or nothing', async () => {
      const ok = await plugin.select_p_job_test(testArgs(makeJob({ min_nodes: 5, num_tasks: 5, contiguous: true }), runs));
      expect(indicesOf(ok.nodes!)).toEqual([0, 1, 2, 3, 4]);
      const no = await plugin.select_p_job_test(testArgs(makeJob({ min_nodes: 6, num_tasks: 6, contiguous: true }), runs));
      expect(no).toEqual({ rc: NEVER });
    });
  });

  it('--contiguous waits (busy) when running jobs break the only long enough run', async () => {
    await start(plugin, makeJob({ req_node_bitmap: bits(10, [5]) }), bits(10, [5]));
    const r = await plugin.select_p_job_test(testArgs(makeJob({ min_nodes: 6, num_tasks: 6, contiguous: true }), allBits(10)));
    expect(r).toEqual({ rc: BUSY });
    const loose = await plugin.select_p_job_test(testArgs(makeJob({ min_nodes: 6, num_tasks: 6 }), allBits(10)));
    expect(indicesOf(loose.nodes!)).toEqual([0, 1, 2, 3, 4, 6]);
  });

  it('takes required nodes, then works up from them in their run', async () => {
    const job = makeJob({ min_nodes: 3, num_tasks: 3, req_node_bitmap: bits(10, [7]) });
    const r = await plugin.select_p_job_test(testArgs(job, allBits(10)));
    expect(indicesOf(r.nodes!)).toEqual([7, 8, 9]);
    const two = makeJob({ min_nodes: 2, num_tasks: 2, req_node_bitmap: bits(10, [9]) });
    expect(indicesOf((await plugin.select_p_job_test(testArgs(two, allBits(10)))).nodes!)).toEqual([8, 9]);
  });

  it('prefers lower node weights', async () => {
    plugin = await loadPlugin('select_linear', makeNodes(8, (i) => ({ weight: i < 4 ? 10 : 1 })));
    const r = await plugin.select_p_job_test(testArgs(makeJob({ min_nodes: 2, num_tasks: 2 }), allBits(8)));
    expect(indicesOf(r.nodes!)).toEqual([4, 5]);
    // More than the light nodes hold: as slurmctld's _pick_best_nodes does, the nodes up to
    // the next weight join the candidates and linear's best fit runs over all of them.
    const big = await plugin.select_p_job_test(testArgs(makeJob({ min_nodes: 6, num_tasks: 6 }), allBits(8)));
    expect(indicesOf(big.nodes!)).toEqual([0, 1, 2, 3, 4, 5]);
    // Light nodes in two runs around heavy ones: the light runs are used first.
    plugin = await loadPlugin('select_linear', makeNodes(9, (i) => ({ weight: i >= 3 && i < 6 ? 5 : 1 })));
    const three = await plugin.select_p_job_test(testArgs(makeJob({ min_nodes: 3, num_tasks: 3 }), allBits(9)));
    expect(indicesOf(three.nodes!)).toEqual([0, 1, 2]);
    const four = await plugin.select_p_job_test(testArgs(makeJob({ min_nodes: 4, num_tasks: 4 }), allBits(9)));
    expect(indicesOf(four.nodes!)).toEqual([0, 1, 2, 6]);
  });

  it('needs num_tasks × cpus_per_task CPUs, and gives whole nodes', async () => {
    const eight = await plugin.select_p_job_test(testArgs(makeJob({ num_tasks: 8 }), allBits(10)));
    expect(indicesOf(eight.nodes!)).toEqual([0, 1]);
    const c3 = await plugin.select_p_job_test(testArgs(makeJob({ num_tasks: 2, cpus_per_task: 3 }), allBits(10)));
    expect(indicesOf(c3.nodes!)).toEqual([0, 1]); // one 3-CPU task per 4-CPU node
    const one = await plugin.select_p_job_test(testArgs(makeJob(), allBits(10)));
    expect(one.job_resources).toMatchObject({ nhosts: 1, ncpus: 4, cpus: [4], memory_allocated: [2000], whole_node: true });
    const n1 = makeJob({ num_tasks: 8, min_nodes: 1, max_nodes: 1 });
    expect(await plugin.select_p_job_test(testArgs(n1, allBits(10), SELECT_MODE_TEST_ONLY))).toEqual({ rc: NEVER });
    const cpt = makeJob({ num_tasks: 1, cpus_per_task: 5 });
    expect(await plugin.select_p_job_test(testArgs(cpt, allBits(10), SELECT_MODE_TEST_ONLY))).toEqual({ rc: NEVER });
  });

  it('memory per node must fit RealMemory', async () => {
    const big = makeJob({ pn_min_memory: 3000 });
    expect(await plugin.select_p_job_test(testArgs(big, allBits(10), SELECT_MODE_TEST_ONLY))).toEqual({ rc: NEVER });
    const perCpu = makeJob({ mem_per_cpu: 600 });
    expect(await plugin.select_p_job_test(testArgs(perCpu, allBits(10), SELECT_MODE_TEST_ONLY))).toEqual({ rc: NEVER });
    const fits = await plugin.select_p_job_test(testArgs(makeJob({ pn_min_memory: 1500 }), allBits(10)));
    expect(fits.job_resources?.memory_allocated).toEqual([1500]);
  });

  it('honours features', async () => {
    plugin = await loadPlugin('select_linear', makeNodes(6, (i) => ({ features: i % 2 ? ['ib', 'avx2'] : ['avx2'] })));
    const r = await plugin.select_p_job_test(testArgs(makeJob({ min_nodes: 2, num_tasks: 2, features: 'ib&avx2' }), allBits(6)));
    expect(indicesOf(r.nodes!)).toEqual([1, 3]);
    const none = makeJob({ features: 'gpu' });
    expect(await plugin.select_p_job_test(testArgs(none, allBits(6), SELECT_MODE_TEST_ONLY))).toEqual({ rc: NEVER });
    const bad = makeJob({ features: 'a&&b' });
    expect(await plugin.select_p_job_test(testArgs(bad, allBits(6)))).toEqual({ rc: errnoValue('ESLURM_INVALID_FEATURE') });
  });

  it('never shares a node: RUN_NOW is busy, TEST_ONLY ignores running jobs', async () => {
    plugin = await loadPlugin('select_linear', makeNodes(2));
    await start(plugin, makeJob({ num_tasks: 1 }), allBits(2));
    await start(plugin, makeJob({ num_tasks: 1 }), allBits(2));
    const third = makeJob();
    expect(await plugin.select_p_job_test(testArgs(third, allBits(2)))).toEqual({ rc: BUSY });
    const ever = await plugin.select_p_job_test(testArgs(third, allBits(2), SELECT_MODE_TEST_ONLY));
    expect(ever.rc).toBe(SLURM_SUCCESS);
    expect(ever.nodes!.setCount()).toBe(1);
  });

  describe('job lifecycle', () => {
    afterEach(() => vi.useRealTimers());

    it('begin marks nodes allocated, ready once begun, fini frees them', async () => {
      plugin = await loadPlugin('select_linear', makeNodes(1));
      const job = makeJob();
      expect(await plugin.select_p_job_ready(job)).toBe(false);
      const started = await start(plugin, job, allBits(1));
      expect(started.job_resrcs).toMatchObject({ nhosts: 1, cpus: [4] });
      expect(await plugin.select_p_job_ready(started)).toBe(true);
      expect(await plugin.select_p_job_test(testArgs(makeJob(), allBits(1)))).toEqual({ rc: BUSY });
      expect(await plugin.select_p_job_fini(started)).toBe(SLURM_SUCCESS);
      expect(await plugin.select_p_job_fini(started)).toBe(SLURM_ERROR);
      expect((await plugin.select_p_job_test(testArgs(makeJob(), allBits(1)))).rc).toBe(SLURM_SUCCESS);
    });

    it('WILL_RUN answers when running jobs end (start_time + time_limit)', async () => {
      vi.useFakeTimers({ now: 1_000_000_000 * 1000, toFake: ['Date'] });
      plugin = await loadPlugin('select_linear', makeNodes(2));
      await start(plugin, makeJob({}, { start_time: 1_000_000_000, time_limit: 30 }), bits(2, [0]));
      await start(plugin, makeJob({}, { start_time: 1_000_000_000, time_limit: 10 }), bits(2, [1]));
      const now = await plugin.select_p_job_test(testArgs(makeJob(), allBits(2), SELECT_MODE_WILL_RUN));
      expect(now.rc).toBe(SLURM_SUCCESS);
      expect(now.start_time).toBe(1_000_000_000 + 600);
      expect(indicesOf(now.nodes!)).toEqual([1]);
      const two = await plugin.select_p_job_test(testArgs(makeJob({ min_nodes: 2, num_tasks: 2 }), allBits(2), SELECT_MODE_WILL_RUN));
      expect(two.start_time).toBe(1_000_000_000 + 1800);
    });

    it('job_init restores running jobs; step_finish succeeds', async () => {
      plugin = await loadPlugin('select_linear', makeNodes(2));
      const running = makeJob({}, { job_state: JOB_RUNNING, node_bitmap: bits(2, [1]) });
      expect(await plugin.select_p_job_init([running, makeJob()])).toBe(SLURM_SUCCESS);
      expect(await plugin.select_p_job_ready(running)).toBe(true);
      const r = await plugin.select_p_job_test(testArgs(makeJob({ min_nodes: 2, num_tasks: 2 }), allBits(2), SELECT_MODE_RUN_NOW));
      expect(r).toEqual({ rc: BUSY });
      const step = { step_id: 0, job_ptr: running, step_node_bitmap: bits(2, [1]), ntasks: 1, cpus_per_task: 1, cpu_count: 1, pn_min_memory: 0, mem_per_cpu: 0 };
      expect(await plugin.select_p_step_finish(step, false)).toBe(SLURM_SUCCESS);
    });
  });

  it('does per-node --gres, refuses --gpus and unknown gres', async () => {
    plugin = await loadPlugin('select_linear', makeNodes(2, (i) => ({ gres_list: i === 1 ? [{ name: 'gpu', count: 2 }] : [] })));
    const r = await plugin.select_p_job_test(testArgs(makeJob({}, { gres_list: [{ name: 'gpu', count: 2 }] }), allBits(2)));
    expect(indicesOf(r.nodes!)).toEqual([1]);
    expect(r.job_resources?.gres_allocated).toEqual([[{ name: 'gpu', count: 2, indices: [0, 1] }]]);
    const gpus = makeJob({}, { gres_per_job: [{ name: 'gpu', count: 1 }] });
    expect(await plugin.select_p_job_test(testArgs(gpus, allBits(2)))).toEqual({ rc: errnoValue('ESLURM_INVALID_GRES') });
    const fpga = makeJob({}, { gres_list: [{ name: 'fpga', count: 1 }] });
    expect(await plugin.select_p_job_test(testArgs(fpga, allBits(2)))).toEqual({ rc: errnoValue('ESLURM_INVALID_GRES') });
  });

  it('job_test on 10,000 nodes stays well under a second', async () => {
    const config = await loadCluster({ file: fileURLToPath(new URL('../../../fixtures/clusters/large.yaml', import.meta.url)) });
    const table = NodeTable.fromConfig(config);
    plugin = await loadPlugin('select_linear', [...table.nodes]);
    const all = table.allBitmap();
    const timings: string[] = [];
    for (const [label, job] of [
      ['-N1', makeJob()],
      ['-N500', makeJob({ min_nodes: 500, num_tasks: 500 })],
      ['-N2000 --contiguous', makeJob({ min_nodes: 2000, num_tasks: 2000, contiguous: true })],
    ] as const) {
      const started = performance.now();
      const r = await plugin.select_p_job_test(testArgs(job, all));
      const ms = performance.now() - started;
      timings.push(`${label}: ${ms.toFixed(1)} ms`);
      expect([label, r.rc]).toEqual([label, SLURM_SUCCESS]);
    }
    console.log(`linear job_test on ${table.size} nodes: ${timings.join(', ')}`);
  });
});
