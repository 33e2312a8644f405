// mpi/pmi2's four hooks, called as tsrun and the step daemons call them: prelaunch makes the
// coordinator, prefork a server per node, the task hook sets Slurm's PMI_* variables and asks
// for a socket pair, and fini withdraws the coordinator.
import { afterEach, describe, expect, it } from 'vitest';
import {
  SLURM_ERROR,
  SLURM_SUCCESS,
  type MpiStepInfo,
  type MpiStepLayout,
  type MpiTaskLaunch,
  type PluginHost,
  type StepEnv,
} from '../../../../src/plugin-api/index.js';
import { connect, createServer, type AddressInfo, type Socket } from 'node:net';
import { stepEnvOver } from '../../../../src/stepd/step-env.js';
import * as pmi2 from '../../../../plugins/mpi_pmi2.js';
import { Client, duplexPair } from './helpers.js';

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

// -N2 -n3 -m cyclic: node0 has ranks 0 and 2, node1 rank 1.
const twoNodes: MpiStepLayout = {
  node_cnt: 2,
  node_list: 'n[1-2]',
  node_names: ['n1', 'n2'],
  task_cnt: 3,
  tasks: [2, 1],
  tids: [[0, 2], [1]],
  task_dist: 'cyclic',
};

let jobid = 100;
const cleanups: Array<() => void> = [];
afterEach(() => {
  cleanups.splice(0).forEach((f) => f());
  errors.length = 0;
});

// -n3 on one node: the node is the whole fence tree.
const oneNode: MpiStepLayout = { node_cnt: 1, node_list: 'n1', node_names: ['n1'], task_cnt: 3, tasks: [3], tids: [[0, 1, 2]], task_dist: 'block' };

async function startStep(userEnv: string[] = [], layout = twoNodes) {
  jobid += 1;
  const aborts: string[] = [];
  const env: string[] = [...userEnv];
  const state = await pmi2.p_mpi_hook_client_prelaunch({ jobid, stepid: 0, step_layout: layout, abort_step: (m) => aborts.push(m) }, stepEnvOver(env));
  /** The env a node's step daemon starts from: what prelaunch made, copied per node. */
  const nodeEnv = (): string[] => [...env];
  const done = layout.tids.map(() => new AbortController());
  const stepInfo = (nodeid: number): MpiStepInfo => ({
    jobid,
    stepid: 0,
    nnodes: layout.node_cnt,
    ntasks: layout.task_cnt,
    nodeid,
    node_name: layout.node_names[nodeid]!,
    ltasks: layout.tids[nodeid]!.length,
    gtids: layout.tids[nodeid]!,
    step_layout: layout,
    step_done: done[nodeid]!.signal,
    abort_step: (m) => aborts.push(m),
  });
  cleanups.push(() => {
    done.forEach((d) => d.abort());
    pmi2.p_mpi_hook_client_fini(state);
  });
  return { state, env, nodeEnv, done, stepInfo, aborts };
}

function startTask(nodeid: number, ltaskid: number, layout = twoNodes): { env: string[]; launch: MpiTaskLaunch; client: Client } {
  const env = [`SLURM_PROCID=${layout.tids[nodeid]![ltaskid]}`];
  const launch = pmi2.p_mpi_hook_slurmstepd_task(
    { jobid, stepid: 0, nnodes: layout.node_cnt, nodeid, node_name: 'n', ntasks: layout.task_cnt, ltasks: layout.tids[nodeid]!.length, gtaskid: layout.tids[nodeid]![ltaskid]!, ltaskid },
    stepEnvOver(env) as StepEnv,
  ) as MpiTaskLaunch;
  const [ours, theirs] = duplexPair();
  launch.attach!([ours]);
  return { env, launch, client: new Client(theirs) };
}

