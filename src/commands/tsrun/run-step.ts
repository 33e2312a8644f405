// tsrun's work (DESIGN.md §3): mpi plugin, allocation (or the enclosing one), step layout,
// the mpi client hook, every node's tasks through its step host (the state directory's
// embedded one, connected to while the controller allocates, or the nodes' daemons), output,
// and Slurm's exit status. Hooks run in Slurm's order and client_fini runs even when the step
// failed.
import os from 'node:os';
import { compressHostlist, expandHostlist } from '../../core/hostlist.js';
import { compressCounts } from '../../core/tasks-per-node.js';
import { formatSlurmDate } from '../../core/time-string.js';
import { createLogger, levelFromVerbosity, type Logger } from '../../core/log.js';
import { PluginError, UserError } from '../../core/errors.js';
import { createStepLayout, type StepLayout } from '../../core/step-layout.js';
import { formatDistribution } from '../../core/task-dist.js';
import { loadCluster } from '../../config/load.js';
import { resolveStateDir } from '../../config/state-dir.js';
import { killWaitSeconds } from '../../config/kill-wait.js';
import { confTaskScripts } from '../../config/task-scripts.js';
import { acctGatherSeconds } from '../../config/acct-gather.js';
import { createPluginRegistry } from '../../plugin-host/create.js';
import type { PluginRegistry } from '../../plugin-host/registry.js';
import { MpiFacade } from '../../interfaces/mpi.js';
import { stepEnvOver } from '../../stepd/step-env.js';
import type { StepFacts } from '../../stepd/launch-spec.js';
import { exportedEnv } from './export-env.js';
import { cpuBindEnv, RLIMITS } from './step-options.js';
import { softLimits } from '../../os/rlimits.js';
import { envArrayOverwrite } from '../../core/env-array.js';
import { resolveAllocation } from './allocation-source.js';
import type { StepAllocation } from './step-allocation.js';
import type { RemoteNodes, StepResult } from './launch-step.js';
import { CtldClient } from '../../client/ctld-client.js';
// Not with the launch's modules below: the connection to the step host is made first in the
// turn after the request, before their set-up.
import { connectStepHost } from '../../client/start-step-host.js';
import { LOOPBACK, type StepHostLink } from './local-nodes.js';
import type { IoPort } from './node-hosts.js';
import { localAuth } from '../../net/local-auth.js';
import { workingCluster } from '../../config/working-cluster.js';
import type { NodeAddress } from '../../protocol/node-messages.js';
import { DEFAULT_TREE_WIDTH, type ClusterConfig } from '../../config/types.js';
import type { StepRequest } from './request.js';

// What only the launch needs (launch-step.js and its I/O modules, the I/O port's, srun's
// prolog) is imported once the allocation request is on its way, so
// that its module set-up (and Node's child_process, cluster and dns behind it) runs while the
// controller allocates, not before the request.
const launchModules = (): Promise<typeof import('./launch-step.js')> => import('./launch-step.js');

export interface RunContext {
  bin: string;
  cluster: string | undefined;
  verbose: number;
  quiet: boolean;
}

