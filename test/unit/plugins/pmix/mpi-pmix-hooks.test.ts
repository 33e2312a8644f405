// mpi/pmix's hooks, called as tsrun and the step daemons call them, with a fake helper
// (fake-helper.mjs) in place of the libpmix one: registration, each rank's environment,
// fences carried between nodes, aborts, a dying helper, and cleanup.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { SLURM_ERROR, SLURM_SUCCESS, type MpiStepInfo, type MpiStepLayout, type PluginHost } from '../../../../src/plugin-api/index.js';
import { stepEnvOver } from '../../../../src/stepd/step-env.js';
import * as pmix from '../../../../plugins/mpi_pmix.js';
import { HELPER_NOT_BUILT } from '../../../../plugins/lib/pmix/helper-path.js';
import { duplexPair } from '../pmi/helpers.js';

const fake = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fake-helper.mjs');
const errors: string[] = [];
const host: PluginHost = {
  log: { error: (m) => errors.push(m), info: () => {}, verbose: () => {}, debug: () => {} },
  slurm_seterrno: () => {},
  slurm_strerror: (e) => `errno ${e}`,
  version: { major: 0, minor: 1, micro: 0 },
  options: {},
  clusterName: 'test',
  time: () => Math.floor(Date.now() / 1000),
};

// -N2 -n3 -m cyclic: n1 has ranks 0 and 2, n2 rank 1.
const layout: MpiStepLayout = {
  node_cnt: 2,
  node_list: 'n[1-2]',
  node_names: ['n1', 'n2'],
  task_cnt: 3,
  tasks: [2, 1],
  tids: [[0, 2], [1]],
  task_dist: 'cyclic',
};

let logDir = '';
let jobid = 200;
const saved = { server: process.env.TSLURM_PMIX_SERVER, log: process.env.FAKE_PMIX_LOG, after: process.env.FAKE_PMIX_AFTER_JOB };
beforeAll(() => {
  process.env.TSLURM_PMIX_SERVER = fake;
  expect(pmix.init(host)).toBe(SLURM_SUCCESS);
});
afterAll(() => {
  for (const [name, value] of [['TSLURM_PMIX_SERVER', saved.server], ['FAKE_PMIX_LOG', saved.log], ['FAKE_PMIX_AFTER_JOB', saved.after]] as const) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
});
/** Steps still running when a test ends (it failed): finished here, logs removed. */
const running = new Set<() => Promise<void>>();
afterEach(async () => {
  for (const finish of running) await finish();
  rmSync(logDir, { recursive: true, force: true });
  errors.length = 0;
  delete process.env.FAKE_PMIX_AFTER_JOB;
});

const requests = (node: string): string[] => readFileSync(path.join(logDir, `${node}.log`), 'utf8').split('\n').filter(Boolean);

/** A step of two nodes: prelaunch, then prefork on both. */
async function startStep(after?: string) {
  jobid += 1;
  logDir = mkdtempSync(path.join(tmpdir(), 'tslurm-fake-pmix-'));
  process.env.FAKE_PMIX_LOG = logDir;
  if (after) process.env.FAKE_PMIX_AFTER_JOB = after;
  const aborts: [string, boolean | undefined][] = [];
  const clientEnv: string[] = [];
  const state = await pmix.p_mpi_hook_client_prelaunch({ jobid, stepid: 0, step_layout: layout, abort_step: (m, e) => aborts.push([m, e]) }, stepEnvOver(clientEnv));
  const done = layout.tids.map(() => new AbortController());
  const stepInfo = (nodeid: number): MpiStepInfo => ({
    jobid,
    stepid: 0,
    nnodes: 2,
    ntasks: 3,
    nodeid,
    node_name: layout.node_names[nodeid]!,
    ltasks: layout.tids[nodeid]!.length,
    gtids: layout.tids[nodeid]!,
    step_layout: layout,
    step_done: done[nodeid]!.signal,
    abort_step: (m, e) => aborts.push([m, e]),
  });
  // Each node gets the env prelaunch made (tsrun's port) and takes its variables out of it.
  const nodeEnvs = [0, 1].map(() => [...clientEnv]);
  const rcs = await Promise.all([0, 1].map((n) => pmix.p_mpi_hook_slurmstepd_prefork(stepInfo(n), stepEnvOver(nodeEnvs[n]!))));
  const finish = async () => {
    running.delete(finish);
    done.forEach((d) => d.abort());
    expect(await pmix.p_mpi_hook_client_fini(state)).toBe(SLURM_SUCCESS);
  };
  running.add(finish);
  return { rcs, aborts, clientEnv, nodeEnvs, finish };
}

