// mpi/pmi2: serves PMI to the tasks of a step, so MPICH (PMI-1 "simple" wire protocol) and
// PMI-2 clients such as Slurm's libpmi2 start under tsrun (Slurm's src/plugins/mpi/pmi2).
// tsrun's prelaunch hook makes the step's KVS coordinator and, when the step's tasks run on
// more than one node, listens on a TCP port for the nodes, passing the port in the step's
// environment (SLURM_PMI2_SRUN_PORT, as Slurm); each node's prefork hook reads it, takes it out
// of the tasks' environment, joins the fence tree (unless it runs every task of the step: it is
// then the whole tree, fences complete there, and it needs no port) and starts the node's PMI
// server; the task hook gives each task a connected socket as fd 3 with Slurm's PMI_*
// variables. Protocol, KVS and tree code is in lib/pmi/.
import {
  SLURM_ERROR,
  SLURM_SUCCESS,
  SLURM_VERSION_NUMBER,
  pmiProcessMapping,
  type MpiClientInfo,
  type MpiStepInfo,
  type MpiStepLayout,
  type MpiTaskInfo,
  type MpiTaskLaunch,
  type PluginHost,
  type PluginLog,
  type Rc,
  type StepEnv,
} from '../src/plugin-api/index.js';
import { KvsCoordinator } from './lib/pmi/coordinator.js';
import { listenForNodes, type CoordinatorListener } from './lib/pmi/coordinator-listener.js';
import { NodePmiServer } from './lib/pmi/node-server.js';
import { joinTree } from './lib/pmi/node-links.js';
import { listenPmiPort } from './lib/pmi/pmi-port.js';
import { newStepKey } from './lib/pmi/step-key.js';
import { serveConnection } from './lib/pmi/connection.js';
import { TREE_WIDTH_ENV, treePlace, treeWidth, wholeTreeOnOneNode, type TreePlace } from './lib/pmi/tree-shape.js';
import type { PmiUp, PmiWelcome } from './lib/pmi/messages.js';
import type { Duplex } from 'node:stream';

export const plugin_name = 'mpi PMI2 plugin';
export const plugin_type = 'mpi/pmi2';
export const plugin_version = SLURM_VERSION_NUMBER(0, 1, 0);

/** tsrun's PMI port, for the step daemons (Slurm's name); they unset it before any task starts. */
export const SRUN_PORT_ENV = 'SLURM_PMI2_SRUN_PORT';
/** The step's secret that nodes show tsrun and each other (tslurm's; unset like the port). */
export const SRUN_KEY_ENV = 'SLURM_PMI2_SRUN_KEY';
/** Where the step daemons reach tsrun: the launch host's address, which tasks keep, as in Slurm. */
const LAUNCH_ADDR_ENV = 'SLURM_LAUNCH_NODE_IPADDR';
/** Set to 1 to offer PMI_PORT and PMI_ID to tasks besides PMI_FD (hydra's TCP way in). */
export const PMI_PORT_ENV = 'TSLURM_PMI_PORT';

/** What tsrun keeps between prelaunch and fini. */
export interface Pmi2ClientState {
  readonly step: string;
  readonly coordinator: KvsCoordinator;
  /** Where the nodes reach tsrun; none when one node runs every task (it is the whole tree). */
  readonly listener: CoordinatorListener | undefined;
}

interface NodeEntry {
  server: NodePmiServer;
  sockets: Set<Duplex>;
  /** `host:port` of the node's PMI_PORT listener, when tasks are offered one. */
  pmiPort: string | undefined;
}

let log: PluginLog | undefined;
/** The PMI servers of the nodes this process runs, by `<jobid>.<stepid>.<nodeid>`. */
const nodes = new Map<string, NodeEntry>();

export function init(host: PluginHost): Rc {
  log = host.log;
  return SLURM_SUCCESS;
}

export async function p_mpi_hook_client_prelaunch(job: MpiClientInfo, env: StepEnv): Promise<Pmi2ClientState> {
  const step = `${job.jobid}.${job.stepid}`;
  const layout = job.step_layout;
  const { kvs } = stepWelcome(job.jobid, job.stepid, layout);
  log?.debug(`processor mapping: ${kvs[0]![1]}`);
  const coordinator = new KvsCoordinator({
    pmiJobId: step,
    tasksPerNode: layout.tasks,
    nodeNames: layout.node_names,
    width: treeWidth(env.get(TREE_WIDTH_ENV)),
    kvs,
    fail: (message) => job.abort_step(`mpi/pmi2: ${message}`, true),
  });
  // A step whose tasks all run on one node has no tree: that node never connects to tsrun, so
  // there is no port to open (nor secret to make) on tsrun's way to the launch. The variables
  // are the step daemons' alone and never reach a task, as under Slurm.
  if (wholeTreeOnOneNode(layout.tasks)) return { step, coordinator, listener: undefined };
  const key = newStepKey();
  const listener = await listenForNodes(coordinator, key);
  log?.debug(`srun pmi port: ${listener.port}`);
  env.set(SRUN_PORT_ENV, String(listener.port));
  env.set(SRUN_KEY_ENV, key);
  return { step, coordinator, listener };
}

