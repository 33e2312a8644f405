// tsctld's life (DESIGN.md §2): lock the state directory, recover, serve requests on a Unix
// socket there, schedule, watch time limits, and — when started on demand by a command —
// exit once nothing has happened for a while and no job is left to look after.
import path from 'node:path';
import { UserError } from '../core/errors.js';
import type { Logger } from '../core/log.js';
import type { ClusterConfig } from '../config/types.js';
import { prepareStateDir } from '../config/state-dir.js';
import { createPluginRegistry } from '../plugin-host/create.js';
import { BatchJobs } from './batch-jobs.js';
import { Controller } from './controller.js';
import { InteractiveJobs } from './interactive-jobs.js';
import { lockStateDir } from './ctld-lock.js';
import { Scheduler } from './scheduler.js';
import { controllerHandlers } from './rpc-handlers.js';
import { RpcServer, type Route } from '../net/rpc-server.js';
import { RpcStats } from '../net/rpc-stats.js';
import { schedulePass } from './schedule.js';
import { NodeDaemons } from './node-daemons.js';
import { LocalStepHost } from './local-step-host.js';
import { loadMessageAuth, requireNetworkAuth } from '../net/load-auth.js';
import { formatEndpoint } from '../net/endpoint.js';
import { DEFAULT_CTLD_PORT } from '../client/controller-target.js';
import type { PluginRegistry } from '../plugin-host/registry.js';
import type { MessageAuth } from '../net/message-auth.js';
import { loadJobcomp, logJobCompletion } from './jobcomp-log.js';
import type { LateAccounting } from './accounting/accounting.js';

export interface DaemonOptions {
  config: ClusterConfig;
  stateDir: string;
  log: Logger;
  /** Exit after this many idle seconds; 0: never. */
  idleExitSeconds: number;
  minuteSeconds: number;
  killWaitSeconds: number;
  minJobAge: number;
  /** Called once the socket accepts requests. */
  onReady?: (socketPath: string) => void;
}

export function controllerSocketPath(stateDir: string): string {
  return path.join(stateDir, 'tsctld.sock');
}

/** Runs the controller until it is told to stop (SIGTERM, SIGINT) or goes idle. */
export async function runDaemon(options: DaemonOptions): Promise<number> {
  const { config, stateDir, log } = options;
  prepareStateDir(stateDir);
  const lock = lockStateDir(stateDir);
  const registry = createPluginRegistry(config, log);
  let server: RpcServer | undefined;
  let ctl: Controller | undefined;
  let local: LocalStepHost | undefined;
  let accounting: LateAccounting | undefined;
  const timers: NodeJS.Timeout[] = [];
  let stopping: (() => void) | undefined;
  const stopped = new Promise<void>((resolve) => (stopping = resolve));
  try {
    // The controller's TCP side (`control.address`) needs the auth plugin: loaded first, so a
    // bad key stops the controller before it touches a job.
    const auth = config.control.host !== undefined ? await networkAuth(registry, config, log) : undefined;
    // Job completion logging (JobCompType) and the accounting store (tsacct), which only the
    // daemon has: SQLite is no part of the controller core (nor of a simulation). The store is
    // opened once no request is in flight (startAccounting), so the first command's answer
    // never waits for SQLite; what happens until then is kept and written when it opens.
    const jobcomp = await loadJobcomp(registry, config, log);
    const opened = await Controller.open(
      { ...options, registry },
      { jobcomp, openAccounting: async (c) => (accounting = new (await import('./accounting/accounting.js')).LateAccounting(c)) },
    );
    ctl = opened.ctl;
    for (const problem of opened.problems) log.error(problem);
    ctl.onJobFinished((job) => logJobCompletion(jobcomp, ctl!, job));
    // The batch jobs and the node daemons need each other (a batch step runs on a node's
    // daemon; a node set DOWN ends its jobs): the daemons reach the jobs through `batch`,
    // bound once it exists, as the scheduler's pass does.
    const scheduler = new Scheduler((signal) => schedulePass(ctl!, batch, signal), log);
    const interactive = new InteractiveJobs(ctl, scheduler);
    const daemons = new NodeDaemons(ctl, { cancel: (job, cause) => batch.cancel(job, cause), requeueable: (job) => batch.requeueable(job) }, () => scheduler.kick(), auth);
    local = new LocalStepHost(stateDir, config.source.startsWith('/') ? config.source : undefined, log);
    const batch: BatchJobs = new BatchJobs(ctl, interactive, daemons, local, () => scheduler.kick());
    await batch.recover();
    const rpcStats = new RpcStats();
    const handlers = controllerHandlers({ ctl, batch, interactive, daemons, scheduler, shutdown: () => stopping?.(), rpcStats });
    const startAccounting = (): void => void accounting?.open();
    server = new RpcServer(whenAllAnswered(handlers, startAccounting), log, undefined, rpcStats);
    const socketPath = controllerSocketPath(stateDir);
    await server.listen(socketPath);
    log.info(`tsctld ${process.pid} serving cluster ${config.clusterName} on ${socketPath}`);
    const remote = auth !== undefined ? await listenTcp(server, config, auth, log) : undefined;
    options.onReady?.(remote ?? socketPath);
    scheduler.kick();
    // A command that holds its request open (tsalloc) or none at all: the store opens anyway.
    timers.push(setTimeout(startAccounting, ACCOUNTING_OPEN_LATEST_MS));

    let ticking = false;
    timers.push(
      setInterval(() => {
        if (ticking) return;
        ticking = true;
        ctl!
          .retryJournal()
          .then(() => batch.tick())
          .then(() => daemons.tick())
          .then(() => scheduler.kick())
          .catch((error: Error) => log.error(`tick: ${error.stack ?? error.message}`))
          .finally(() => (ticking = false));
        if (options.idleExitSeconds > 0 && isIdle(ctl!, server!, options.idleExitSeconds)) {
          log.info(`idle for ${options.idleExitSeconds} s with no job to look after; exiting`);
          stopping?.();
        }
      }, 1000),
    );
    for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const) process.on(signal, () => stopping?.());
    await stopped;
    await scheduler.idle();
    await batch.launched();
    return 0;
  } finally {
    timers.forEach(clearInterval);
    await server?.close();
    local?.close();
    if (ctl) {
      await ctl.saveSnapshot().catch((error: Error) => log.error(`state save failed: ${error.message}`));
      ctl.store.close();
      // What a short life kept for the store is written before it closes.
      await accounting?.open();
      ctl.accounting?.close();
      // The job completion records offered so far are written before the plugin's fini.
      await ctl.jobcomp?.drain();
    }
    await registry.finiAll();
    lock.release();
  }
}