export async function runStep(given: StepRequest, ctx: RunContext): Promise<number> {
  let req = given;
  const log = createLogger(ctx.bin, levelFromVerbosity(ctx.verbose, ctx.quiet));
  const config = await loadCluster({ file: ctx.cluster });
  const registry = createPluginRegistry(config, log);
  try {
    const mpi = await loadMpi(registry, req.mpi ?? config.plugins.mpiDefault);
    const stateDir = resolveStateDir(config);
    // While the controller allocates, tsrun reaches its local step host (starting it when none
    // serves), opens the loopback I/O port the host will connect to (a few ms of CPU) and reads
    // what the launch takes from this process and host, once the request is on its way: the
    // request is written in the microtasks that follow the call, the rest in the next turn, so
    // none of it comes before the request. A controller that has to be started first starts
    // with the step host beside it.
    const opensPortEarly = !req.testOnly && config.control.host === undefined;
    const stepHost = req.testOnly ? undefined : stepHostLink(stateDir, config);
    let localIoPort: Promise<IoPort> | undefined;
    let hereRead: SubmitSide | undefined;
    const here = (): SubmitSide => (hereRead ??= submitSide(req));
    let prepared = false;
    const prepare = (): void => {
      if (prepared) return;
      prepared = true;
      const turn = new Promise((resolve) => setImmediate(resolve));
      if (stepHost) void turn.then(() => stepHost.connectEarly());
      if (opensPortEarly) {
        localIoPort = turn.then(() => import('./node-hosts.js')).then(({ openIoPort }) => openIoPort(LOOPBACK, localAuth));
        localIoPort.catch(() => {}); // a failure is the launch's, if it comes to one
      }
      void turn.then(launchModules).catch(() => {}); // a failure is the launch's
      // A failure (no passwd entry for the uid) is the launch's, read again there.
      if (!req.testOnly) turn.then(here).catch(() => {});
    };
    const allocating = resolveAllocation(req, config, log, stateDir, prepare);
    let alloc: StepAllocation;
    try {
      alloc = await allocating;
    } catch (error) {
      void stepHost?.client.then((client) => client.close(), () => {});
      void localIoPort?.then((port) => port.close(), () => {});
      throw error;
    }
    // What the job ends with when the step could not run (slurmstepd's failure to launch).
    let waitStatus = 1 << 8;
    let usage: StepResult['usage'];
    try {
      if (req.testOnly) return reportTestOnly(alloc, log);
      const pty = req.pty ? await terminalSize(log) : undefined;
      // srun --pty: only task 0 is heard, and it alone reads the terminal (srun(1)).
      if (pty) req = { ...req, output: req.output ?? '0', error: req.error ?? '0', input: req.input ?? '0', unbuffered: true };
      const layout = layoutFor(req, alloc);
      if (req.slurmdDebug !== undefined && req.slurmdDebug > MAX_SLURMD_DEBUG) log.info(`Using srun's max debug increment of ${MAX_SLURMD_DEBUG}`);
      const facts = stepFacts(req, alloc, layout, mpi, config, here());
      if (pty) facts.pty = pty;
      const ids = { jobId: alloc.jobId, stepId: alloc.stepId };
      const srunScripts = req.prolog !== undefined || req.epilog !== undefined ? await import('./srun-prolog.js') : undefined;
      if (req.prolog !== undefined && !srunScripts!.runSrunProlog(req.prolog, ids, log)) return 1;
      // The job ends with its only step when tsrun created it (DESIGN.md §3 step 7): the step
      // hosts delete the job's container then; a step of an enclosing job leaves it to the job's end.
      const result = await runWithMpi(req, alloc, layout, facts, mpi, { link: stepHost!, ioPort: localIoPort }, log, config);
      if (req.epilog !== undefined) srunScripts!.runSrunEpilog(req.epilog, ids, log);
      waitStatus = result.waitStatus;
      usage = result.usage;
      return result.exitCode;
    } finally {
      // Closed by the launch; here when there was none (the step could not run).
      void localIoPort?.then((port) => port.close(), () => {});
      // The controller hears of a lost node before the step's end, so the job ends NODE_FAIL.
      await settledWithin(nodeReports, NODE_REPORT_WAIT_MS);
      await alloc.release(req.testOnly ? 0 : waitStatus, usage);
    }
  } finally {
    await registry.finiAll();
  }
}

/**
 * The state directory's step host: connected to early (connectEarly, while the controller
 * allocates), and told so (a request keeps a host in its idle wait from going meanwhile), for
 * a cluster without a TCP controller; on first use for daemon mode, where only nodes without a
 * daemon need it.
 */
