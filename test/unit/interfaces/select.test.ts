import { beforeEach, describe, expect, it, vi } from 'vitest';
import { PluginError } from '../../../src/core/errors.js';
import {
  errnoValue,
  SLURM_ERROR,
  SLURM_SUCCESS,
  type job_record_t,
  type SelectJobTestArgs,
  type SelectJobTestResult,
} from '../../../src/plugin-api/index.js';
import { Select, type SelectOps } from '../../../src/interfaces/select.js';
import { allBits, bits, indicesOf, loadPlugin, makeJob, makeNodes } from '../plugins/select-helpers.js';

const nodes = makeNodes(4);

// A minimal plugin whose job_test answer the test chooses.
function fixturePlugin(answer: (args: SelectJobTestArgs) => SelectJobTestResult, calls: string[] = []): SelectOps {
  return {
    select_p_node_init: () => (calls.push('node_init'), SLURM_SUCCESS),
    select_p_state_restore: () => (calls.push('state_restore'), SLURM_SUCCESS),
    select_p_job_init: () => (calls.push('job_init'), SLURM_SUCCESS),
    select_p_job_test: (args) => answer(args),
    select_p_job_begin: () => SLURM_SUCCESS,
    select_p_job_ready: () => true,
    select_p_job_fini: () => SLURM_SUCCESS,
    select_p_step_finish: () => SLURM_SUCCESS,
  };
}

async function caught(run: () => Promise<unknown>): Promise<PluginError> {
  try {
    await run();
  } catch (error) {
    expect(error).toBeInstanceOf(PluginError);
    return error as PluginError;
  }
  throw new Error('no error');
}