async function taskEnv(nodeid: number, ltaskid: number): Promise<string[]> {
  const env = [`SLURM_PROCID=${layout.tids[nodeid]![ltaskid]}`];
  const gtaskid = layout.tids[nodeid]![ltaskid]!;
  await pmix.p_mpi_hook_slurmstepd_task(
    { jobid, stepid: 0, nnodes: 2, nodeid, node_name: layout.node_names[nodeid]!, ntasks: 3, ltasks: layout.tids[nodeid]!.length, gtaskid, ltaskid },
    stepEnvOver(env),
  );
  return env;
}

describe('mpi/pmix hooks with a fake helper', () => {
  it("plugin_name and plugin_type are Slurm's; pmix_v4 is the same plugin", async () => {
    expect([pmix.plugin_name, pmix.plugin_type]).toEqual(['PMIx plugin', 'mpi/pmix']);
    const v4 = await import('../../../../plugins/mpi_pmix_v4.js');
    expect([v4.plugin_name, v4.plugin_type, v4.p_mpi_hook_slurmstepd_task]).toEqual(['PMIx plugin', 'mpi/pmix_v4', pmix.p_mpi_hook_slurmstepd_task]);
  });

  it("registers the namespace on every node and gives each rank the helper's environment", async () => {
    const step = await startStep();
    expect(step.rcs).toEqual([SLURM_SUCCESS, SLURM_SUCCESS]);
    expect(step.clientEnv).toEqual([
      'SLURM_PMIX_MAPPING_SERV=(vector,(0,2,1),(0,1,1))',
      expect.stringMatching(/^SLURM_PMIX_SRUN_PORT=\d+$/),
      expect.stringMatching(/^SLURM_PMIX_SRUN_KEY=[0-9a-f]{32}$/),
    ]);
    // The tasks see none of tsrun's internal variables.
    expect(step.nodeEnvs).toEqual([0, 1].map(() => ['SLURM_PMIX_MAPPING_SERV=(vector,(0,2,1),(0,1,1))']));
    expect(await taskEnv(0, 1)).toEqual([
      'SLURM_PROCID=2',
      `PMIX_NAMESPACE=slurm.pmix.${jobid}.0`,
      'PMIX_RANK=2',
      'PMIX_SERVER_URI4=srv;tcp4://127.0.0.1:1',
    ]);
    expect(requests('n1').slice(1)).toEqual([`job slurm.pmix.${jobid}.0 0 n1,n2 0,2;1`, 'fork 2']);
    expect(requests('n2').slice(1)).toEqual([`job slurm.pmix.${jobid}.0 1 n1,n2 0,2;1`]);
    const dir = requests('n1')[0]!.slice('start '.length);
    expect(existsSync(dir)).toBe(true);
    await step.finish();
    expect(existsSync(dir)).toBe(false); // the helper's private tmpdir is removed
    expect(requests('n1').at(-1)).toBe('quit');
    expect(step.aborts).toEqual([]);
  });

  it('a fence completes on every node with both nodes\' blobs, in node order', async () => {
    const step = await startStep('fence');
    const both = Buffer.from('n1n2').toString('hex');
    await vi.waitFor(() => {
      expect(requests('n1')).toContain(`fence-done 0 ${both}`);
      expect(requests('n2')).toContain(`fence-done 0 ${both}`);
    });
    await step.finish();
    expect(step.aborts).toEqual([]);
  });

  it('PMIx_Abort from a client ends the step without an error line (as MPI_Abort under Slurm)', async () => {
    const step = await startStep('abort');
    await vi.waitFor(() => expect(step.aborts.length).toBeGreaterThan(0));
    expect(step.aborts[0]).toEqual(['mpi/pmix: task 1 aborted the step through PMIx (status 7: boom)', false]);
    await step.finish();
  });

  it('a helper that dies ends the step with an error', async () => {
    const step = await startStep('die');
    await vi.waitFor(() => expect(step.aborts.length).toBeGreaterThan(0));
    // Both nodes' helpers die; whichever is heard first ends the step.
    expect(step.aborts[0]![0]).toMatch(/^mpi\/pmix: n[12]: the PMIx server helper exited \(status 3\)$/);
    expect(step.aborts[0]![1]).toBe(true);
    await step.finish();
  });

  it('a task that ends after PMIx_Init without PMIx_Finalize fails the step (its fd 3 closes)', async () => {
    const step = await startStep();
    const launch = await pmix.p_mpi_hook_slurmstepd_task(
      { jobid, stepid: 0, nnodes: 2, nodeid: 1, node_name: 'n2', ntasks: 3, ltasks: 1, gtaskid: 1, ltaskid: 0 },
      stepEnvOver([]),
    );
    expect(launch?.pipes).toBe(1);
    const [ours] = duplexPair();
    launch!.attach!([ours]);
    ours.destroy();
    await vi.waitFor(() => expect(step.aborts).toEqual([['mpi/pmix: task 1 exited without calling PMIx_Finalize', true]]));
    await step.finish();
  });

  it('a helper error for one rank fails that task hook with its message', async () => {
    const step = await startStep();
    await expect(
      pmix.p_mpi_hook_slurmstepd_task(
        { jobid, stepid: 0, nnodes: 2, nodeid: 0, node_name: 'n1', ntasks: 3, ltasks: 2, gtaskid: 99, ltaskid: 0 },
        stepEnvOver([]),
      ),
    ).rejects.toThrow('fork 99: BAD-PARAM');
    await step.finish();
  });

  it('init fails with the install hint when the helper is not built', () => {
    process.env.TSLURM_PMIX_SERVER = '/nonexistent/tspmix_server';
    expect(() => pmix.init(host)).toThrow(HELPER_NOT_BUILT);
    process.env.TSLURM_PMIX_SERVER = fake;
    expect(pmix.init(host)).toBe(SLURM_SUCCESS);
  });
});