function stepHostLink(stateDir: string, config: ClusterConfig): StepHostLink & { connectEarly(): void } {
  const clusterFile = config.source.startsWith('/') ? config.source : undefined;
  let pid: number | undefined;
  const connect = async (): Promise<CtldClient> => {
    const client = await connectStepHost(stateDir, clusterFile);
    // Its answer (the host's pid) is not waited for: the launch follows the ping on the same
    // connection, and the host answers them in order, so the pid is known by the launch's
    // answer; waiting put the ping's round trip between the allocation's answer and the launch
    // whenever the connection was made late (a loaded machine).
    void client.call<{ pid?: number }>('ping').then(
      (answer) => {
        if (answer?.pid !== undefined) pid = answer.pid;
      },
      () => {},
    );
    return client;
  };
  let early: Promise<CtldClient> | undefined;
  return {
    connectEarly() {
      if (config.control.host !== undefined || early) return;
      early = connect();
      early.catch(() => {});
    },
    get client() {
      return (early ??= connect());
    },
    reconnect: connect,
    get pid() {
      return pid;
    },
  };
}

/**
 * The step host lost under the step (its connections to tsrun closed): the controller is told,
 * naming the host's pid, and ends the job NODE_FAIL once that host is gone (ctld/step-host-loss.ts);
 * told before the step's end, as a lost daemon's node is.
 */
function hostLossReport(alloc: StepAllocation, stepHost: StepHostLink, log: Logger): () => void {
  let told = false;
  return () => {
    const target = alloc.controller;
    const pid = stepHost.pid;
    if (told || target === undefined || pid === undefined) return;
    told = true;
    log.verbose(`the step host (pid ${pid}) is lost; telling the controller`);
    const report = CtldClient.open(target)
      .then((c) => c.call('step-host-lost', { jobId: alloc.jobId, pid }).finally(() => c.close()))
      .catch(() => {});
    nodeReports.push(report);
  };
}

/**
 * The terminal task 0 of a --pty step gets: tsrun's own size. Without a terminal on stdout srun
 * says so in two lines and runs the step without one (observed); without the helper, no pty.
 */
async function terminalSize(log: Logger): Promise<{ rows: number; cols: number } | undefined> {
  if (!process.stdout.isTTY) {
    log.error('ioctl(TIOCGWINSZ): Inappropriate ioctl for device');
    log.error('Not using a pseudo-terminal, disregarding --pty option');
    return undefined;
  }
  const { ptyHelper } = await import('../../stepd/pty-helper.js');
  if (ptyHelper() === undefined) {
    throw new UserError('--pty needs the pty helper dist/native/tspty, which was not built (no C compiler when tslurm was built)');
  }
  return { rows: process.stdout.rows || 24, cols: process.stdout.columns || 80 };
}

/** --mpi=TYPE (or the cluster's mpi_default); an unknown type gets srun's message. */
async function loadMpi(registry: PluginRegistry, type: string): Promise<MpiFacade> {
  try {
    return new MpiFacade(await registry.get('mpi', type), registry.timeoutMs);
  } catch (error) {
    if (error instanceof PluginError && error.code === 'ESLURM_PLUGIN_NOTFOUND') {
      registry.log.error(error.message);
      throw new UserError(`Invalid MPI type '${type.replace(/^mpi\//, '')}', --mpi=list for acceptable types`);
    }
    throw error;
  }
}

function reportTestOnly(alloc: StepAllocation, log: Logger): number {
  const when = formatSlurmDate(alloc.startTime ?? Math.floor(Date.now() / 1000));
  const cpus = alloc.cpusPerNode.reduce((a, b) => a + b, 0);
  log.info(`Job ${alloc.jobId} to start at ${when} using ${cpus} processors on nodes ${compressHostlist(alloc.nodeNames)} in partition ${alloc.partition}`);
  return 0;
}

function layoutFor(req: StepRequest, alloc: StepAllocation): StepLayout {
  const ntasks = req.ntasks ?? (req.ntasksPerNode ?? 1) * (req.minNodes ?? alloc.nodeNames.length);
  return createStepLayout({
    nodes: alloc.nodeNames,
    cpus: alloc.cpusPerNode,
    ntasks,
    cpusPerTask: req.cpusPerTask,
    ntasksPerNode: req.ntasksPerNode,
    distribution: req.distribution,
    overcommit: req.overcommit,
    arbitraryNodes: req.distribution?.node === 'arbitrary' && req.nodelist ? expandHostlist(req.nodelist) : undefined,
    jobId: alloc.jobId,
  });
}