describe('Select facade', () => {
  it('runs node_init → state_restore → job_init at start', async () => {
    const calls: string[] = [];
    const select = new Select(fixturePlugin(() => ({ rc: SLURM_ERROR }), calls), { pluginType: 'select/fixture' });
    expect(await select.init(nodes, [])).toBe(SLURM_SUCCESS);
    expect(calls).toEqual(['node_init', 'state_restore', 'job_init']);
  });

  it('refuses a plugin without a required function, naming every missing one', () => {
    const { select_p_job_test: _t, select_p_step_finish: _s, ...partial } = fixturePlugin(() => ({ rc: 0, nodes: bits(4) }));
    expect(() => new Select(partial as SelectOps, { pluginType: 'select/fixture' })).toThrow(
      'select/fixture: missing required function(s): select_p_job_test, select_p_step_finish',
    );
  });

  it('supplies the documented defaults for optional hooks', async () => {
    const select = new Select(fixturePlugin(() => ({ rc: SLURM_ERROR })), { pluginType: 'select/fixture' });
    expect(await select.stateSave()).toBe(SLURM_SUCCESS);
    expect(await select.call('select_p_job_expand_allow')).toBe(false);
    const job = makeJob();
    expect(await select.call('select_p_job_expand', job, job)).toBe(errnoValue('ESLURM_NOT_SUPPORTED'));
    expect(await select.call('select_p_select_jobinfo_get', null, 'x')).toEqual({ rc: SLURM_ERROR });
    const resv = { name: 'r', start_time: 0, end_time: 0, partition: null, features: null, node_list: null };
    const picked = await select.call('select_p_resv_test', resv, 2, bits(4, [1, 2, 3]), null);
    expect(indicesOf(picked!.nodes)).toEqual([1, 2]);
    expect(await select.call('select_p_resv_test', resv, 5, bits(4, [1]), null)).toBeNull();
  });

  it('reports an async hook that never settles, naming the hook, instead of hanging the caller', async () => {
    const hanging = { ...fixturePlugin(() => ({ rc: SLURM_ERROR })), select_p_job_test: () => new Promise<never>(() => {}) } as SelectOps;
    const select = new Select(hanging, { pluginType: 'select/stuck', hookTimeoutMs: 50 });
    await select.init(nodes, []);
    const error = await caught(() => select.allocate(makeJob(), allBits(4), allBits(4)));
    expect(error.message).toBe('select/stuck: select_p_job_test: did not return within 50 ms');
  });

  it('answers a synchronous plugin without a promise in between (the fast path of a scheduling pass)', async () => {
    const select = new Select(fixturePlugin(() => ({ rc: SLURM_SUCCESS, nodes: bits(4, [0]) })), { pluginType: 'select/sync' });
    await select.init(nodes, []);
    let settled = false;
    const allocating = select.allocate(makeJob(), allBits(4), allBits(4)).then(() => (settled = true));
    // allocate awaits only what is a promise: one turn of the microtask queue settles it.
    await Promise.resolve();
    await Promise.resolve();
    expect(settled).toBe(true);
    await allocating;
  });

  it('refuses a plugin whose job_test picks nodes outside the candidates', async () => {
    const select = new Select(fixturePlugin(() => ({ rc: SLURM_SUCCESS, nodes: bits(4, [3]) })), {
      pluginType: 'select/rogue',
    });
    await select.nodeInit(nodes);
    const error = await caught(() => select.allocate(makeJob(), bits(4, [0, 1]), allBits(4)));
    expect(error.message).toBe(
      'select/rogue: select_p_job_test: broke the select API: returned node index 3, which is not among the candidate nodes',
    );
    expect(error.hook).toBe('select_p_job_test');
    // Refused from then on, whatever the hook.
    expect((await caught(() => select.release(makeJob()))).message).toBe(error.message);
  });

  it('checks job_resources against nhosts and the chosen nodes', async () => {
    const bad = (args: SelectJobTestArgs): SelectJobTestResult => ({
      rc: SLURM_SUCCESS,
      nodes: bits(4, [0, 1]),
      job_resources: {
        nhosts: 2,
        node_bitmap: bits(4, [0, 1]),
        ncpus: 4,
        cpus: [4],
        memory_allocated: [0, 0],
        gres_allocated: [[], []],
        whole_node: false,
      },
    });
    const select = new Select(fixturePlugin(bad), { pluginType: 'select/short' });
    const error = await caught(() => select.allocate(makeJob({ min_nodes: 2 }), allBits(4), allBits(4)));
    expect(error.message).toBe('select/short: select_p_job_test: broke the select API: job_resources.cpus has 1 entries for 2 hosts');
  });

  it('checks bitmaps from a plugin bundle with its own copy of the Bitstr class through their public methods', async () => {
    // The facade compares its own bitmaps a word at a time; a foreign class exposes only methods.
    class ForeignBits {
      constructor(
        readonly size: number,
        private readonly on: readonly number[],
      ) {}
      test(i: number): boolean {
        return this.on.includes(i);
      }
      nextSet(from = 0): number {
        return this.on.find((i) => i >= from) ?? -1;
      }
      setCount(): number {
        return this.on.length;
      }
    }
    const answer = (on: number[], resources: number[]) => () =>
      ({
        rc: SLURM_SUCCESS,
        nodes: new ForeignBits(4, on),
        job_resources: {
          nhosts: resources.length,
          node_bitmap: new ForeignBits(4, resources),
          ncpus: resources.length,
          cpus: resources.map(() => 1),
          memory_allocated: resources.map(() => 0),
          gres_allocated: resources.map(() => []),
          whole_node: false,
        },
      }) as unknown as SelectJobTestResult;
    const good = new Select(fixturePlugin(answer([1, 2], [1, 2])), { pluginType: 'select/foreign' });
    await good.nodeInit(nodes);
    expect((await good.jobTest({ job: makeJob({ min_nodes: 2 }), bitmap: bits(4, [1, 2, 3]), min_nodes: 2, max_nodes: 0, req_nodes: 2, mode: 0, preemptee_candidates: null, exc_core_bitmap: null })).rc).toBe(SLURM_SUCCESS);
    const outside = new Select(fixturePlugin(answer([0, 1], [0, 1])), { pluginType: 'select/foreign' });
    expect((await caught(() => outside.allocate(makeJob({ min_nodes: 2 }), bits(4, [1, 2, 3]), allBits(4)))).message).toContain('returned node index 0, which is not among');
    const differs = new Select(fixturePlugin(answer([1, 2], [1, 3])), { pluginType: 'select/foreign' });
    expect((await caught(() => differs.allocate(makeJob({ min_nodes: 2 }), allBits(4), allBits(4)))).message).toContain('job_resources.node_bitmap differs from the nodes chosen');
    // The same mismatch between two bitmaps of the host's class.
    const native = new Select(
      fixturePlugin(() => ({
        rc: SLURM_SUCCESS,
        nodes: bits(4, [1, 2]),
        job_resources: { nhosts: 2, node_bitmap: bits(4, [1, 3]), ncpus: 2, cpus: [1, 1], memory_allocated: [0, 0], gres_allocated: [[], []], whole_node: false },
      })),
      { pluginType: 'select/native' },
    );
    expect((await caught(() => native.allocate(makeJob({ min_nodes: 2 }), allBits(4), allBits(4)))).message).toContain('job_resources.node_bitmap differs from the nodes chosen');
  });

  it('checks required nodes and node counts', async () => {
    const select = new Select(fixturePlugin(() => ({ rc: SLURM_SUCCESS, nodes: bits(4, [0]) })), { pluginType: 'select/x' });
    const req = makeJob({ req_node_bitmap: bits(4, [2]) });
    expect((await caught(() => select.allocate(req, allBits(4), allBits(4)))).message).toContain('left out required node index 2');
    const select2 = new Select(fixturePlugin(() => ({ rc: SLURM_SUCCESS, nodes: bits(4, [0]) })), { pluginType: 'select/x' });
    expect((await caught(() => select2.allocate(makeJob({ min_nodes: 2 }), allBits(4), allBits(4)))).message).toContain(
      'returned 1 nodes, outside the 2-any asked for',
    );
  });

  it('reports a hook that throws as a crash of that plugin and hook', async () => {
    const ops = fixturePlugin(() => {
      throw new TypeError('boom');
    });
    const select = new Select(ops, { pluginType: 'select/crashy' });
    const error = await caught(() => select.allocate(makeJob(), allBits(4), allBits(4)));
    expect(error.message).toBe('select/crashy: select_p_job_test: crashed: boom');
    expect(error.cause).toBeInstanceOf(TypeError);
  });

  it('waits for a plugin whose hooks answer with promises, and reports their rejections as crashes', async () => {
    const calls: string[] = [];
    const later = <T>(value: T) => new Promise<T>((resolve) => setTimeout(() => resolve(value), 1));
    const ops: SelectOps = {
      ...fixturePlugin(() => ({ rc: SLURM_SUCCESS })),
      select_p_job_test: ((args: SelectJobTestArgs) => (calls.push('job_test'), later({ rc: SLURM_SUCCESS, nodes: bits(4, [args.bitmap.ffs()]) }))) as unknown as SelectOps['select_p_job_test'],
      select_p_job_begin: ((job: job_record_t) => (calls.push(`job_begin ${job.nodes}`), later(SLURM_SUCCESS))) as unknown as SelectOps['select_p_job_begin'],
      select_p_select_nodeinfo_set: (() => (calls.push('nodeinfo_set'), later(SLURM_SUCCESS))) as unknown as SelectOps['select_p_select_nodeinfo_set'],
      select_p_job_ready: (() => (calls.push('job_ready'), later(true))) as unknown as SelectOps['select_p_job_ready'],
    };
    const select = new Select(ops, { pluginType: 'select/async' });
    await select.nodeInit(nodes);
    const got = await select.allocate(makeJob(), bits(4, [2, 3]), allBits(4));
    expect(got.status).toBe('allocated');
    expect((got as { job: job_record_t }).job.nodes).toBe('n3');
    expect(calls).toEqual(['job_test', 'job_begin n3', 'nodeinfo_set', 'job_ready']);

    const failing = new Select({ ...ops, select_p_job_test: (() => Promise.reject(new RangeError('later boom'))) as unknown as SelectOps['select_p_job_test'] }, { pluginType: 'select/async' });
    const error = await caught(() => failing.allocate(makeJob(), allBits(4), allBits(4)));
    expect(error.message).toBe('select/async: select_p_job_test: crashed: later boom');
    expect(error.cause).toBeInstanceOf(RangeError);
  });

  describe('allocate with select/cons_tres', () => {
    let select: Select;
    beforeEach(async () => {
      const plugin = await loadPlugin('select_cons_tres', nodes);
      select = new Select(plugin, { pluginType: plugin.plugin_type });
      expect(await select.init(nodes, [])).toBe(SLURM_SUCCESS);
    });

    it('allocates now, queues when busy, rejects what can never run', async () => {
      const job = makeJob({ min_nodes: 2, max_nodes: 2, num_tasks: 3 });
      const got = await select.allocate(job, allBits(4), allBits(4));
      expect(got.status).toBe('allocated');
      const started = (got as { job: job_record_t }).job;
      expect(started.nodes).toBe('n[1-2]');
      expect(indicesOf(started.node_bitmap!)).toEqual([0, 1]);
      expect(started.job_resrcs?.cpus).toEqual([2, 1]);
      expect(await select.jobReady(started)).toBe(true);

      const big = makeJob({ num_tasks: 16 });
      expect(await select.allocate(big, allBits(4), allBits(4))).toEqual({
        status: 'pending',
        rc: errnoValue('ESLURM_NODES_BUSY'),
        reason: 'Resources',
      });
      expect(await select.allocate(makeJob({ pn_min_memory: 3000 }), allBits(4), allBits(4))).toEqual({
        status: 'rejected',
        rc: errnoValue('ESLURM_REQUESTED_NODE_CONFIG_UNAVAILABLE'),
      });
      // Down nodes (not among the candidates) make a job wait, not fail.
      expect((await select.allocate(makeJob({ num_tasks: 4 }), bits(4), allBits(4))).status).toBe('pending');

      expect(await select.release(started)).toBe(SLURM_SUCCESS);
      expect((await select.allocate(big, allBits(4), allBits(4))).status).toBe('allocated');
      const step = { step_id: 0, job_ptr: started, step_node_bitmap: started.node_bitmap!, ntasks: 3, cpus_per_task: 1, cpu_count: 3, pn_min_memory: 0, mem_per_cpu: 0 };
      expect(await select.finishStep(step)).toBe(SLURM_SUCCESS);
    });

    it('waits for job_ready', async () => {
      vi.useFakeTimers();
      try {
        let ready = false;
        const ops = { ...fixturePlugin(() => ({ rc: SLURM_SUCCESS, nodes: bits(4, [0]) })), select_p_job_ready: () => ready };
        const slow = new Select(ops, { pluginType: 'select/slow', readyPollMs: 10 });
        await slow.nodeInit(nodes);
        const pending = slow.allocate(makeJob(), allBits(4), allBits(4));
        await vi.advanceTimersByTimeAsync(50);
        ready = true;
        await vi.advanceTimersByTimeAsync(20);
        const got = await pending;
        expect(got.status).toBe('allocated');
        // No job_resources from the plugin: whole nodes.
        expect(got.status === 'allocated' && got.job_resources).toMatchObject({ nhosts: 1, cpus: [4], whole_node: true });
      } finally {
        vi.useRealTimers();
      }
    });
  });
  it('at start calls node_ranking → node_init → ba_init → state_restore → job_init → nodeinfo_set per running job', async () => {
    const calls: string[] = [];
    const plugin: SelectOps = {
      ...fixturePlugin(() => ({ rc: SLURM_ERROR }), calls),
      select_p_node_ranking: () => (calls.push('node_ranking'), [3, 2, 1, 0]),
      select_p_ba_init: (_n, sanity) => void calls.push(`ba_init ${sanity}`),
      select_p_select_nodeinfo_set: (job) => (calls.push(`nodeinfo_set ${job.job_id}`), SLURM_SUCCESS),
      select_p_ba_get_dims: () => [2, 2],
    };
    const select = new Select(plugin, { pluginType: 'select/fixture' });
    const running = makeJob({}, { job_id: 77, job_state: 1, node_bitmap: bits(4, [0]) });
    const ended = makeJob({}, { job_id: 78, job_state: 3, node_bitmap: bits(4, [1]) });
    expect(await select.init(nodes, [running, ended])).toBe(SLURM_SUCCESS);
    expect(calls).toEqual(['node_ranking', 'node_init', 'ba_init true', 'state_restore', 'job_init', 'nodeinfo_set 77']);
    expect(select.ranks).toEqual([3, 2, 1, 0]);
    expect(await select.baGetDims()).toEqual([2, 2]);
  });

  it('refuses node ranks that do not cover the node table, and dimensions that are not sizes', async () => {
    const ranks = new Select({ ...fixturePlugin(() => ({ rc: SLURM_ERROR })), select_p_node_ranking: () => [1] }, { pluginType: 'select/fixture' });
    expect((await caught(() => ranks.init(nodes, []))).message).toBe('select/fixture: select_p_node_ranking: broke the select API: returned 1 ranks for 4 nodes');
    const dims = new Select({ ...fixturePlugin(() => ({ rc: SLURM_ERROR })), select_p_ba_get_dims: () => [0] }, { pluginType: 'select/fixture' });
    expect((await caught(() => dims.baGetDims())).message).toBe('select/fixture: select_p_ba_get_dims: broke the select API: returned something other than positive integer sizes');
  });

  it('passes job signals, node state changes and reconfiguration on, with defaults when absent', async () => {
    const seen: string[] = [];
    const select = new Select(
      { ...fixturePlugin(() => ({ rc: SLURM_ERROR })), select_p_job_signal: (job, sig) => (seen.push(`signal ${job.job_id} ${sig}`), SLURM_SUCCESS) },
      { pluginType: 'select/fixture' },
    );
    const job = makeJob({}, { job_id: 5 });
    expect(await select.jobSignal(job, 9)).toBe(SLURM_SUCCESS);
    expect(seen).toEqual(['signal 5 9']);
    expect(await select.updateNodeState(nodes[0]!)).toBe(SLURM_SUCCESS);
    expect(await select.updateNodeConfig(0)).toBe(SLURM_SUCCESS);
    expect(await select.reconfigure()).toBe(SLURM_SUCCESS);
    expect(await select.nodeinfoSetAll()).toBe(SLURM_SUCCESS);
    expect(await select.jobMemConfirm(job)).toBe(SLURM_SUCCESS);
    expect(await select.baGetDims()).toBeNull();
  });
});
