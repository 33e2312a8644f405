// mpi/pmix: Open MPI (and other PMIx clients) start under tsrun (Slurm's src/plugins/mpi/pmix).
// Each node's prefork hook starts a PMIx server helper process (native/pmix-server, libpmix) and
// registers the step's namespace with it; the task hook asks it for the rank's environment
// (PMIx_server_setup_fork) before the task is spawned. The helper's fences travel as opaque
// blobs through the same node→tsrun star as mpi/pmi2's (lib/pmi/coordinator.ts): tsrun
// concatenates every node's blob and sends the whole back to each node.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
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
import { connectCoordinator, publishCoordinator, type CoordinatorLink } from './lib/pmi/channel.js';
import { KvsCoordinator } from './lib/pmi/coordinator.js';
import { PmixHelper } from './lib/pmix/helper.js';
import { findPmixHelper, HELPER_NOT_BUILT } from './lib/pmix/helper-path.js';

export const plugin_name = 'PMIx plugin';
export const plugin_type: string = 'mpi/pmix';
export const plugin_version = SLURM_VERSION_NUMBER(0, 1, 0);

/** What tsrun keeps between prelaunch and fini. */
export interface PmixClientState {
  readonly step: string;
  readonly coordinator: KvsCoordinator;
  withdraw(): void;
}

interface NodeEntry {
  helper: PmixHelper;
  link: CoordinatorLink;
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

export function p_mpi_hook_client_prelaunch(job: MpiClientInfo, env: StepEnv): PmixClientState {
  const step = `${job.jobid}.${job.stepid}`;
  const layout = job.step_layout;
  // Slurm's mpi/pmix client sets it too (PMIXP_SLURM_MAPPING_ENV), in PMI_process_mapping's form.
  env.set('SLURM_PMIX_MAPPING_SERV', pmiProcessMapping({ distribution: layout.task_dist, tasksPerNode: layout.tasks, tids: layout.tids }));
  const coordinator = new KvsCoordinator({
    pmiJobId: nspaceOf(job.jobid, job.stepid),
    tasksPerNode: layout.tasks,
    kvs: [],
    fail: (message) => job.abort_step(`mpi/pmix: ${message}`, true),
  });
  return { step, coordinator, withdraw: publishCoordinator(step, coordinator) };
}

export async function p_mpi_hook_slurmstepd_prefork(step: MpiStepInfo, _env: StepEnv): Promise<Rc> {
  if (step.ltasks === 0) return SLURM_SUCCESS;
  const stepKey = `${step.jobid}.${step.stepid}`;
  let helper: PmixHelper | undefined;
  const link = connectCoordinator(stepKey, step.nodeid, (message) => {
    // Every node's blob, in node order: libpmix unpacks the concatenation.
    helper?.fenceDone(message.seq, message.puts.map(([, hex]) => hex));
  });
  if (!link) {
    log?.error(`no PMIx coordinator for step ${stepKey}: a node can only be served from inside tsrun`);
    return SLURM_ERROR;
  }
  const dir = mkdtempSync(path.join(tmpdir(), `tslurm-pmix-${stepKey}.${step.nodeid}-`));
  const connected = new Set<number>();
  const finalized = new Set<number>();
  let aborted = false;
  try {
    helper = await PmixHelper.start(helperBinary!, dir, step.node_name, {
      fence: (seq, hex) => link.send({ kind: 'fence', nodeid: step.nodeid, seq, puts: [[String(step.nodeid), hex]] }),
      connected: (rank) => connected.add(rank),
      finalized: (rank) => {
        finalized.add(rank);
        link.send({ kind: 'out', nodeid: step.nodeid, rank, reason: 'finalized' });
      },
      // Slurm kills the step and adds nothing to what the MPI library printed.
      abort: (rank, status, message) => {
        aborted = true;
        step.abort_step(`mpi/pmix: task ${rank} aborted the step through PMIx (status ${status}${message ? `: ${message}` : ''})`, false);
      },
      failed: (message) => step.abort_step(`mpi/pmix: ${step.node_name}: ${message}`, true),
    });
    const layout = step.step_layout;
    await helper.registerJob({ nspace: nspaceOf(step.jobid, step.stepid), nodeid: step.nodeid, nodeNames: layout.node_names, tids: layout.tids });
  } catch (error) {
    log?.error(`${step.node_name}: ${error instanceof Error ? error.message : String(error)}`);
    await helper?.close();
    link.close();
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
  nodes.set(key, { helper, link, dir, taskExited });
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

export async function p_mpi_hook_client_fini(state: PmixClientState): Promise<Rc> {
  state.withdraw();
  state.coordinator.close();
  await Promise.all(closing.get(state.step) ?? []);
  closing.delete(state.step);
  return SLURM_SUCCESS;
}

function closeNode(stepKey: string, key: string): void {
  const entry = nodes.get(key);
  if (!entry) return;
  nodes.delete(key);
  entry.link.close();
  const done = entry.helper.close().finally(() => rmSync(entry.dir, { recursive: true, force: true }));
  closing.set(stepKey, [...(closing.get(stepKey) ?? []), done]);
}