/** What a step's facts take from this process and host, whatever the allocation (read while the controller allocates). */
interface SubmitSide {
  user: os.UserInfo<string>;
  host: string;
  cwd: string;
  umask: string;
  rlimits: string[];
  prio: number;
}

function submitSide(req: StepRequest): SubmitSide {
  return {
    user: os.userInfo(),
    host: os.hostname().split('.')[0]!,
    cwd: process.cwd(),
    umask: umaskString(),
    rlimits: softLimits(req.propagate ?? RLIMITS),
    prio: os.getPriority(),
  };
}

function stepFacts(req: StepRequest, alloc: StepAllocation, layout: StepLayout, mpi: MpiFacade, config: ClusterConfig, here: SubmitSide): StepFacts {
  const clusterName = config.clusterName;
  const user = here.user;
  return {
    jobId: alloc.jobId,
    stepId: alloc.stepId,
    jobName: alloc.jobName,
    partition: alloc.partition,
    clusterName,
    nodeNames: layout.nodes,
    tasksPerNode: layout.tasksPerNode,
    tids: layout.tids,
    ntasks: layout.nodeOfTask.length,
    jobNodelist: compressHostlist(alloc.job?.nodeNames ?? alloc.nodeNames),
    jobCpusPerNode: compressCounts(alloc.job?.cpusPerNode ?? alloc.cpusPerNode),
    jobNumNodes: (alloc.job?.nodeNames ?? alloc.nodeNames).length,
    cpusPerTask: req.cpusPerTaskGiven ? req.cpusPerTask : undefined,
    distribution: req.distribution ? formatDistribution(req.distribution) : undefined,
    taskDist: layout.distribution,
    mpiType: mpi.minor,
    submitDir: here.cwd,
    submitHost: here.host,
    launchNodeAddr: '127.0.0.1',
    umask: here.umask,
    rlimits: here.rlimits,
    // The step daemon's stderr level: error (2) raised by the increment.
    ...(req.slurmdDebug !== undefined && { slurmdDebug: 2 + Math.min(req.slurmdDebug, MAX_SLURMD_DEBUG) }),
    prioProcess: here.prio,
    label: req.label,
    timeLimit: alloc.timeLimit,
    // The built-in cluster has no file to name.
    ...(config.source.startsWith('/') && { confFile: config.source }),
    insideJob: !alloc.ownJob,
    jobUid: req.runAs?.uid ?? user.uid,
    jobGid: req.runAs?.gid ?? user.gid,
    jobUser: req.runAs?.name ?? user.username,
    // Inside an allocation the job's own (salloc's, sbatch's) are in the inherited environment.
    ...(alloc.ownJob && req.extras.account !== undefined && { account: req.extras.account }),
    ...(alloc.ownJob && req.extras.qos !== undefined && { qos: req.extras.qos }),
    ...(req.taskProlog !== undefined && { taskProlog: req.taskProlog }),
    ...(req.taskEpilog !== undefined && { taskEpilog: req.taskEpilog }),
    ...confTaskScripts(config),
    workingCluster: workingCluster(config),
    // tsrun's I/O port, set once it listens (node-hosts.ts).
    srunPort: 0,
    acctGatherFrequency: acctGatherSeconds(config),
  };
}


/** Reports of lost nodes on their way to the controller (this process runs one step). */
const nodeReports: Array<Promise<unknown>> = [];
const NODE_REPORT_WAIT_MS = 5000;

function settledWithin(pending: ReadonlyArray<Promise<unknown>>, ms: number): Promise<unknown> {
  if (pending.length === 0) return Promise.resolve();
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise((resolve) => (timer = setTimeout(resolve, ms)));
  return Promise.race([Promise.allSettled(pending), late]).finally(() => clearTimeout(timer));
}

