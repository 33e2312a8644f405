// The job_container and proctrack facades, and the order in which the step daemon calls them
// (Slurm's slurmstepd): recording fake plugins around a real launch of real processes.
import { describe, expect, it } from 'vitest';
import { tmpdir } from 'node:os';
import { PluginError } from '../../../src/core/errors.js';
import { JobContainerFacade } from '../../../src/interfaces/job-container.js';
import { ProctrackFacade } from '../../../src/interfaces/proctrack.js';
import { MpiFacade } from '../../../src/interfaces/mpi.js';
import { checkPluginModule } from '../../../src/plugin-host/check.js';
import { pluginTypes, type PluginMajor } from '../../../src/plugin-host/types-table.js';
import type { LoadedPlugin } from '../../../src/plugin-host/loaded-plugin.js';
import { SLURM_ERROR, SLURM_SUCCESS, type ContainerTask, type ProctrackStep } from '../../../src/plugin-api/index.js';
import { launchNode, type NodeIoSink } from '../../../src/stepd/launch-node.js';
import type { NodeLaunchSpec } from '../../../src/stepd/launch-spec.js';
import { taskExecHelper } from '../../../src/stepd/task-pid.js';
import { StepContainer } from '../../../src/stepd/step-container.js';
import { stepEnvOver } from '../../../src/stepd/step-env.js';

const ENOENT = 2;

/** A LoadedPlugin over `module`, its functions checked by the host as they would be on load. */
function loaded(major: PluginMajor, type: string, module: Record<string, unknown>): LoadedPlugin {
  const check = checkPluginModule({ plugin_type: type, plugin_name: type, ...module }, type, pluginTypes[major]);
  if (!check.ok) throw new Error(check.reason);
  return {
    type, major, name: type, file: '<test>', builtin: false, versionScheme: 'none', apiVersion: 0, revision: 0,
    versionDisplay: '-', functions: check.functions, module, errno: 0,
  };
}

function recorder() {
  const calls: string[] = [];
  const containers = new Map<bigint, number[]>();
  let plugin!: LoadedPlugin;
  const jobContainer = {
    container_p_create: (job: number) => (calls.push(`container_p_create(${job})`), SLURM_SUCCESS),
    container_p_add_cont: (job: number, cont: bigint) => (calls.push(`container_p_add_cont(${job}, ${cont})`), SLURM_SUCCESS),
    container_p_join: (job: number, _uid: number, task: ContainerTask) => {
      calls.push(`container_p_join(${job}, ${task.argv.join(' ')})`);
      task.env.set('JOINED', String(job));
      return SLURM_SUCCESS;
    },
    container_p_add_pid: (job: number) => (calls.push(`container_p_add_pid(${job}, pid)`), SLURM_SUCCESS),
    container_p_delete: (job: number) => (calls.push(`container_p_delete(${job})`), SLURM_SUCCESS),
    container_p_reconfig: () => void calls.push('container_p_reconfig'),
  };
  const proctrack = {
    proctrack_p_create: (step: ProctrackStep) => {
      calls.push(`proctrack_p_create(${step.jobid}.${step.stepid} on ${step.node_name})`);
      containers.set(77n, []);
      return 77n;
    },
    proctrack_p_add: (step: ProctrackStep, pid: number) => {
      calls.push(`proctrack_p_add(${step.cont_id}, pid)`);
      containers.get(step.cont_id!)!.push(pid);
      return SLURM_SUCCESS;
    },
    proctrack_p_signal: (cont: bigint, signal: number) => {
      calls.push(`proctrack_p_signal(${cont}, ${signal})`);
      for (const pid of containers.get(cont) ?? []) {
        try {
          process.kill(-pid, signal);
        } catch {
          // gone
        }
      }
      return SLURM_SUCCESS;
    },
    proctrack_p_wait: (cont: bigint) => (calls.push(`proctrack_p_wait(${cont})`), SLURM_SUCCESS),
    proctrack_p_destroy: (cont: bigint) => (calls.push(`proctrack_p_destroy(${cont})`), SLURM_SUCCESS),
    proctrack_p_find: () => null,
    proctrack_p_has_pid: () => false,
    proctrack_p_get_pids: (cont: bigint) => containers.get(cont) ?? null,
  };
  const mpi = loaded('mpi', 'mpi/rec', {
    p_mpi_hook_client_prelaunch: () => ({}),
    p_mpi_hook_slurmstepd_prefork: () => (calls.push('p_mpi_hook_slurmstepd_prefork'), SLURM_SUCCESS),
    p_mpi_hook_slurmstepd_task: () => void calls.push('p_mpi_hook_slurmstepd_task'),
    p_mpi_hook_client_fini: () => SLURM_SUCCESS,
  });
  plugin = loaded('job_container', 'job_container/rec', jobContainer);
  return {
    calls,
    jobContainer,
    proctrack,
    plugins: {
      mpi: new MpiFacade(mpi, 5000),
      container: new JobContainerFacade(plugin, 5000),
      proctrack: new ProctrackFacade(loaded('proctrack', 'proctrack/rec', proctrack), 5000),
    },
  };
}

