// tsrun's job from the controller (srun's allocation through slurmctld): ask, print srun's
// lines while it is queued, hold the job over the connection while the step runs, carry out
// what the controller orders (tscancel, its time limit, scancel -s), and report the step's
// end. The controller is the cluster's TCP one, else the one serving the state directory,
// started on demand when none does. A controller restart is ridden out: tsrun connects to the
// next one (starting it, as the first connection did) and attaches to its job again.
import { constants } from 'node:os';
import path from 'node:path';
import { UserError } from '../../core/errors.js';
import { expandHostlist } from '../../core/hostlist.js';
import type { Logger } from '../../core/log.js';
import type { ClusterConfig } from '../../config/types.js';
import { ConnectionLost, CtldClient, connectController, type CallArgs, type CtldTarget } from '../../client/ctld-client.js';
import type { RemoteController } from '../../client/controller-target.js';
import type { AllocateAnswer, Grant, JobOrder } from '../../protocol/ctld-answers.js';
import type { StepAllocation, StepControl } from './step-allocation.js';
import { allocateRefusal, jobDescFor } from './ctld-request.js';
import type { StepRequest } from './request.js';

const RECONNECT_MS = 200;
/** How long an ended step's tsrun tries to tell a restarting controller; it then finds tsrun gone. */
const GIVE_UP_MS = 5_000;

/** A connection to the controller, how to open the next one, and whether this command started it. */
export interface OpenedController {
  target: CtldTarget;
  client: CtldClient;
  reopen: () => Promise<CtldClient>;
  startedHere: boolean;
  /** Stops the controller this command started (tsrun --test-only leaves none behind). */
  stop(): Promise<void>;
}

/**
 * The cluster's TCP controller (it must answer: no controller is started for it), else the
 * state directory's, started on demand when nothing answers on its socket (`onStarting` is
 * called then, before the controller's start-up).
 */
export async function openController(
  config: ClusterConfig,
  stateDir: string,
  remote: RemoteController | undefined,
  onStarting?: () => void,
): Promise<OpenedController> {
  if (remote) {
    const target: CtldTarget = { endpoint: remote.endpoint, auth: remote.auth };
    const client = await CtldClient.open(target).catch(() => {
      throw new UserError(`Unable to contact slurm controller at ${config.control.address} (connect failure)`);
    });
    return { target, client, reopen: () => CtldClient.open(target), startedHere: false, stop: async () => {} };
  }
  const target = path.join(stateDir, 'tsctld.sock');
  const connect = (autostart: boolean) =>
    connectController({ stateDir, clusterFile: config.source.startsWith('/') ? config.source : undefined, autostart });
  let startedHere = false;
  const client = await connect(false).catch(() => {
    startedHere = true;
    onStarting?.();
    return connect(true);
  });
  return {
    target,
    client,
    reopen: () => connect(true),
    startedHere,
    stop: async () => {
      const { stopController } = await import('../../client/stop-controller.js');
      await stopController(stateDir);
    },
  };
}

/** The allocation, asked over `client` (which it then holds, or closes). */
export async function allocateThroughController(
  client: CtldClient,
  reopen: () => Promise<CtldClient>,
  req: StepRequest,
  config: ClusterConfig,
  log: Logger,
  onAsked?: () => void,
): Promise<StepAllocation> {
  const link = new Link(reopen, client);
  try {
    let answer: AllocateAnswer;
    try {
      const asking = client.call<AllocateAnswer>('allocate', { desc: jobDescFor(req), testOnly: req.testOnly });
      onAsked?.();
      answer = await asking;
    } catch (error) {
      throw (await otherCluster(client, config)) ?? allocateRefusal(error, req, config, log);
    }
    link.jobId = answer.jobId;
    if (answer.willRun) {
      link.close();
      const w = answer.willRun;
      const nodeNames = expandHostlist(w.nodes);
      return { ...testOnlyGrant(answer.jobId, nodeNames, w.cpus, w.partition, req), startTime: w.start, release: async () => {} };
    }
    let grant = answer.grant;
    if (answer.pending) {
      // -I with no time: the controller would not have queued it (held or dependent jobs get
      // "Job dependency problem", others "Requested nodes are busy", observed).
      if (req.immediate === 0) {
        await cancelJob(link, answer.jobId);
        throw UserError.fromErrno(req.hold || req.dependency !== undefined ? 'ESLURM_DEPENDENCY' : 'ESLURM_NODES_BUSY', 'Unable to allocate resources');
      }
      if (req.hold) log.info('Job is in held state, pending scheduler release');
      if (answer.notice !== undefined) log.info(answer.notice);
      log.info(`job ${answer.jobId} queued and waiting for resources`);
      try {
        const granted = link.call<Grant>(['allocation', { jobId: answer.jobId }]);
        grant = req.immediate === undefined ? await granted : await withinSeconds(granted, req.immediate);
        if (grant === undefined) {
          // The wait for the grant ends with the job: nothing is listening for it any more.
          granted.catch(() => {});
          await cancelJob(link, answer.jobId);
          throw UserError.fromErrno('ESLURM_NODES_BUSY');
        }
      } catch (error) {
        if (error instanceof UserError && error.code === 'ESLURM_ALREADY_DONE') log.info('Job has been cancelled');
        throw allocateRefusal(error, req, config, log);
      }
      log.info(`job ${answer.jobId} has been allocated resources`);
    }
    return held(link, grant!);
  } catch (error) {
    link.close();
    throw error;
  }
}

