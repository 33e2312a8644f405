import { beforeEach, describe, expect, it } from 'vitest';
import { errnoValue, SELECT_MODE_TEST_ONLY } from '../../../src/plugin-api/index.js';
import { allBits, indicesOf, loadPlugin, makeJob, makeNodes, start, testArgs, type SelectModule } from './select-helpers.js';

describe('select/cons_res', () => {
  let plugin: SelectModule;
  beforeEach(async () => {
    plugin = await loadPlugin('select_cons_res', makeNodes(3, (i) => ({ gres_list: i === 0 ? [{ name: 'gpu', count: 2 }] : [] })));
  });

  it('exports Slurm header symbols', () => {
    expect(plugin.plugin_type).toBe('select/cons_res');
    expect(plugin.plugin_name).toBe('Consumable Resources (CR) Node Selection plugin');
  });

  it('shares nodes like cons_tres: -N2 -n3 gives 2+1, jobs pack', async () => {
    const r = await plugin.select_p_job_test(testArgs(makeJob({ min_nodes: 2, max_nodes: 2, num_tasks: 3 }), allBits(3)));
    expect(r.job_resources?.cpus).toEqual([2, 1]);
    const a = await start(plugin, makeJob({ num_tasks: 2 }), allBits(3));
    const b = await start(plugin, makeJob({ num_tasks: 2 }), allBits(3));
    expect(indicesOf(a.node_bitmap!)).toEqual(indicesOf(b.node_bitmap!));
  });

  it('refuses any gres request, even one the nodes have', async () => {
    const gres = makeJob({}, { gres_list: [{ name: 'gpu', count: 1 }] });
    expect(await plugin.select_p_job_test(testArgs(gres, allBits(3), SELECT_MODE_TEST_ONLY))).toEqual({
      rc: errnoValue('ESLURM_INVALID_GRES'),
    });
    const gpus = makeJob({}, { gres_per_job: [{ name: 'gpu', count: 1 }] });
    expect(await plugin.select_p_job_test(testArgs(gpus, allBits(3)))).toEqual({ rc: errnoValue('ESLURM_INVALID_GRES') });
  });
});