// -n2 on one node: the node is the whole fence tree.
const oneNode: MpiStepLayout = { node_cnt: 1, node_list: 'n1', node_names: ['n1'], task_cnt: 2, tasks: [2], tids: [[0, 1]], task_dist: 'block' };

describe('mpi/pmix on a step whose tasks all run on one node', () => {
  /** prelaunch, then prefork on the node with the env prelaunch made. */
  async function startOneNodeStep(after?: string) {
    jobid += 1;
    logDir = mkdtempSync(path.join(tmpdir(), 'tslurm-fake-pmix-'));
    process.env.FAKE_PMIX_LOG = logDir;
    if (after) process.env.FAKE_PMIX_AFTER_JOB = after;
    const aborts: [string, boolean | undefined][] = [];
    const clientEnv: string[] = [];
    const state = await pmix.p_mpi_hook_client_prelaunch({ jobid, stepid: 0, step_layout: oneNode, abort_step: (m, e) => aborts.push([m, e]) }, stepEnvOver(clientEnv));
    const done = new AbortController();
    const nodeEnv = [...clientEnv];
    const rc = await pmix.p_mpi_hook_slurmstepd_prefork(
      { jobid, stepid: 0, nnodes: 1, ntasks: 2, nodeid: 0, node_name: 'n1', ltasks: 2, gtids: [0, 1], step_layout: oneNode, step_done: done.signal, abort_step: (m, e) => aborts.push([m, e]) },
      stepEnvOver(nodeEnv),
    );
    const finish = async () => {
      running.delete(finish);
      done.abort();
      expect(await pmix.p_mpi_hook_client_fini(state)).toBe(SLURM_SUCCESS);
    };
    running.add(finish);
    return { state, rc, aborts, clientEnv, nodeEnv, finish };
  }

  it('opens no port in tsrun (nor makes a secret): the node needs none', async () => {
    const step = await startOneNodeStep();
    expect(step.state.listener).toBeUndefined();
    expect(step.clientEnv).toEqual(['SLURM_PMIX_MAPPING_SERV=(vector,(0,1,2))']);
    expect([step.rc, errors]).toEqual([SLURM_SUCCESS, []]);
    expect(requests('n1').slice(1)).toEqual([`job slurm.pmix.${jobid}.0 0 n1 0,1`]);
    await step.finish();
    expect(step.aborts).toEqual([]);
  });

  it("completes the helper's fences on the node, with the node's own blob", async () => {
    const step = await startOneNodeStep('fence');
    await vi.waitFor(() => expect(requests('n1')).toContain(`fence-done 0 ${Buffer.from('n1').toString('hex')}`));
    await step.finish();
    expect([step.aborts, errors]).toEqual([[], []]);
  });
});

describe('mpi/pmix prefork without its coordinator', () => {
  it("fails with a message when the env has no tsrun's port", async () => {
    const rc = await pmix.p_mpi_hook_slurmstepd_prefork(
      { jobid: 9999, stepid: 0, nnodes: 1, ntasks: 1, nodeid: 0, node_name: 'n1', ltasks: 1, gtids: [0], step_layout: layout, step_done: new AbortController().signal, abort_step: () => {} },
      stepEnvOver([]),
    );
    expect(rc).toBe(SLURM_ERROR);
    expect(errors).toEqual(["mpi/pmix: unable to find tsrun's PMIx port in env (SLURM_PMIX_SRUN_PORT)"]);
  });
});