/**
 * A refusal from a controller that serves another cluster on this state directory (a second
 * cluster file run with the same TSLURM_STATE_DIR) says so, rather than naming the partition
 * or nodes the other cluster lacks. Asked only after a refusal: a granted job pays nothing.
 */
async function otherCluster(client: CtldClient, config: ClusterConfig): Promise<UserError | undefined> {
  const served = await client.call<{ cluster: string }>('ping').catch(() => undefined);
  if (served === undefined || served.cluster === config.clusterName) return undefined;
  return new UserError(
    `the controller on this state directory serves cluster ${served.cluster}, not ${config.clusterName}: give each cluster a state directory of its own (TSLURM_STATE_DIR)`,
  );
}

/** -I SECS: the grant if it comes within the time, else undefined. */
async function withinSeconds<T>(promise: Promise<T>, seconds: number): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), seconds * 1000)));
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

// The job -I gave up on goes, as srun's does.
async function cancelJob(link: Link, jobId: number): Promise<void> {
  await link.call(['cancel', { ids: [String(jobId)], userId: process.getuid?.() ?? 0 }], 1).catch(() => {});
}

function held(link: Link, grant: Grant): StepAllocation {
  let control: StepControl | undefined;
  const early: JobOrder[] = [];
  const carryOut = (order: JobOrder): void => {
    if (!control) return void early.push(order);
    if (order.cause) control.end(order.cause);
    else if (order.signal !== undefined) control.signal(signalName(order.signal));
  };
  void (async () => {
    for (;;) {
      const order = await link.call<JobOrder>(['watch', { jobId: grant.jobId }]).catch(() => undefined);
      if (order === undefined || (order.cause === undefined && order.signal === undefined)) return;
      carryOut(order);
    }
  })();
  return {
    jobId: grant.jobId,
    stepId: 0,
    jobName: grant.name,
    partition: grant.partition,
    nodeNames: grant.nodeNames,
    cpusPerNode: grant.cpusPerNode,
    gpusPerNode: grant.gpusPerNode,
    timeLimit: grant.timeLimit,
    ownJob: true,
    control: (handlers) => {
      control = handlers;
      early.splice(0).forEach(carryOut);
    },
    sample: (usage) => void link.call(['step-usage', { jobId: grant.jobId, stepId: 0, usage }], 1).catch(() => {}),
    release: async (waitStatus, usage) => {
      link.stop();
      // A controller that cannot be reached now finds tsrun gone, and ends the job itself.
      await link.call(['complete', { jobId: grant.jobId, status: waitStatus, ...(usage && { usage }) }], 1).catch(() => {});
      link.close();
    },
  };
}

function testOnlyGrant(jobId: number, nodeNames: string[], cpus: number, partition: string, req: StepRequest) {
  return {
    jobId,
    stepId: 0,
    jobName: req.jobName ?? '',
    partition,
    nodeNames,
    // The CPUs the answer names, counted once.
    cpusPerNode: nodeNames.map((_, i) => (i === 0 ? cpus : 0)),
    gpusPerNode: nodeNames.map(() => []),
    timeLimit: req.timeLimit,
    ownJob: true,
  };
}

function signalName(signal: number): NodeJS.Signals {
  const entry = Object.entries(constants.signals).find(([, n]) => n === signal);
  return (entry?.[0] ?? 'SIGTERM') as NodeJS.Signals;
}

/**
 * The connection that holds the job. A request cut by a lost controller is sent again to the
 * next one once tsrun has attached to its job there (the controller restarts on its own
 * state directory and recovers the job while this tsrun runs).
 */
export class Link {
  jobId: number | undefined;
  private stoppedAt = 0;
  private closed = false;
  private reconnecting: Promise<void> | undefined;

  constructor(
    /** The next connection, after the controller went away (restarted, or started again on demand). */
    private readonly reopen: () => Promise<CtldClient>,
    private client: CtldClient,
  ) {}

  async call<T>(request: CallArgs, retries = Number.POSITIVE_INFINITY): Promise<T> {
    const op = request[0];
    for (let attempt = 1; ; attempt++) {
      if (this.reconnecting) await this.reconnecting;
      const client = this.client;
      try {
        return await client.call<T>(...request);
      } catch (error) {
        if (!(error instanceof ConnectionLost) || this.closed || (this.stopping && op !== 'complete') || attempt > retries) throw error;
        // One reconnection for every request the lost connection cut.
        if (this.client === client) this.reconnecting ??= this.reconnect().finally(() => (this.reconnecting = undefined));
      }
    }
  }

  /** The step has ended: only `complete` is still sent, and not for long. */
  stop(): void {
    this.stoppedAt = Date.now();
  }

  get stopping(): boolean {
    return this.stoppedAt !== 0;
  }

  close(): void {
    this.closed = true;
    this.client.close();
  }

  private async reconnect(): Promise<void> {
    while (!this.closed && !(this.stopping && Date.now() - this.stoppedAt > GIVE_UP_MS)) {
      await new Promise((resolve) => setTimeout(resolve, RECONNECT_MS));
      let client: CtldClient;
      try {
        client = await this.reopen();
      } catch {
        continue;
      }
      this.client = client;
      if (this.jobId !== undefined) await client.call('attach', { jobId: this.jobId }).catch(() => {});
      return;
    }
  }
}
