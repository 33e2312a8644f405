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
import { controllerHandlers } from './rpc-handlers.js';
import { RpcServer } from '../net/rpc-server.js';
import { schedulePass } from './schedule.js';
import { NodeDaemons } from './node-daemons.js';
import { loadMessageAuth, requireNetworkAuth } from '../net/load-auth.js';
import { formatEndpoint } from '../net/endpoint.js';
import { DEFAULT_CTLD_PORT } from '../client/controller-target.js';
import type { PluginRegistry } from '../plugin-host/registry.js';

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
  const timers: NodeJS.Timeout[] = [];
  let stopping: (() => void) | undefined;
  const stopped = new Promise<void>((resolve) => (stopping = resolve));
  try {
    ctl = new Controller({ ...options, registry });
    for (const problem of await ctl.start()) log.error(problem);
    const scheduler = new Scheduler(ctl, log);
    const batch = new BatchJobs(ctl, () => scheduler.kick());
    scheduler.launcher = batch;
    batch.interactive = new InteractiveJobs(ctl, batch, scheduler);
    batch.daemons = new NodeDaemons(ctl, batch, () => scheduler.kick());
    await batch.recover();
    server = new RpcServer(controllerHandlers(ctl, batch, scheduler, () => stopping?.()), log);
    const socketPath = controllerSocketPath(stateDir);
    await server.listen(socketPath);
    log.info(`tsctld ${process.pid} serving cluster ${config.clusterName} on ${socketPath}`);
    const remote = config.control.host !== undefined ? await listenTcp(server, config, registry, log, batch.daemons) : undefined;
    options.onReady?.(remote ?? socketPath);
    scheduler.kick();

    let ticking = false;
    timers.push(
      setInterval(() => {
        if (ticking) return;
        ticking = true;
        ctl!
          .retryJournal()
          .then(() => batch.tick())
          .then(() => batch.daemons!.tick())
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
    return 0;
  } finally {
    timers.forEach(clearInterval);
    await server?.close();
    if (ctl) {
      if (ctl.select) await ctl.saveSnapshot().catch((error: Error) => log.error(`state save failed: ${error.message}`));
      ctl.store.close();
    }
    await registry.finiAll();
    lock.release();
  }
}

/** The controller's TCP address (`control.address`), where node daemons and remote commands reach it. */
async function listenTcp(server: RpcServer, config: ClusterConfig, registry: PluginRegistry, log: Logger, daemons: NodeDaemons): Promise<string> {
  const auth = await loadMessageAuth(registry, config.auth.type, log);
  requireNetworkAuth(auth);
  daemons.auth = auth;
  const host = config.control.host!;
  const port = await server.listenTcp(host, config.control.port ?? DEFAULT_CTLD_PORT, auth).catch((error: NodeJS.ErrnoException) => {
    throw new UserError(`cannot listen on ${config.control.address}: ${error.code ?? error.message}`);
  });
  const where = formatEndpoint({ host, port });
  log.info(`listening on ${where} (${auth.type})`);
  return where;
}

function isIdle(ctl: Controller, server: RpcServer, seconds: number): boolean {
  return ctl.activeCount === 0 && server.connections === 0 && Date.now() - server.lastActive >= seconds * 1000;
}

/** Runs scheduling passes one at a time; a kick during a pass asks for one more after it. */
export class Scheduler {
  launcher!: BatchJobs;
  private running: Promise<void> | undefined;
  private again = false;
  private readonly abort = new AbortController();

  constructor(
    private readonly ctl: Controller,
    private readonly log: Logger,
  ) {}

  kick(): void {
    this.again = true;
    this.running ??= this.loop();
  }

  /** Kicks a pass and resolves once no pass is running or due (the new job has been seen). */
  async settle(): Promise<void> {
    this.kick();
    while (this.running) await this.running;
  }

  async idle(): Promise<void> {
    this.abort.abort();
    await this.running;
  }

  private async loop(): Promise<void> {
    await new Promise((resolve) => setImmediate(resolve));
    while (this.again && !this.abort.signal.aborted) {
      this.again = false;
      try {
        await schedulePass(this.ctl, this.launcher, this.abort.signal);
      } catch (error) {
        this.log.error(`schedule: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
      }
    }
    this.running = undefined;
  }
}
