// mpi/pmi2: serves PMI to the tasks of a step, so MPICH (PMI-1 "simple" wire protocol) and
// PMI-2 clients such as Slurm's libpmi2 start under tsrun (Slurm's src/plugins/mpi/pmi2).
// tsrun's prelaunch hook makes the step's KVS coordinator; each node's prefork hook starts a
// PMI server that talks to it; the task hook gives each task a connected socket as fd 3 with
// Slurm's PMI_* variables. Protocol and KVS code is in lib/pmi/.
import {
  SLURM_ERROR,
  SLURM_SUCCESS,
  SLURM_VERSION_NUMBER,
  type MpiClientInfo,
  type MpiStepInfo,
  type MpiTaskInfo,
  type MpiTaskLaunch,
  type PluginHost,
  type PluginLog,
  type Rc,
  type StepEnv,
} from '../src/plugin-api/index.js';
import { pmiProcessMapping } from '../src/core/pmi-process-mapping.js';
import { connectCoordinator, publishCoordinator } from './lib/pmi/channel.js';
import { KvsCoordinator } from './lib/pmi/coordinator.js';
import { NodePmiServer } from './lib/pmi/node-server.js';
import { serveConnection } from './lib/pmi/connection.js';
import type { Duplex } from 'node:stream';

export const plugin_name = 'mpi PMI2 plugin';
export const plugin_type = 'mpi/pmi2';
export const plugin_version = SLURM_VERSION_NUMBER(0, 1, 0);

/** What tsrun keeps between prelaunch and fini. */
export interface Pmi2ClientState {
  readonly step: string;
  readonly coordinator: KvsCoordinator;
  withdraw(): void;
}

interface NodeEntry {
  server: NodePmiServer;
  sockets: Set<Duplex>;
}

let log: PluginLog | undefined;
/** The PMI servers of the nodes this process runs, by `<jobid>.<stepid>.<nodeid>`. */
const nodes = new Map<string, NodeEntry>();

export function init(host: PluginHost): Rc {
  log = host.log;
  return SLURM_SUCCESS;
}

export function p_mpi_hook_client_prelaunch(job: MpiClientInfo, _env: StepEnv): Pmi2ClientState {
  const step = `${job.jobid}.${job.stepid}`;
  const layout = job.step_layout;
  const mapping = pmiProcessMapping({ distribution: layout.task_dist, tasksPerNode: layout.tasks, tids: layout.tids });
  log?.debug(`processor mapping: ${mapping}`);
  const coordinator = new KvsCoordinator({
    pmiJobId: step,
    tasksPerNode: layout.tasks,
    // Read with a plain get before the first fence (MPICH), so it is there from the start.
    kvs: [['PMI_process_mapping', mapping]],
    fail: (message) => job.abort_step(`mpi/pmi2: ${message}`, true),
  });
  return { step, coordinator, withdraw: publishCoordinator(step, coordinator) };
}

export function p_mpi_hook_slurmstepd_prefork(step: MpiStepInfo, _env: StepEnv): Rc {
  log?.debug(`${step.node_name}: PMI server for ${step.ltasks} task(s)`);
  if (step.ltasks === 0) return SLURM_SUCCESS;
  const stepKey = `${step.jobid}.${step.stepid}`;
  let server: NodePmiServer | undefined;
  const link = connectCoordinator(stepKey, step.nodeid, (message) => server?.receive(message));
  if (!link) {
    log?.error(`no PMI coordinator for step ${stepKey}: a node can only be served from inside tsrun`);
    return SLURM_ERROR;
  }
  server = new NodePmiServer({
    nodeid: step.nodeid,
    gtids: step.gtids,
    ntasks: step.ntasks,
    welcome: link.welcome,
    up: link.send,
    abortStep: (message, error) => step.abort_step(message, error),
  });
  const key = `${stepKey}.${step.nodeid}`;
  const entry: NodeEntry = { server, sockets: new Set() };
  nodes.set(key, entry);
  step.step_done.addEventListener(
    'abort',
    () => {
      entry.server.close();
      for (const socket of entry.sockets) socket.destroy();
      link.close();
      nodes.delete(key);
    },
    { once: true },
  );
  return SLURM_SUCCESS;
}

// Slurm 22.05 sets PMI_FD, PMI_JOBID, PMI_RANK and PMI_SIZE (PMI_SPAWNED only in steps made by
// PMI spawn, which tsrun does not make). MPICH needs PMI_RANK and PMI_SIZE with PMI_FD:
// without them every task silently runs as a singleton.
export function p_mpi_hook_slurmstepd_task(task: MpiTaskInfo, env: StepEnv): MpiTaskLaunch | void {
  const entry = nodes.get(`${task.jobid}.${task.stepid}.${task.nodeid}`);
  if (!entry) return;
  env.set('PMI_FD', '3');
  env.set('PMI_JOBID', entry.server.pmiJobId);
  env.set('PMI_RANK', String(task.gtaskid));
  env.set('PMI_SIZE', String(task.ntasks));
  return {
    pipes: 1,
    attach: ([socket]) => {
      // No socket: the task could not be started, so it will never use PMI.
      if (!socket) return entry.server.taskOut(task.ltaskid, 'unused');
      entry.sockets.add(socket);
      socket.once('close', () => entry.sockets.delete(socket));
      serveConnection(socket, entry.server, task.ltaskid);
    },
  };
}

export function p_mpi_hook_client_fini(state: Pmi2ClientState): Rc {
  state.withdraw();
  state.coordinator.close();
  return SLURM_SUCCESS;
}
