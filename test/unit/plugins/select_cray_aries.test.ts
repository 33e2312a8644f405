// select/cray_aries: linear's placement, plus the Cray job steps (blades marked in use at
// job_begin, job_ready only after it, release at job_fini) and the machine's dimensions from
// node-name coordinates (select_p_ba_init / select_p_ba_get_dims).
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { Buf } from '../../../src/core/buf.js';
import { SLURM_ERROR, SLURM_SUCCESS, type PluginHost } from '../../../src/plugin-api/index.js';
import { buildTorus, char2coord, coordsOf } from '../../../plugins/lib/cray-torus.js';
import { allBits, indicesOf, makeJob, makeNodes, start, testArgs, type SelectModule } from './select-helpers.js';

type CrayModule = SelectModule & typeof import('../../../plugins/select_cray_aries.js');

// A 4x2x2 torus: nid000 … nid311, 16 nodes; blades are the x,y pairs (8 of 2 nodes).
const names = [0, 1, 2, 3].flatMap((x) => [0, 1].flatMap((y) => [0, 1].map((z) => `nid${x}${y}${z}`)));
const nodes = makeNodes(16, (i) => ({ name: names[i]! }));
const verbose: string[] = [];

function host(options: Record<string, unknown>): PluginHost {
  return {
    log: { error: (m) => verbose.push(`error: ${m}`), info: () => {}, verbose: (m) => verbose.push(m), debug: () => {} },
    slurm_seterrno: () => {},
    slurm_strerror: (e) => `errno ${e}`,
    version: { major: 0, minor: 1, micro: 0 },
    options,
    clusterName: 'cray',
    time: () => Math.floor(Date.now() / 1000),
  };
}

async function load(options: Record<string, unknown> = { dims: [4, 2, 2] }, table = nodes): Promise<CrayModule> {
  vi.resetModules();
  const mod = (await import('../../../plugins/select_cray_aries.js')) as unknown as CrayModule;
  expect(mod.init(host(options))).toBe(SLURM_SUCCESS);
  expect(await mod.select_p_node_init(table)).toBe(SLURM_SUCCESS);
  return mod;
}

beforeEach(() => {
  verbose.length = 0;
});

describe('node-name coordinates', () => {
  it('reads the last D characters as base-36 digits, as Slurm reads Cray coordinates', () => {
    expect(coordsOf('nid312', 3)).toEqual([3, 1, 2]);
    expect(coordsOf('c0AZ', 3)).toEqual([0, 10, 35]);
    expect(coordsOf('node1', 3)).toBeNull(); // lower-case letters are not coordinates
    expect(char2coord('a')).toBe(-1);
  });

  it('takes dims from the YAML, else what the coordinates span; sanity-checks on request', () => {
    expect(buildTorus(names, [4, 2, 2], 3, true).dims).toEqual([4, 2, 2]);
    expect(buildTorus(['n000', 'n101', 'n210'], null, 3, false).dims).toEqual([3, 2, 2]);
    expect(() => buildTorus(['nid000', 'nid400'], [4, 2, 2], 3, true)).toThrow(
      "node nid400 coordinates 4,0,0 are outside the system's dimensions 4x2x2",
    );
    expect(() => buildTorus(['nid000', 'node1'], [4, 2, 2], 3, true)).toThrow('node node1 has no coordinates (its name must end in 3 characters 0-9/A-Z)');
    expect(() => buildTorus(['a000', 'b000'], null, 3, true)).toThrow('nodes a000 and b000 have the same coordinates 0,0,0');
  });
});

