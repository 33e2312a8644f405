// select_p_state_save/restore of the built-in plugins: allocations come back for jobs that
// still run, go away for jobs that ended while the controller was down, and a foreign or
// newer file is refused with a logged reason instead of being misread.
import { describe, expect, it, vi } from 'vitest';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { JOB_RUNNING, SLURM_SUCCESS } from '../../../src/plugin-api/index.js';
import { allBits, loadPlugin, makeJob, makeNodes, start, testArgs } from './select-helpers.js';

const nodes = makeNodes(2);

describe('select state save and restore', () => {
  it('gives back the saved allocations of jobs that still run, and only those', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'tslurm-select-'));
    const first = await loadPlugin('select_linear', nodes);
    const a = { ...(await start(first, makeJob(), allBits(2))), job_state: JOB_RUNNING };
    const b = { ...(await start(first, makeJob(), allBits(2))), job_state: JOB_RUNNING };
    expect(await first.select_p_state_save!(dir)).toBe(SLURM_SUCCESS);
    expect(JSON.parse(readFileSync(path.join(dir, 'select_state'), 'utf8'))).toMatchObject({ magic: 0x5453_5345_4c, version: 1 });

    // Restarted: b ended meanwhile, a still runs; one node is free again.
    const second = await loadPlugin('select_linear', nodes);
    expect(await second.select_p_state_restore!(dir)).toBe(SLURM_SUCCESS);
    expect(await second.select_p_job_init!([a])).toBe(SLURM_SUCCESS);
    const one = await second.select_p_job_test(testArgs(makeJob(), allBits(2)));
    expect(one.nodes?.setCount()).toBe(1);
    const two = await second.select_p_job_test(testArgs(makeJob({ min_nodes: 2 }), allBits(2)));
    expect(two.nodes).toBeUndefined();
    void b;
  });

  it('refuses a foreign file with a logged reason and rebuilds from the jobs', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'tslurm-select-'));
    writeFileSync(path.join(dir, 'select_state'), JSON.stringify({ magic: 42, version: 1, nodes: [], running: [] }));
    const plugin = await loadPlugin('select_linear', nodes);
    const error = vi.fn();
    plugin.init!({ log: { error, info: vi.fn(), verbose: vi.fn(), debug: vi.fn() } } as never);
    expect(await plugin.select_p_state_restore!(dir)).toBe(SLURM_SUCCESS);
    expect(error).toHaveBeenCalledWith(`select: ${path.join(dir, 'select_state')} is not a select state file (bad magic number); rebuilding from the jobs`);
  });
});