function spec(argv: string[], ntasks: number): NodeLaunchSpec {
  const tids = Array.from({ length: ntasks }, (_, i) => i);
  return {
    step: {
      jobId: 12, stepId: 0, jobName: 'unit', partition: 'debug', clusterName: 'unit', nodeNames: ['n1'],
      tasksPerNode: [ntasks], tids: [tids], ntasks, jobNodelist: 'n1', jobCpusPerNode: '4', jobNumNodes: 1,
      cpusPerTask: undefined, distribution: undefined, taskDist: 'block', mpiType: 'rec', submitDir: tmpdir(),
      submitHost: 'h', launchNodeAddr: '127.0.0.1', umask: '0022', label: false, timeLimit: 1,
    },
    nodeId: 0, cpusOnNode: 4, gpus: [], argv: [argv], cwd: tmpdir(), env: ['PATH=/usr/bin:/bin'], stdin: 'none', killWaitSeconds: 1,
  };
}

function sink(out: string[] = []): NodeIoSink {
  return { stdout: (_t, c) => out.push(c.toString()), stderr: () => {}, daemonError: (l) => out.push(l) };
}

describe('the step daemon calls job_container and proctrack at Slurm\'s moments', () => {
  it('create → proctrack create → per task join → per task add, add_cont (once), add_pid → SIGKILL, wait, destroy → delete', async () => {
    const { calls, plugins } = recorder();
    const out: string[] = [];
    // The tasks outlive their adds: one already gone is not offered to the plugins (below).
    const node = await launchNode(spec(['sh', '-c', 'echo $JOINED; exec sleep 1'], 2), plugins, sink(out));
    const exits = await node.done;
    await plugins.container.delete(12);
    expect(exits.map((e) => e.exitCode)).toEqual([0, 0]);
    expect(out).toEqual(['12\n', '12\n']);
    // The task starts behind the SLURM_TASK_PID helper when it is built (task-pid.ts), which sets the submitter's umask.
    const joined = `container_p_join(12, ${[...(taskExecHelper() ? [taskExecHelper(), '--umask', '0022', '--'] : []), 'sh', '-c', 'echo $JOINED; exec sleep 1'].join(' ')})`;
    expect(calls).toEqual([
      'container_p_create(12)',
      'proctrack_p_create(12.0 on n1)',
      'p_mpi_hook_slurmstepd_prefork',
      // Every task is spawned before the first is added, as slurmstepd forks all before its
      // proctrack_g_add loop (mgr.c _fork_all_tasks).
      'p_mpi_hook_slurmstepd_task',
      joined,
      'p_mpi_hook_slurmstepd_task',
      joined,
      'proctrack_p_add(77, pid)',
      'container_p_add_cont(12, 77)',
      'container_p_add_pid(12, pid)',
      'proctrack_p_add(77, pid)',
      'container_p_add_pid(12, pid)',
      'proctrack_p_signal(77, 9)',
      'proctrack_p_wait(77)',
      'proctrack_p_destroy(77)',
      'container_p_delete(12)',
    ]);
  });

  it('a task already gone when its node\'s tasks are adopted is not offered to proctrack_p_add or container_p_add_pid', async () => {
    const { calls, plugins } = recorder();
    const container = await StepContainer.open(plugins, { jobId: 12, stepId: 0, nodeName: 'n1' }, stepEnvOver([]));
    await container.adopt(4242, () => true);
    await container.adopt(4243, () => false);
    expect(calls.filter((c) => c.includes('_add'))).toEqual([
      'container_p_add_cont(12, 77)',
      'proctrack_p_add(77, pid)',
      'container_p_add_pid(12, pid)',
    ]);
  });

  it('signals go to the container; the job container is created once per job and deleted once', async () => {
    const { calls, plugins } = recorder();
    const node = await launchNode(spec(['sleep', '30'], 1), plugins, sink());
    await plugins.container.create(12);
    node.signal('SIGTERM');
    const [exit] = await node.done;
    expect(exit!.signal).toBe('SIGTERM');
    expect(calls.filter((c) => c.startsWith('proctrack_p_signal'))).toEqual(['proctrack_p_signal(77, 15)', 'proctrack_p_signal(77, 9)']);
    await plugins.container.delete(12);
    await plugins.container.delete(12);
    expect(calls.filter((c) => c.startsWith('container_p_create') || c.startsWith('container_p_delete'))).toEqual([
      'container_p_create(12)',
      'container_p_delete(12)',
    ]);
  });

  it('a failing hook ends the node\'s launch with a PluginError naming the plugin, hook and errno; the container is still destroyed', async () => {
    const { calls, plugins, jobContainer } = recorder();
    const errnoSetter = plugins.container.plugin;
    jobContainer.container_p_add_pid = () => {
      errnoSetter.errno = ENOENT;
      return SLURM_ERROR;
    };
    (plugins.container.plugin.functions as Map<string, Function>).set('container_p_add_pid', jobContainer.container_p_add_pid);
    const error = await launchNode(spec(['sleep', '30'], 1), plugins, sink()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PluginError);
    expect((error as Error).message).toBe('job_container/rec: container_p_add_pid: failed: No such file or directory');
    expect(calls.slice(-3)).toEqual(['proctrack_p_signal(77, 9)', 'proctrack_p_wait(77)', 'proctrack_p_destroy(77)']);
  });
});