describe('select/cray_aries', () => {
  it('exposes the dimensions through select_p_ba_init / select_p_ba_get_dims', async () => {
    const plugin = await load();
    await plugin.select_p_ba_init!(nodes, true);
    expect(plugin.select_p_ba_get_dims!()).toEqual([4, 2, 2]);
    const spanned = await load({ dimensions: 3 }, makeNodes(4, (i) => ({ name: ['x000', 'x001', 'x010', 'x120'][i]! })));
    await spanned.select_p_ba_init!(makeNodes(4, (i) => ({ name: ['x000', 'x001', 'x010', 'x120'][i]! })), false);
    expect(spanned.select_p_ba_get_dims!()).toEqual([2, 3, 2]);
  });

  it('refuses a bad dims option at init, and ba_init with sanity_check refuses nodes outside the torus', async () => {
    vi.resetModules();
    const mod = (await import('../../../plugins/select_cray_aries.js')) as unknown as CrayModule;
    expect(mod.init(host({ dims: [4, 0] }))).toBe(SLURM_ERROR);
    expect(verbose).toEqual(['error: select/cray_aries: dims must be a list of dimension sizes from 1 to 36, e.g. [4, 2, 2] (got [4,0])']);
    const small = await load({ dims: [2, 2, 2] });
    expect(() => small.select_p_ba_init!(nodes, true)).toThrow("node nid200 coordinates 2,0,0 are outside the system's dimensions 2x2x2");
  });

  it('places jobs as select/linear does: whole nodes, best fit over consecutive runs', async () => {
    const plugin = await load();
    const r = await plugin.select_p_job_test(testArgs(makeJob({ min_nodes: 3, num_tasks: 3 }), allBits(16)));
    expect(indicesOf(r.nodes!)).toEqual([0, 1, 2]);
    expect(r.job_resources?.cpus).toEqual([4, 4, 4]);
  });

  it('job_begin marks the blades in use and makes the job ready; job_fini cleans up and releases', async () => {
    const plugin = await load();
    const job = makeJob({ min_nodes: 3, num_tasks: 3 });
    expect(plugin.select_p_job_ready(job)).toBe(false);
    const started = await start(plugin, { ...job, nodes: 'nid[000-001,010]' } as typeof job, allBits(16));
    expect(plugin.select_p_job_ready(started)).toBe(true);
    expect(plugin.jobinfoOf(started.job_id)).toEqual({ blades: ['00', '01'], running: true, cleaning: false });
    expect(verbose).toContain(`select/cray_aries: job ${started.job_id} begins on nid[000-001,010] (blades 00,01)`);
    expect(plugin.select_p_job_signal!(started, 10)).toBe(SLURM_SUCCESS);
    expect(plugin.select_p_job_fini(started)).toBe(SLURM_SUCCESS);
    expect(verbose).toContain(`select/cray_aries: job ${started.job_id} ends: node health check on nid[000-001,010]`);
    expect(plugin.jobinfoOf(started.job_id)).toBeUndefined();
    expect(plugin.select_p_job_ready(started)).toBe(false);
    // The nodes are free again.
    const again = await plugin.select_p_job_test(testArgs(makeJob({ min_nodes: 16, num_tasks: 16 }), allBits(16)));
    expect(again.rc).toBe(SLURM_SUCCESS);
  });

  it('job_init takes back the running jobs and their blades after a restart', async () => {
    const first = await load();
    const started = await start(first, makeJob({ min_nodes: 2, num_tasks: 2 }), allBits(16));
    const restarted = await load();
    expect(await restarted.select_p_job_init([{ ...started, job_state: 1, start_time: 1 }])).toBe(SLURM_SUCCESS);
    expect(restarted.select_p_job_ready(started)).toBe(true);
    expect(restarted.jobinfoOf(started.job_id)?.blades).toEqual(['00']);
  });

  it('packs and unpacks its per-job data, and prints it', async () => {
    const plugin = await load();
    const info = { blades: ['00', '31'], running: true, cleaning: false };
    const buf = new Buf();
    expect(plugin.select_p_select_jobinfo_pack(info, buf)).toBe(SLURM_SUCCESS);
    expect(plugin.select_p_select_jobinfo_unpack(Buf.fromBytes(buf.getBuffer(), buf.protocolVersion)).value).toEqual(info);
    expect(plugin.select_p_select_jobinfo_unpack(Buf.fromBytes(new Uint8Array(2), buf.protocolVersion)).rc).toBe(SLURM_ERROR);
    expect(plugin.select_p_select_jobinfo_get(info, 'SELECT_JOBDATA_BLADES')).toEqual({ rc: SLURM_SUCCESS, data: ['00', '31'] });
    expect((await plugin.select_p_select_jobinfo_get(info, 'SELECT_JOBDATA_NOPE')).rc).toBe(SLURM_ERROR);
    expect(plugin.select_p_select_jobinfo_sprint(info)).toBe('Blades=00,31');
    expect(plugin.select_p_select_jobinfo_copy(info)).toEqual(info);
  });
});