export async function p_mpi_hook_slurmstepd_prefork(step: MpiStepInfo, env: StepEnv): Promise<Rc> {
  // Slurm's stepd takes its own variables out of the env its tasks inherit.
  const port = Number(env.get(SRUN_PORT_ENV));
  const key = env.get(SRUN_KEY_ENV);
  env.unset(SRUN_PORT_ENV);
  env.unset(SRUN_KEY_ENV);
  log?.debug(`${step.node_name}: PMI server for ${step.ltasks} task(s)`);
  if (step.ltasks === 0) return SLURM_SUCCESS;
  const layout = step.step_layout;
  // Every task runs here: this node is the whole tree, and its fences complete here, without a
  // round trip to tsrun per fence (tsrun's KVS would only hand back what this node sent); tsrun
  // opened no port for such a step.
  const alone = wholeTreeOnOneNode(layout.tasks);
  if (!alone && (!Number.isInteger(port) || port <= 0 || !key)) {
    log?.error(`mpi/pmi2: unable to find srun pmi2 port in env (${SRUN_PORT_ENV})`);
    return SLURM_ERROR;
  }
  const stepKey = `${step.jobid}.${step.stepid}`;
  const place = treePlace(layout.tasks, step.nodeid, treeWidth(env.get(TREE_WIDTH_ENV)));
  const links = alone ? wholeTree(step, place) : await joinStepTree(step, place, env.get(LAUNCH_ADDR_ENV) ?? '127.0.0.1', port, key!);
  if (!links) return SLURM_ERROR;
  const pmiPort = wantsPmiPort(env.get(PMI_PORT_ENV)) ? await listenPmiPort(links.server) : undefined;
  const nodeKey = `${stepKey}.${step.nodeid}`;
  const entry: NodeEntry = { server: links.server, sockets: new Set(), pmiPort: pmiPort?.address };
  nodes.set(nodeKey, entry);
  const done = (): void => {
    entry.server.close();
    for (const socket of entry.sockets) socket.destroy();
    pmiPort?.close();
    links.close();
    nodes.delete(nodeKey);
  };
  if (step.step_done.aborted) done();
  else step.step_done.addEventListener('abort', done, { once: true });
  return SLURM_SUCCESS;
}

// Slurm 22.05 sets PMI_FD, PMI_JOBID, PMI_RANK and PMI_SIZE (PMI_SPAWNED only in steps made by
// PMI spawn, which tsrun does not make). MPICH needs PMI_RANK and PMI_SIZE with PMI_FD:
// without them every task silently runs as a singleton. PMI_PORT and PMI_ID only when asked.
export function p_mpi_hook_slurmstepd_task(task: MpiTaskInfo, env: StepEnv): MpiTaskLaunch | void {
  const entry = nodes.get(`${task.jobid}.${task.stepid}.${task.nodeid}`);
  if (!entry) return;
  env.set('PMI_FD', '3');
  env.set('PMI_JOBID', entry.server.pmiJobId);
  env.set('PMI_RANK', String(task.gtaskid));
  env.set('PMI_SIZE', String(task.ntasks));
  if (entry.pmiPort) {
    env.set('PMI_PORT', entry.pmiPort);
    env.set('PMI_ID', String(task.gtaskid));
  }
  return {
    pipes: 1,
    attach: ([socket]) => {
      // No socket: the task could not be started; `exited` follows and says so.
      if (!socket) return;
      entry.sockets.add(socket);
      socket.once('close', () => entry.sockets.delete(socket));
      serveConnection(socket, entry.server, task.ltaskid);
    },
    exited: () => entry.server.taskExited(task.ltaskid),
  };
}

interface NodeTree {
  server: NodePmiServer;
  close(): void;
}

/** A node's PMI server: it starts from what the step's ids and layout say, as every node does. */
function nodeServer(step: MpiStepInfo, place: TreePlace, up: ((message: PmiUp) => void) | null): NodePmiServer {
  return new NodePmiServer({
    nodeid: step.nodeid,
    gtids: step.gtids,
    ntasks: step.ntasks,
    welcome: stepWelcome(step.jobid, step.stepid, step.step_layout),
    place,
    nodeNames: step.step_layout.node_names,
    up,
    abortStep: (message, error) => step.abort_step(message, error),
  });
}

/** The node that runs every task of its step: no links. */
function wholeTree(step: MpiStepInfo, place: TreePlace): NodeTree {
  return { server: nodeServer(step, place, null), close: () => {} };
}

/**
 * One of several nodes: joins the tree through tsrun (address and key from the env), its tasks
 * served at once; undefined if tsrun's port does not answer.
 */
async function joinStepTree(step: MpiStepInfo, place: TreePlace, host: string, port: number, key: string): Promise<NodeTree | undefined> {
  try {
    return await joinTree({ host, port, key, nodeid: step.nodeid, place, makeServer: (up) => nodeServer(step, place, up) });
  } catch (error) {
    log?.error(`mpi/pmi2: ${step.node_name} cannot reach the PMI tree of step ${step.jobid}.${step.stepid}: ${(error as Error).message}`);
    return undefined;
  }
}

/**
 * What every node of the step starts from (Slurm's stepd reads it from srun's environment): the
 * KVS before any task runs, PMI_process_mapping alone, which MPICH reads with a plain get before
 * the first fence, and the ids. tsrun's coordinator and every node make it from the step's
 * layout, so no node waits for tsrun before its tasks start.
 */
function stepWelcome(jobid: number, stepid: number, layout: MpiStepLayout): PmiWelcome {
  const mapping = pmiProcessMapping({ distribution: layout.task_dist, tasksPerNode: layout.tasks, tids: layout.tids });
  return { kvs: [['PMI_process_mapping', mapping]], pmiJobId: `${jobid}.${stepid}`, universeSize: layout.task_cnt };
}

export function p_mpi_hook_client_fini(state: Pmi2ClientState): Rc {
  state.listener?.close();
  state.coordinator.close();
  return SLURM_SUCCESS;
}

function wantsPmiPort(value: string | null): boolean {
  return value !== null && ['1', 'yes', 'true'].includes(value.toLowerCase());
}