/** How long after ready the accounting store opens at the latest. */
const ACCOUNTING_OPEN_LATEST_MS = 1000;

/**
 * The routes, calling `idle` each time no request is left in flight, after the answer went out
 * (setImmediate: the server writes it in the microtasks that follow the handler).
 */
function whenAllAnswered(routes: ReadonlyMap<string, Route>, idle: () => void): Map<string, Route> {
  let inFlight = 0;
  const counted = ({ body, handle }: Route): Route => ({
    body,
    handle: async (request, connection) => {
      inFlight++;
      try {
        return await handle(request, connection);
      } finally {
        if (--inFlight === 0) setImmediate(idle);
      }
    },
  });
  return new Map([...routes].map(([op, route]) => [op, counted(route)]));
}

/** The auth plugin that seals the controller's TCP traffic; auth/none is refused there. */
async function networkAuth(registry: PluginRegistry, config: ClusterConfig, log: Logger): Promise<MessageAuth> {
  const auth = await loadMessageAuth(registry, config.auth.type, log);
  requireNetworkAuth(auth);
  return auth;
}

/** The controller's TCP address (`control.address`), where node daemons and remote commands reach it. */
async function listenTcp(server: RpcServer, config: ClusterConfig, auth: MessageAuth, log: Logger): Promise<string> {
  const host = config.control.host!;
  const port = await server.listenTcp(host, config.control.port ?? DEFAULT_CTLD_PORT, auth).catch((error: NodeJS.ErrnoException) => {
    throw new UserError(`cannot listen on ${config.control.address}: ${error.code ?? error.message}`);
  });
  const where = formatEndpoint({ host, port });
  log.info(`listening on ${where} (${auth.type})`);
  return where;
}

// No job to look after, nobody connected but watchers (tsrestd's dashboard), and no request
// but theirs for `seconds`: an idle cluster watched through tsrestd still lets go of its controller.
function isIdle(ctl: Controller, server: RpcServer, seconds: number): boolean {
  return ctl.activeCount === 0 && server.busyConnections === 0 && Date.now() - server.lastActive >= seconds * 1000;
}