describe('mpi/pmi2 hooks', () => {
  it("has Slurm's header", () => {
    expect([pmi2.plugin_type, pmi2.plugin_name, pmi2.init(host)]).toEqual(['mpi/pmi2', 'mpi PMI2 plugin', SLURM_SUCCESS]);
  });

  it("puts PMI_process_mapping of the layout in the KVS before any task runs, and tsrun's port in the env", async () => {
    const { state, env } = await startStep();
    expect(state.coordinator.snapshot()).toEqual([['PMI_process_mapping', '(vector,(0,2,1),(0,1,1))']]);
    expect(env).toEqual([`SLURM_PMI2_SRUN_PORT=${state.listener!.port}`, expect.stringMatching(/^SLURM_PMI2_SRUN_KEY=[0-9a-f]{32}$/)]);
  });

  it("takes tsrun's variables out of the tasks' env, and leaves the user's tree width in it (as Slurm)", async () => {
    const { stepInfo, nodeEnv } = await startStep(['SLURM_PMI2_TREE_WIDTH=2']);
    const env = nodeEnv();
    expect(await pmi2.p_mpi_hook_slurmstepd_prefork(stepInfo(1), stepEnvOver(env))).toBe(SLURM_SUCCESS);
    expect(env).toEqual(['SLURM_PMI2_TREE_WIDTH=2']);
  });

  it("gives each task Slurm's PMI variables and one socket pair, then serves it", async () => {
    const { stepInfo, nodeEnv } = await startStep();
    expect(await pmi2.p_mpi_hook_slurmstepd_prefork(stepInfo(0), stepEnvOver(nodeEnv()))).toBe(SLURM_SUCCESS);
    expect(await pmi2.p_mpi_hook_slurmstepd_prefork(stepInfo(1), stepEnvOver(nodeEnv()))).toBe(SLURM_SUCCESS);
    const tasks = [startTask(0, 0), startTask(1, 0), startTask(0, 1)];
    expect(tasks[2]!.env).toEqual(['SLURM_PROCID=2', 'PMI_FD=3', `PMI_JOBID=${jobid}.0`, 'PMI_RANK=2', 'PMI_SIZE=3']);
    expect(tasks[2]!.launch.pipes).toBe(1);

    for (const { client } of tasks) client.send('cmd=init pmi_version=1 pmi_subversion=1\n');
    for (const { client } of tasks) await client.line();
    tasks[1]!.client.send('cmd=put kvsname=x key=from1 value=hello\n');
    await tasks[1]!.client.line();
    for (const { client } of tasks) client.send('cmd=barrier_in\n');
    for (const { client } of tasks) expect(await client.line()).toBe('cmd=barrier_out rc=0');
    tasks[0]!.client.send('cmd=get kvsname=x key=from1\n');
    expect(await tasks[0]!.client.line()).toBe('cmd=get_result rc=0 value=hello');
  });

  it('opens no port in tsrun for a step whose tasks all run on one node, whose node needs none', async () => {
    // -N2 -n3 -w: every task on the second node, none on the first.
    const secondOnly: MpiStepLayout = { ...twoNodes, tasks: [0, 3], tids: [[], [0, 1, 2]], task_dist: 'block' };
    for (const layout of [oneNode, secondOnly]) {
      const { state, env, stepInfo, nodeEnv } = await startStep(['SLURM_PMI2_TREE_WIDTH=2'], layout);
      expect([state.listener, env]).toEqual([undefined, ['SLURM_PMI2_TREE_WIDTH=2']]);
      const node = layout.tasks.findIndex((tasks) => tasks > 0);
      expect(await pmi2.p_mpi_hook_slurmstepd_prefork(stepInfo(node), stepEnvOver(nodeEnv()))).toBe(SLURM_SUCCESS);
    }
    expect(errors).toEqual([]);
  });

  it("completes the fences of a step whose tasks all run on one node there, without tsrun's PMI port", async () => {
    const { stepInfo, nodeEnv, aborts } = await startStep([], oneNode);
    expect(await pmi2.p_mpi_hook_slurmstepd_prefork(stepInfo(0), stepEnvOver(nodeEnv()))).toBe(SLURM_SUCCESS);
    const tasks = [0, 1, 2].map((ltaskid) => startTask(0, ltaskid, oneNode));
    for (const { client } of tasks) client.send('cmd=init pmi_version=1 pmi_subversion=1\n');
    for (const { client } of tasks) await client.line();
    tasks[0]!.client.send(`cmd=get kvsname=${jobid}.0 key=PMI_process_mapping\n`);
    expect(await tasks[0]!.client.line()).toBe('cmd=get_result rc=0 value=(vector,(0,1,3))');
    tasks[2]!.client.send('cmd=put kvsname=x key=from2 value=here\n');
    await tasks[2]!.client.line();
    for (const { client } of tasks) client.send('cmd=barrier_in\n');
    for (const { client } of tasks) expect(await client.line()).toBe('cmd=barrier_out rc=0');
    tasks[1]!.client.send('cmd=get kvsname=x key=from2\n');
    expect(await tasks[1]!.client.line()).toBe('cmd=get_result rc=0 value=here');
    expect([aborts, errors]).toEqual([[], []]);
  });

  it('fails the fence of a one-node step when a task finalized (no tree to report to)', async () => {
    const { stepInfo, nodeEnv, aborts } = await startStep([], oneNode);
    await pmi2.p_mpi_hook_slurmstepd_prefork(stepInfo(0), stepEnvOver(nodeEnv()));
    const tasks = [0, 1, 2].map((ltaskid) => startTask(0, ltaskid, oneNode));
    for (const { client } of tasks) client.send('cmd=init pmi_version=1 pmi_subversion=1\n');
    for (const { client } of tasks) await client.line();
    tasks[1]!.client.send('cmd=finalize\n');
    expect(await tasks[1]!.client.line()).toBe('cmd=finalize_ack rc=0');
    tasks[0]!.client.send('cmd=barrier_in\n');
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(aborts).toEqual(['mpi/pmi2: a fence cannot complete: task 1 has finalized']);
  });

  it("starts a node of a multi-node step without waiting for tsrun's answer (as slurmstepd forks before it hears from srun)", async () => {
    // A tsrun whose port accepts the connection but never says a word.
    const silent = createServer(() => {});
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    cleanups.push(() => silent.close());
    const { stepInfo } = await startStep();
    const env = [`SLURM_PMI2_SRUN_PORT=${(silent.address() as AddressInfo).port}`, 'SLURM_PMI2_SRUN_KEY=k'];
    const prefork = pmi2.p_mpi_hook_slurmstepd_prefork(stepInfo(0), stepEnvOver(env));
    const answered = await Promise.race([prefork, new Promise((resolve) => setTimeout(() => resolve('still waiting'), 2000))]);
    expect(answered).toBe(SLURM_SUCCESS);
    // Its tasks are served already: the mapping is there before any fence.
    const { client } = startTask(0, 0);
    client.send(`cmd=init pmi_version=1 pmi_subversion=1\ncmd=get kvsname=${jobid}.0 key=PMI_process_mapping\n`);
    await client.line();
    expect(await client.line()).toBe('cmd=get_result rc=0 value=(vector,(0,2,1),(0,1,1))');
  });

  it('closes the connections of a node when its step is done', async () => {
    const { stepInfo, done, nodeEnv } = await startStep();
    await pmi2.p_mpi_hook_slurmstepd_prefork(stepInfo(1), stepEnvOver(nodeEnv()));
    const { client } = startTask(1, 0);
    done[1]!.abort();
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(client.ended).toBe(true);
  });

  it('a task that could not be started counts as one that never used PMI', async () => {
    const { stepInfo, aborts, nodeEnv } = await startStep();
    await pmi2.p_mpi_hook_slurmstepd_prefork(stepInfo(0), stepEnvOver(nodeEnv()));
    const launch = pmi2.p_mpi_hook_slurmstepd_task(
      { jobid, stepid: 0, nnodes: 2, nodeid: 0, node_name: 'n1', ntasks: 3, ltasks: 2, gtaskid: 0, ltaskid: 0 },
      stepEnvOver([]),
    ) as MpiTaskLaunch;
    launch.attach!([]);
    launch.exited!();
    const { client } = startTask(0, 1);
    client.send('cmd=init pmi_version=1 pmi_subversion=1\ncmd=barrier_in\n');
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(aborts).toEqual(['mpi/pmi2: a fence cannot complete: task 0 ended without using PMI']);
  });

  it("refuses a node whose env has no tsrun's port (Slurm's message)", async () => {
    const { stepInfo } = await startStep();
    expect(await pmi2.p_mpi_hook_slurmstepd_prefork(stepInfo(0), stepEnvOver([]))).toBe(SLURM_ERROR);
    expect(errors).toEqual(['mpi/pmi2: unable to find srun pmi2 port in env (SLURM_PMI2_SRUN_PORT)']);
  });

  it('refuses a node when tsrun is gone', async () => {
    const { stepInfo, state, nodeEnv } = await startStep();
    pmi2.p_mpi_hook_client_fini(state);
    expect(await pmi2.p_mpi_hook_slurmstepd_prefork(stepInfo(0), stepEnvOver(nodeEnv()))).toBe(SLURM_ERROR);
    expect(errors).toEqual([expect.stringMatching(new RegExp(`^mpi/pmi2: n1 cannot reach the PMI tree of step ${jobid}\\.0: connect ECONNREFUSED`))]);
  });

  it('offers PMI_PORT and PMI_ID when TSLURM_PMI_PORT=1, and serves a task that connects there', async () => {
    const { stepInfo, nodeEnv } = await startStep(['TSLURM_PMI_PORT=1']);
    await pmi2.p_mpi_hook_slurmstepd_prefork(stepInfo(0), stepEnvOver(nodeEnv()));
    await pmi2.p_mpi_hook_slurmstepd_prefork(stepInfo(1), stepEnvOver(nodeEnv()));
    const tasks = [startTask(0, 0), startTask(1, 0), startTask(0, 1)];
    const portVar = tasks[2]!.env.find((v) => v.startsWith('PMI_PORT='))!;
    expect(tasks[2]!.env).toEqual(['SLURM_PROCID=2', 'PMI_FD=3', `PMI_JOBID=${jobid}.0`, 'PMI_RANK=2', 'PMI_SIZE=3', expect.stringMatching(/^PMI_PORT=127\.0\.0\.1:\d+$/), 'PMI_ID=2']);
    // Rank 2's wrapper closed fd 3 and connects to PMI_PORT instead (MPICH's PMII_Set_from_port).
    tasks[2]!.client.socket.end();
    const [host, port] = portVar.slice('PMI_PORT='.length).split(':');
    const tcp = new Client(await new Promise<Socket>((resolve) => {
      const socket = connect(Number(port), host, () => resolve(socket));
    }));
    tcp.send('cmd=initack pmiid=2\n');
    expect([await tcp.line(), await tcp.line(), await tcp.line(), await tcp.line()]).toEqual(['cmd=initack', 'cmd=set size=3', 'cmd=set rank=2', 'cmd=set debug=0']);
    const clients = [tasks[0]!.client, tasks[1]!.client, tcp];
    for (const client of clients) client.send('cmd=init pmi_version=1 pmi_subversion=1\n');
    for (const client of clients) await client.line();
    tcp.send('cmd=put kvsname=x key=from2 value=over-tcp\n');
    await tcp.line();
    for (const client of clients) client.send('cmd=barrier_in\n');
    for (const client of clients) expect(await client.line()).toBe('cmd=barrier_out rc=0');
    tasks[1]!.client.send('cmd=get kvsname=x key=from2\n');
    expect(await tasks[1]!.client.line()).toBe('cmd=get_result rc=0 value=over-tcp');
    tcp.socket.destroy();
  });

  it('shuts out a PMI_PORT connection that names no task of the node, and fails nothing', async () => {
    const { stepInfo, nodeEnv, aborts } = await startStep(['TSLURM_PMI_PORT=1']);
    await pmi2.p_mpi_hook_slurmstepd_prefork(stepInfo(1), stepEnvOver(nodeEnv()));
    const { env } = startTask(1, 0);
    const [host, port] = env.find((v) => v.startsWith('PMI_PORT='))!.slice('PMI_PORT='.length).split(':');
    const stranger = new Client(connect(Number(port), host));
    stranger.send('cmd=initack pmiid=0\n'); // rank 0 runs on the other node
    await expect(stranger.line()).rejects.toThrow('connection ended');
    expect(aborts).toEqual([]);
  });
});
