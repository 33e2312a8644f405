// tsstepd as a node daemon (slurmd, with slurmstepd's work done in-process): listens on TCP
// for launch requests, registers its node with the controller and heartbeats, runs each step's
// share of tasks through the same launchNode the embedded mode uses and the node's batch
// scripts as its own children (batch-runner.ts), and leaves nothing behind: its reaper kills
// the tasks and scripts of every running step if the daemon itself dies.
import os from 'node:os';
import type { ClusterConfig, NodeConfig } from '../../config/types.js';
import type { Logger } from '../../core/log.js';
import { UserError } from '../../core/errors.js';
import { DEFAULT_CTLD_PORT } from '../../client/controller-target.js';
import { createPluginRegistry } from '../../plugin-host/create.js';
import { loadMessageAuth, requireNetworkAuth } from '../../net/load-auth.js';
import { formatEndpoint } from '../../net/endpoint.js';
import { RpcServer, routes, type HandlerTable } from '../../net/rpc-server.js';
import { STEPD_BODIES } from '../../protocol/stepd-messages.js';
import { MpiFacade } from '../../interfaces/mpi.js';
import { JobContainerFacade } from '../../interfaces/job-container.js';
import { loadProctrack } from '../../interfaces/proctrack-load.js';
import { startReaper } from '../reaper.js';
import type { StepdPlugins } from '../step-container.js';
import { ControllerLink } from './controller-link.js';
import { handleLaunch, type LaunchContext } from './launch-handler.js';
import { BatchRunner } from './batch-runner.js';
import { batchHandlers } from './batch-handlers.js';
import { HostPlugins } from './host-plugins.js';
import { writeBcastFile } from '../bcast-node.js';

/** Slurm's default SlurmdPort. */
export const DEFAULT_STEPD_PORT = 6818;

export interface NodeDaemonOptions {
  config: ClusterConfig;
  node: NodeConfig;
  /** Where to listen; the node's `address` in the cluster file when not given. */
  listen: { host: string; port: number } | undefined;
  /** Report this host's CPUs and memory rather than the cluster file's. */
  hardware: boolean;
  killWaitSeconds: number;
  /** Where batch steps keep their files (the job directories). */
  spoolDir: string;
  log: Logger;
  onReady?: (where: string) => void;
}

export async function runNodeDaemon(options: NodeDaemonOptions): Promise<number> {
  const { config, node, log } = options;
  if (config.control.host === undefined) {
    throw new UserError(`the cluster file (${config.source}) names no control.address for tsstepd to register with`);
  }
  const listen = options.listen ?? (node.addr !== undefined ? { host: node.addr, port: node.port ?? DEFAULT_STEPD_PORT } : undefined);
  if (!listen) throw new UserError(`node ${node.name} has no address in the cluster file; give --listen ADDR:PORT`);
  const registry = createPluginRegistry(config, log);
  const auth = await loadMessageAuth(registry, config.auth.type, log);
  requireNetworkAuth(auth);
  const reaper = startReaper(options.killWaitSeconds);
  const running = new Set<{ jobId: number; kill(): void }>();
  let link: ControllerLink | undefined;
  let server: RpcServer | undefined;
  let batch: BatchRunner | undefined;
  let hostPlugins: HostPlugins | undefined;
  try {
    const container = new JobContainerFacade(await registry.get('job_container', config.plugins.jobContainer), registry.timeoutMs);
    const proctrack = await loadProctrack(registry, config.plugins);
    const plugins = async (launch: { step: { mpiType: string } }): Promise<StepdPlugins> => ({
      mpi: new MpiFacade(await registry.get('mpi', launch.step.mpiType), registry.timeoutMs),
      container,
      proctrack,
    });
    const ctx: LaunchContext = { nodeName: node.name, auth, reaper, log, plugins, running };
    // Batch scripts run in this process, as its children, guarded by the same reaper as the tasks.
    hostPlugins = new HostPlugins(log);
    const runner = new BatchRunner({
      spool: options.spoolDir,
      plugins: (settings) => hostPlugins!.for(settings),
      guard: reaper,
      report: (body) => link!.call('batch-complete', body),
      switchUser: true,
      log,
    });
    batch = runner;
    const handlers: HandlerTable<typeof STEPD_BODIES> = {
      launch: (body, connection) => handleLaunch(body, connection.identity, ctx),
      ...batchHandlers(runner),
      bcast: async (body, connection) => {
        const identity = connection.identity;
        const user = identity ? { uid: identity.uid, gid: identity.gid } : undefined;
        return writeBcastFile({ ...body, data: Buffer.from(body.data, 'base64'), ...(user && { user }) }, container);
      },
      'job-end': async ({ jobId }) => {
        // Steps of the job still here (a tsrun that went away uncleanly) go first.
        for (const step of running) if (step.jobId === jobId) step.kill();
        await container.delete(jobId).catch((error: Error) => log.error(`job ${jobId}: ${error.message}`));
        log.verbose(`job ${jobId}: ended; its job container is deleted`);
        return {};
      },
      ping: async () => ({ node: node.name, pid: process.pid, steps: running.size }),
    };
    server = new RpcServer(routes(STEPD_BODIES, handlers), log);
    const port = await server.listenTcp(listen.host, listen.port, auth).catch((error: NodeJS.ErrnoException) => {
      throw new UserError(`cannot listen on ${formatEndpoint(listen)}: ${error.code ?? error.message}`);
    });
    const where = formatEndpoint({ host: listen.host, port });
    log.info(`node ${node.name}: listening on ${where} (${auth.type})`);
    options.onReady?.(where);
    link = new ControllerLink(
      { host: config.control.host, port: config.control.port ?? DEFAULT_CTLD_PORT },
      auth,
      () => ({
        node: node.name,
        host: advertised(listen.host, node),
        port,
        cpus: options.hardware ? os.availableParallelism() : node.cpus,
        realMemory: options.hardware ? Math.floor(os.totalmem() / 1024 / 1024) : node.realMemory,
        pid: process.pid,
        batchJobs: runner.running(),
      }),
      log,
      (answer) => answer.kill.forEach((jobId) => runner.kill(jobId, { cause: 'NODE_FAIL', at: Math.floor(Date.now() / 1000) }, false)),
    );
    runner.recover();
    const linkDone = link.run();
    await new Promise<void>((resolve) => {
      for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const) process.once(signal, () => resolve());
    });
    log.info(`node ${node.name}: shutting down`);
    link.stop();
    await linkDone;
    return 0;
  } finally {
    link?.stop();
    batch?.stop();
    // A daemon that stops takes its steps with it (they run inside it).
    for (const step of running) step.kill();
    await server?.close();
    await batch?.drain();
    await hostPlugins?.finiAll();
    await registry.finiAll();
    // The reaper SIGKILLs whatever is still tracked once this process is gone.
  }
}

/** The address the controller and tsrun are told: the listening one, unless that is a wildcard. */
function advertised(host: string, node: NodeConfig): string {
  if (host !== '0.0.0.0' && host !== '::') return host;
  return node.addr ?? os.hostname();
}
