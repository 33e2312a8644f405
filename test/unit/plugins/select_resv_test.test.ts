// select_p_resv_test of the built-in plugins on fixture clusters: best fit over runs of
// consecutive available nodes, exact node lists; and the facade's check of the answer.
import { describe, expect, it } from 'vitest';
import { SLURM_SUCCESS } from '../../../src/plugin-api/index.js';
import { Select, type SelectOps } from '../../../src/interfaces/select.js';
import { PluginError } from '../../../src/core/errors.js';
import { bits, indicesOf, loadPlugin, makeNodes } from './select-helpers.js';

const resv = { name: 'r1', start_time: 0, end_time: 600, partition: null, features: null, node_list: null };

describe.each(['select_linear', 'select_cons_tres', 'select_cons_res'] as const)('%s select_p_resv_test', (name) => {
  const pick = async (size: number, avail: number[], count: number): Promise<number[] | null> => {
    const plugin = await loadPlugin(name, makeNodes(size));
    const answer = await plugin.select_p_resv_test!(resv, count, bits(size, avail), null);
    return answer === null ? null : indicesOf(answer.nodes);
  };

  it('takes the shortest run of consecutive nodes that holds them all', async () => {
    // Runs: [0-1], [3-6], [8-9]: two nodes fit the first run of two, not the run of four.
    expect(await pick(10, [0, 1, 3, 4, 5, 6, 8, 9], 2)).toEqual([0, 1]);
    expect(await pick(10, [0, 3, 4, 5, 6, 8, 9], 2)).toEqual([8, 9]);
    expect(await pick(10, [0, 3, 4, 5, 6, 8, 9], 3)).toEqual([3, 4, 5]);
  });

  it('spreads over the longest runs when no run is long enough', async () => {
    expect(await pick(10, [0, 2, 3, 5, 6, 7, 9], 5)).toEqual([2, 3, 5, 6, 7]);
    expect(await pick(8, [1, 3, 5, 7], 3)).toEqual([1, 3, 5]);
  });

  it('answers null when too few nodes are available', async () => {
    expect(await pick(4, [1, 2], 3)).toBeNull();
    expect(await pick(4, [], 1)).toBeNull();
  });
});

describe('the select facade: resvTest', () => {
  const ops = (answer: SelectOps['select_p_resv_test']): SelectOps => ({
    select_p_node_init: () => SLURM_SUCCESS,
    select_p_job_init: () => SLURM_SUCCESS,
    select_p_job_test: () => ({ rc: -1 }),
    select_p_job_begin: () => SLURM_SUCCESS,
    select_p_job_ready: () => true,
    select_p_job_fini: () => SLURM_SUCCESS,
    select_p_step_finish: () => SLURM_SUCCESS,
    select_p_resv_test: answer,
  });

  it('passes a good answer through', async () => {
    const select = new Select(ops((_r, _n, avail) => ({ nodes: avail.copy().clear(0) })), { pluginType: 'select/fixture' });
    expect(indicesOf((await select.resvTest(resv, 2, bits(4, [0, 2, 3])))!)).toEqual([2, 3]);
  });

  it('refuses a plugin that reserves nodes outside avail_bitmap, or the wrong count', async () => {
    const outside = new Select(ops(() => ({ nodes: bits(4, [0, 1]) })), { pluginType: 'select/fixture' });
    await expect(outside.resvTest(resv, 2, bits(4, [0, 2]))).rejects.toThrow(PluginError);
    const tooMany = new Select(ops(() => ({ nodes: bits(4, [0, 2, 3]) })), { pluginType: 'select/fixture' });
    await expect(tooMany.resvTest(resv, 2, bits(4, [0, 2, 3]))).rejects.toThrow('returned 3 node(s), not 2 of the 3 available');
  });
});
