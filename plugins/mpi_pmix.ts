// mpi/pmix: Open MPI (and other PMIx clients) start under tsrun (Slurm's src/plugins/mpi/pmix).
// Each node's prefork hook starts a PMIx server helper process (native/pmix-server, libpmix) and
// registers the step's namespace with it; the task hook asks it for the rank's environment
// (PMIx_server_setup_fork) before the task is spawned. The helper's fences travel as opaque
// blobs through the same TCP fence tree as mpi/pmi2's (lib/pmi/: tsrun's coordinator is the
// root, its port in SLURM_PMIX_SRUN_PORT): every node's blob comes back to each node. A step
// whose tasks all run on one node has no tree, as under mpi/pmi2: tsrun opens no port, and the
// node's fences complete there with its own blob.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  SLURM_ERROR,
  SLURM_SUCCESS,
  SLURM_VERSION_NUMBER,
  pmiProcessMapping,
  type MpiClientInfo,
  type MpiStepInfo,
  type MpiTaskInfo,
  type MpiTaskLaunch,
  type PluginHost,
  type PluginLog,
  type Rc,
  type StepEnv,
} from '../src/plugin-api/index.js';
import { KvsCoordinator } from './lib/pmi/coordinator.js';
import { listenForNodes, type CoordinatorListener } from './lib/pmi/coordinator-listener.js';
import { joinTree, type NodeLinks } from './lib/pmi/node-links.js';
import type { PmiUp } from './lib/pmi/messages.js';
import { DEFAULT_TREE_WIDTH, treePlace, wholeTreeOnOneNode } from './lib/pmi/tree-shape.js';
import { newStepKey } from './lib/pmi/step-key.js';
import { PmixFenceMember } from './lib/pmix/fence-member.js';
import { PmixHelper } from './lib/pmix/helper.js';
import { findPmixHelper, HELPER_NOT_BUILT } from './lib/pmix/helper-path.js';

export const plugin_name = 'PMIx plugin';
export const plugin_type: string = 'mpi/pmix';
export const plugin_version = SLURM_VERSION_NUMBER(0, 1, 0);

/** What tsrun keeps between prelaunch and fini. */
export interface PmixClientState {
  readonly step: string;
  readonly coordinator: KvsCoordinator;
  /** Where the nodes reach tsrun; none when one node runs every task (it is the whole tree). */
  readonly listener: CoordinatorListener | undefined;
}

/** tsrun's fence port and the step's secret, for the step daemons, who unset them. */
const SRUN_PORT_ENV = 'SLURM_PMIX_SRUN_PORT';
const SRUN_KEY_ENV = 'SLURM_PMIX_SRUN_KEY';

interface NodeEntry {
  helper: PmixHelper;
  links: Pick<NodeLinks<PmixFenceMember>, 'server' | 'close'>;
  dir: string;
  /** Rank `rank`'s process has ended (its fd 3 closed). */
  taskExited(rank: number): void;
}

// A task's exit can be seen before the helper's `connected`/`finalized`/`abort` line about it
// (the helper writes them before it answers the client): wait this long before judging it.
const EXIT_GRACE_MS = 200;

let log: PluginLog | undefined;
let helperBinary: string | undefined;
/** The helpers of the nodes this process runs, by `<jobid>.<stepid>.<nodeid>`. */
const nodes = new Map<string, NodeEntry>();
/** Helpers still shutting down, by step: client_fini waits for them (embedded mode). */
const closing = new Map<string, Promise<void>[]>();

/** Slurm's namespace name (pmixp_info.c): `slurm.pmix.<jobid>.<stepid>`. */
const nspaceOf = (jobid: number, stepid: number): string => `slurm.pmix.${jobid}.${stepid}`;

export function init(host: PluginHost): Rc {
  log = host.log;
  helperBinary = findPmixHelper();
  if (!helperBinary) throw new Error(HELPER_NOT_BUILT);
  return SLURM_SUCCESS;
}

export async function p_mpi_hook_client_prelaunch(job: MpiClientInfo, env: StepEnv): Promise<PmixClientState> {
  const step = `${job.jobid}.${job.stepid}`;
  const layout = job.step_layout;
  // Slurm's mpi/pmix client sets it too (PMIXP_SLURM_MAPPING_ENV), in PMI_process_mapping's form.
  env.set('SLURM_PMIX_MAPPING_SERV', pmiProcessMapping({ distribution: layout.task_dist, tasksPerNode: layout.tasks, tids: layout.tids }));
  const coordinator = new KvsCoordinator({
    pmiJobId: nspaceOf(job.jobid, job.stepid),
    tasksPerNode: layout.tasks,
    nodeNames: layout.node_names,
    width: DEFAULT_TREE_WIDTH,
    kvs: [],
    fail: (message) => job.abort_step(`mpi/pmix: ${message}`, true),
  });
  // One node runs every task: it never connects to tsrun, so no port (nor secret) on the way to
  // the launch, and no node:crypto either (newStepKey reads the kernel's random bytes).
  if (wholeTreeOnOneNode(layout.tasks)) return { step, coordinator, listener: undefined };
  const key = newStepKey();
  const listener = await listenForNodes(coordinator, key);
  env.set(SRUN_PORT_ENV, String(listener.port));
  env.set(SRUN_KEY_ENV, key);
  return { step, coordinator, listener };
}