describe('ProctrackFacade', () => {
  it('turns a null container id into a PluginError with the errno text', async () => {
    const { proctrack } = recorder();
    const p = loaded('proctrack', 'proctrack/rec', { ...proctrack, proctrack_p_create: () => null });
    const facade = new ProctrackFacade(p, 5000);
    p.errno = 99; // stale: the facade clears it before the call
    await expect(facade.create({ jobid: 1, stepid: 2, uid: 0, gid: 0, node_name: 'n1', cont_id: null })).rejects.toThrow(
      'proctrack/rec: proctrack_p_create: cannot create a container for step 1.2: returned null',
    );
  });

  it('passes questions through: get_pids, has_pid, signal 0', async () => {
    const { proctrack } = recorder();
    const facade = new ProctrackFacade(loaded('proctrack', 'proctrack/rec', { ...proctrack, proctrack_p_get_pids: () => [3, 4] }), 5000);
    expect(await facade.getPids(77n)).toEqual([3, 4]);
    expect(await facade.hasPid(77n, 3)).toBe(false);
    expect(await facade.anyLeft(77n)).toBe(true);
  });
});

describe('the job_container API version', () => {
  it('speaks the page\'s version 101 (API 0, revision 101) and refuses API 1', () => {
    const mod = { plugin_type: 'job_container/old', plugin_name: 'old', container_p_create() {}, container_p_add_cont() {},
      container_p_add_pid() {}, container_p_delete() {}, container_p_reconfig() {} };
    expect(checkPluginModule({ ...mod, plugin_version: 101 }, 'job_container/old', pluginTypes.job_container)).toMatchObject({
      ok: true, version: { scheme: 'api', apiVersion: 0, revision: 101, display: 'API 0.101' },
    });
    expect(checkPluginModule({ ...mod, plugin_version: 1001 }, 'job_container/old', pluginTypes.job_container)).toEqual({
      ok: false, code: 'ESLURM_PLUGIN_BAD_VERSION', reason: 'plugin speaks API 1, tslurm speaks API 0', type: 'job_container/old',
    });
  });
});