/** srun's cap on --slurmd-debug. */
const MAX_SLURMD_DEBUG = 4;

function umaskString(): string {
  const mask = process.umask();
  return `0${mask.toString(8).padStart(3, '0')}`;
}

async function runWithMpi(
  req: StepRequest,
  alloc: StepAllocation,
  layout: StepLayout,
  facts: StepFacts,
  mpi: MpiFacade,
  stepHost: { link: StepHostLink; ioPort: Promise<IoPort> | undefined },
  log: Logger,
  config: ClusterConfig,
): Promise<StepResult> {
  const remote = await remoteNodes(alloc, layout.nodes, log);
  // Nodes elsewhere reach tsrun (its PMI and I/O ports) by the address it reached them by.
  if (remote) facts.launchNodeAddr = remote.launchAddr;
  const env = exportedEnv(req.export, process.env);
  // srun's --cpu-bind variables reach every task (SLURM_* pass any --export).
  if (req.cpuBind) for (const [name, value] of Object.entries(cpuBindEnv(req.cpuBind))) envArrayOverwrite(env, name, value);
  const { launchStep, StepAbort } = await launchModules();
  const abort = new StepAbort();
  const state = await mpi.clientPrelaunch(
    {
      jobid: facts.jobId,
      stepid: facts.stepId,
      step_layout: {
        node_cnt: facts.nodeNames.length,
        node_list: compressHostlist(facts.nodeNames),
        node_names: facts.nodeNames,
        task_cnt: facts.ntasks,
        tasks: facts.tasksPerNode,
        tids: facts.tids,
        task_dist: facts.taskDist,
      },
      abort_step: (message, error) => abort.request(message, error === true),
    },
    stepEnvOver(env),
  );
  let failure: unknown;
  let status: StepResult = { exitCode: 0, waitStatus: 0 };
  // --pty: keys go to the task's terminal as typed (Ctrl-C too), as srun sets its own raw.
  const raw = facts.pty !== undefined && process.stdin.isTTY;
  if (raw) process.stdin.setRawMode(true);
  try {
    status = await launchStep({
      req,
      alloc,
      layout,
      facts,
      env,
      plugins: { clusterName: config.clusterName, plugins: config.plugins, options: config.options },
      log,
      abort,
      killWaitSeconds: killWaitSeconds(config),
      stepHost: stepHost.link,
      localIoPort: stepHost.ioPort,
      onHostLost: hostLossReport(alloc, stepHost.link, log),
      endsJob: alloc.ownJob,
      treeWidth: config.control.treeWidth ?? DEFAULT_TREE_WIDTH,
      ...(remote && { remote }),
    });
  } catch (error) {
    failure = error;
  } finally {
    if (raw) process.stdin.setRawMode(false);
  }
  // p_mpi_hook_client_fini runs after every task ended, also after a failure.
  try {
    await mpi.clientFini(state);
  } catch (error) {
    failure ??= error;
  }
  if (failure !== undefined) throw failure;
  return status;
}

/**
 * In daemon mode (a TCP controller), where each node's daemon listens, as the controller knows
 * it; nodes without a daemon are emulated on the local step host.
 */
async function remoteNodes(alloc: StepAllocation, nodes: readonly string[], log: Logger): Promise<(RemoteNodes & { launchAddr: string }) | undefined> {
  const target = alloc.controller;
  if (target === undefined || typeof target === 'string') return undefined;
  const client = await CtldClient.open(target);
  try {
    const addresses = await client.call<Array<NodeAddress | null>>('node-addresses', { names: [...nodes] });
    if (addresses.every((a) => a === null)) return undefined;
    return {
      launchAddr: client.localAddress ?? '127.0.0.1',
      addresses,
      auth: target.auth,
      onNodeLost: (node) => {
        log.verbose(`node ${node} lost; telling the controller`);
        const told = CtldClient.open(target)
          .then((c) => c.call('node-unreachable', { node }).finally(() => c.close()))
          .catch(() => {});
        nodeReports.push(told);
      },
    };
  } finally {
    client.close();
  }
}