export async function p_mpi_hook_slurmstepd_prefork(step: MpiStepInfo, env: StepEnv): Promise<Rc> {
  const port = Number(env.get(SRUN_PORT_ENV));
  const secret = env.get(SRUN_KEY_ENV);
  env.unset(SRUN_PORT_ENV);
  env.unset(SRUN_KEY_ENV);
  if (step.ltasks === 0) return SLURM_SUCCESS;
  const stepKey = `${step.jobid}.${step.stepid}`;
  const layout = step.step_layout;
  const alone = wholeTreeOnOneNode(layout.tasks);
  if (!alone && (!Number.isInteger(port) || port <= 0 || !secret)) {
    log?.error(`mpi/pmix: unable to find tsrun's PMIx port in env (${SRUN_PORT_ENV})`);
    return SLURM_ERROR;
  }
  let helper: PmixHelper | undefined;
  const place = treePlace(layout.tasks, step.nodeid, DEFAULT_TREE_WIDTH);
  const makeMember = (up: (message: PmiUp) => void): PmixFenceMember =>
    new PmixFenceMember({
      nodeid: step.nodeid,
      place,
      nodeNames: layout.node_names,
      up,
      fenceDone: (seq, blobs) => helper?.fenceDone(seq, blobs),
      fail: (message) => step.abort_step(`mpi/pmix: ${message}`, true),
    });
  let links: NodeEntry['links'];
  try {
    links = alone
      ? wholeTree(makeMember)
      : await joinTree({ host: env.get('SLURM_LAUNCH_NODE_IPADDR') ?? '127.0.0.1', port, key: secret!, nodeid: step.nodeid, place, makeServer: makeMember });
  } catch (error) {
    log?.error(`mpi/pmix: ${step.node_name} cannot reach the fence tree of step ${stepKey}: ${(error as Error).message}`);
    return SLURM_ERROR;
  }
  const member = links.server;
  const dir = mkdtempSync(path.join(tmpdir(), `tslurm-pmix-${stepKey}.${step.nodeid}-`));
  const connected = new Set<number>();
  const finalized = new Set<number>();
  let aborted = false;
  try {
    helper = await PmixHelper.start(helperBinary!, dir, step.node_name, {
      fence: (seq, hex) => member.fence(seq, hex),
      connected: (rank) => connected.add(rank),
      finalized: (rank) => {
        finalized.add(rank);
        member.finalized(rank);
      },
      // Slurm kills the step and adds nothing to what the MPI library printed.
      abort: (rank, status, message) => {
        aborted = true;
        step.abort_step(`mpi/pmix: task ${rank} aborted the step through PMIx (status ${status}${message ? `: ${message}` : ''})`, false);
      },
      failed: (message) => step.abort_step(`mpi/pmix: ${step.node_name}: ${message}`, true),
    });
    await helper.registerJob({ nspace: nspaceOf(step.jobid, step.stepid), nodeid: step.nodeid, nodeNames: layout.node_names, tids: layout.tids });
  } catch (error) {
    log?.error(`${step.node_name}: ${error instanceof Error ? error.message : String(error)}`);
    await helper?.close();
    member.close();
    links.close();
    rmSync(dir, { recursive: true, force: true });
    return SLURM_ERROR;
  }
  const key = `${stepKey}.${step.nodeid}`;
  // A client that ends without PMIx_Finalize leaves its peers in a fence for ever (pmi2 does
  // the same for a task that closes its PMI socket before finalize); one that never called
  // PMIx_Init is just a program that does not use PMIx.
  const taskExited = (rank: number): void => {
    setTimeout(() => {
      if (connected.has(rank) && !finalized.has(rank) && !aborted && !step.step_done.aborted) {
        step.abort_step(`mpi/pmix: task ${rank} exited without calling PMIx_Finalize`, true);
      }
    }, EXIT_GRACE_MS).unref();
  };
  nodes.set(key, { helper, links, dir, taskExited });
  step.step_done.addEventListener('abort', () => closeNode(stepKey, key), { once: true });
  return SLURM_SUCCESS;
}

// The rank's PMIx variables (PMIX_NAMESPACE, PMIX_RANK, PMIX_SERVER_URI*, ...) must be in its
// env before it is spawned, so this hook waits for the helper's answer. The task also gets a
// socket as fd 3 that it never uses: its closing is how the node learns that the task ended.
export async function p_mpi_hook_slurmstepd_task(task: MpiTaskInfo, env: StepEnv): Promise<MpiTaskLaunch | void> {
  const entry = nodes.get(`${task.jobid}.${task.stepid}.${task.nodeid}`);
  if (!entry) return;
  for (const [name, value] of await entry.helper.fork(task.gtaskid)) env.set(name, value);
  return {
    pipes: 1,
    attach: ([socket]) => {
      if (!socket) return;
      socket.on('error', () => undefined);
      socket.once('close', () => entry.taskExited(task.gtaskid));
      socket.resume();
    },
  };
}

/**
 * The node that runs every task of its step: the whole tree, no links. What it would send up
 * comes straight back down: a fence completes with this node's blob alone (a task that cannot
 * take part any more was noted by the member itself, which fails the next fence).
 */
function wholeTree(makeMember: (up: (message: PmiUp) => void) => PmixFenceMember): NodeEntry['links'] {
  const member: PmixFenceMember = makeMember((message) => {
    if (message.kind === 'fence') member.receive({ kind: 'fence-done', seq: message.seq, puts: message.puts });
  });
  return { server: member, close: () => {} };
}

export async function p_mpi_hook_client_fini(state: PmixClientState): Promise<Rc> {
  state.listener?.close();
  state.coordinator.close();
  await Promise.all(closing.get(state.step) ?? []);
  closing.delete(state.step);
  return SLURM_SUCCESS;
}

function closeNode(stepKey: string, key: string): void {
  const entry = nodes.get(key);
  if (!entry) return;
  nodes.delete(key);
  entry.links.server.close();
  entry.links.close();
  const done = entry.helper.close().finally(() => rmSync(entry.dir, { recursive: true, force: true }));
  closing.set(stepKey, [...(closing.get(stepKey) ?? []), done]);
}
