// The embedded step host (DESIGN.md §2): `tsstepd --embedded`, one process serving every
// emulated node of a cluster whose controller runs on this host. The controller starts it on
// demand (ctld/local-step-host.ts), and so does tsrun (client/step-host.ts); it listens on a
// Unix socket in the state directory, runs the batch scripts as its children with the node
// daemon's code (batch-runner.ts), reports their ends to the controller's socket (kept on
// disk, and retried while no controller listens), and outlives a killed controller. It runs
// the tasks of every step on emulated nodes as its children too, launched by tsrun with the
// node daemon's `launch` request (local-launch.ts), their I/O on a connection per node back
// to tsrun; a step whose tsrun went away is ended; and tsbcast's file for the emulated nodes,
// written once in the job's container. It exits once no script and no step has
// run for a while; a result still undelivered then stays on disk, where the next controller
// (or host) finds it. Killed, it takes its scripts and tasks with it (its guard, reaper.ts).
import path from 'node:path';
import { UserError } from '../../core/errors.js';
import type { Logger } from '../../core/log.js';
import { prepareStateDir } from '../../config/state-dir.js';
import { tryLockFile, type HeldLock } from '../../os/lock-file.js';
import { isStepHost, localHostPaths } from './local-host-paths.js';
import { RpcServer, routes, type HandlerTable } from '../../net/rpc-server.js';
import { STEPD_BODIES } from '../../protocol/stepd-messages.js';
import { ConnectionLost, ControllerError, CtldClient } from '../../client/ctld-client.js';
import { startReaper } from '../reaper.js';
import { BatchRunner, type BatchReport } from './batch-runner.js';
import { batchHandlers } from './batch-handlers.js';
import { HostPlugins } from './host-plugins.js';
import { handleLocalLaunch } from './local-launch.js';
import type { StepRunnerContext } from './step-runner.js';
import { localAuth } from '../../net/local-auth.js';

export interface LocalHostOptions {
  stateDir: string;
  killWaitSeconds: number;
  /** Exit after this many seconds with no batch step and no request; 0: never. */
  idleExitSeconds: number;
  log: Logger;
  /** Called once the socket takes requests; `raced` when another host holds the state directory. */
  onReady: (outcome: 'ready' | 'raced') => void;
}

export async function runLocalStepHost(options: LocalHostOptions): Promise<number> {
  const { stateDir, log } = options;
  prepareStateDir(stateDir);
  const paths = localHostPaths(stateDir);
  const attempt = tryLockFile(paths.pidFile, isStepHost);
  if (!('lock' in attempt)) {
    // Another command's controller started one a moment earlier: that one serves.
    options.onReady('raced');
    if (attempt.holder !== undefined) log.info(`another step host (pid ${attempt.holder}) serves ${stateDir}`);
    return 0;
  }
  const lock: HeldLock = attempt.lock;
  const guard = startReaper(options.killWaitSeconds);
  const plugins = new HostPlugins(log);
  const reports = new ControllerReports(path.join(stateDir, 'tsctld.sock'));
  let stopping: (() => void) | undefined;
  const stopped = new Promise<void>((resolve) => (stopping = resolve));
  const runner = new BatchRunner({
    spool: paths.spool,
    plugins: (settings) => plugins.for(settings),
    guard,
    report: (body) => reports.send(body),
    switchUser: false,
    log,
  });
  // The steps' tasks: the same guard as the scripts; plugins shared with the batch steps.
  const steps: StepRunnerContext = {
    auth: localAuth,
    reaper: guard,
    log,
    plugins: async (launch) => ({ ...(await plugins.for(launch.plugins)), mpi: await plugins.mpi(launch.plugins, launch.step.mpiType) }),
    running: new Set(),
  };
  const busy = (): boolean => runner.running().length > 0 || steps.running.size > 0;
  const handlers: HandlerTable<typeof STEPD_BODIES> = {
    ...batchHandlers(runner),
    launch: (body) => handleLocalLaunch(body, steps),
    // sbcast's file for the emulated nodes, written in the job's container as a node daemon
    // writes it: they share this host and each job's one container, so one write serves them all.
    bcast: async (body) => {
      if (body.plugins === undefined) throw new UserError('a file for the embedded step host names the cluster\'s plugins');
      const { container } = await plugins.for(body.plugins);
      const { writeBcastFile } = await import('../bcast-node.js');
      return writeBcastFile({ ...body, data: Buffer.from(body.data, 'base64') }, container);
    },
    // The batch step deletes its job container itself; nothing else of a job lives here.
    'job-end': async () => ({}),
    ping: async () => ({ node: 'embedded', pid: process.pid, steps: runner.running().length + steps.running.size }),
  };
  const server = new RpcServer(routes(STEPD_BODIES, handlers), log);
  let timer: NodeJS.Timeout | undefined;
  try {
    await server.listen(paths.socket);
    runner.recover();
    log.info(`step host ${process.pid} serving the emulated nodes of ${stateDir} on ${paths.socket}`);
    options.onReady('ready');
    timer = setInterval(() => {
      // Results no controller has taken yet stay on disk for the next one: no reason to stay.
      if (options.idleExitSeconds <= 0 || busy()) return;
      if (Date.now() - server.lastActive < options.idleExitSeconds * 1000) return;
      log.info(`idle for ${options.idleExitSeconds} s with no batch step and no step; exiting`);
      stopping?.();
    }, 1000);
    for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const) process.on(signal, () => stopping?.());
    await stopped;
    return 0;
  } finally {
    clearInterval(timer);
    // Requests stop first, so no launch comes in while the host goes.
    await server.close();
    // A host that stops takes its steps with it (tsrun hears of a node failure).
    for (const step of steps.running) step.kill();
    runner.stop();
    await runner.drain();
    reports.close();
    await plugins.finiAll();
    // A stop with nothing running tells the guard so; otherwise it ends what is left.
    if (!busy()) guard.done();
    lock.release();
  }
}

/** The controller's socket, connected on first use and again after the controller went away. */
class ControllerReports {
  private client: Promise<CtldClient> | undefined;

  constructor(private readonly socket: string) {}

  async send(body: BatchReport): Promise<unknown> {
    this.client ??= CtldClient.connect(this.socket);
    try {
      return await (await this.client).call('batch-complete', body);
    } catch (error) {
      // A refusal keeps the connection (the report is tried again on it); a lost link does not.
      if (!(error instanceof ControllerError) || error instanceof ConnectionLost) this.close();
      throw error;
    }
  }

  close(): void {
    void this.client?.then((client) => client.close(), () => {});
    this.client = undefined;
  }
}
