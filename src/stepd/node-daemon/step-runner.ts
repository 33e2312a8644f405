// One node's share of a step inside a step host (a node daemon, or the embedded step host
// serving every emulated node): the I/O connection to tsrun first (so no output is lost), then
// launchNode, its output, exits and aborts sent up, stdin and signals taken down. tsrun gone
// before the step ended (the connection closed) kills the step, as a lost srun does.
import type { Logger } from '../../core/log.js';
import type { Reaper } from '../reaper.js';
import { launchNode, type NodeIoSink, type NodeStep } from '../launch-node.js';
import type { NodeLaunchSpec } from '../launch-spec.js';
import type { StepdPlugins } from '../step-container.js';
import type { MessageAuth } from '../../net/message-auth.js';
import type { RemoteLaunch, RemoteNode, TsrunToNode } from '../../protocol/remote-launch.js';
import { IoUplink } from './io-uplink.js';
import { runAsFor } from '../run-as.js';

export interface StepRunnerContext {
  auth: MessageAuth;
  reaper: Reaper;
  log: Logger;
  /** The step's mpi plugin and the host's job_container and proctrack plugins. */
  plugins(launch: RemoteLaunch): Promise<StepdPlugins>;
  /** Steps running on this daemon, for its shutdown (and the embedded host's idle exit). */
  running: Set<{ jobId: number; kill(): void }>;
}

/**
 * Runs once this node's share is over (its tasks ended, or its launch failed), before tsrun
 * hears `done`: where the step ends its job, the job's container is deleted there.
 */
export type ShareEnded = (plugins: StepdPlugins) => Promise<void>;

/** Starts this node's tasks; resolves once they are started (their end is reported to tsrun). */
export async function runNodeShare(launch: RemoteLaunch, me: RemoteNode, ctx: StepRunnerContext, ended: ShareEnded): Promise<void> {
  const plugins = await ctx.plugins(launch);
  const uplink = await IoUplink.open(launch.io, me.spec.nodeId, ctx.auth);
  const pids: number[] = [];
  // tsrun's messages are taken from the start: a signal (scancel) reaches the step while its
  // tasks' prologs run; stdin waits for the tasks, and a signal sent before the step's
  // container exists waits for it.
  let step: NodeStep | undefined;
  let signalEarly: ((sig: NodeJS.Signals) => void) | undefined;
  const waiting: TsrunToNode[] = [];
  const take = (message: TsrunToNode): void => {
    if (message.t === 'sig' && (step ?? signalEarly)) (step?.signal ?? signalEarly)!(message.s);
    else if (!step) waiting.push(message);
    else if (message.t === 'in') step.stdin(message.k)?.write(Buffer.from(message.d, 'base64'));
    else if (message.t === 'eof') step.stdin(message.k)?.end();
  };
  uplink.onMessage(take);
  // tsrun gone before the step's tasks started: its prologs are ended (SIGKILL to its container).
  let launched = false;
  let tsrunGone = false;
  uplink.onClose(() => {
    tsrunGone = true;
    if (!launched) signalEarly?.('SIGKILL');
  });
  const sink: NodeIoSink = {
    stdout: (k, chunk) => uplink.send({ t: 'out', k, d: chunk.toString('base64') }),
    stderr: (k, chunk) => uplink.send({ t: 'err', k, d: chunk.toString('base64') }),
    daemonError: (line, k) => uplink.send(k === undefined ? { t: 'derr', line } : { t: 'derr', line, k }),
    taskStarted: (pid) => {
      pids.push(pid);
      ctx.reaper.track(pid);
    },
    container: (plan, open) => ctx.reaper.container(plan, open),
    signalReady: (signal) => {
      signalEarly = signal;
      for (const message of waiting.filter((m) => m.t === 'sig')) signal(message.s);
    },
    taskExited: (exit) => uplink.send({ t: 'exit', exit }),
    abortStep: (message, error) => uplink.send({ t: 'abort', message, error }),
    usage: (usage, final) => uplink.send({ t: 'usage', usage, final }),
  };
  // A root daemon runs the tasks as the credential's user (handleLaunch decided who that is).
  const runAs = runAsFor(launch.user);
  const spec: NodeLaunchSpec = {
    step: launch.step,
    ...me.spec,
    cwd: launch.cwd,
    env: launch.env,
    killWaitSeconds: launch.killWaitSeconds,
    ...(runAs && { runAs }),
  };
  try {
    step = await launchNode(spec, plugins, sink);
    launched = true;
  } catch (error) {
    await ended(plugins).catch((failure: Error) => ctx.log.error(failure.message));
    uplink.send({ t: 'done' });
    await uplink.end();
    throw error;
  }
  const started = step;
  const entry = { jobId: launch.step.jobId, kill: () => started.signal('SIGKILL') };
  ctx.running.add(entry);
  let finished = false;
  // What came before the tasks started: stdin now, signals again only if none reached the container.
  for (const message of waiting.splice(0)) if (message.t !== 'sig' || !signalEarly) take(message);
  const killForTsrun = (): void => {
    ctx.log.error(`step ${launch.step.jobId}.${launch.step.stepId}: tsrun went away; killing the step`);
    started.signal('SIGKILL');
  };
  // tsrun may be gone before the tasks are all started (killed the moment its first task ran,
  // before any prolog could be signalled): the close heard then is acted on now.
  if (tsrunGone) killForTsrun();
  else
    uplink.onClose(() => {
      if (!finished) killForTsrun();
    });
  void started.done
    .then(async () => {
      finished = true;
      pids.forEach((pid) => ctx.reaper.untrack(pid));
      await ended(plugins).catch((error: Error) => ctx.log.error(error.message));
      uplink.send({ t: 'done' });
      await uplink.end();
    })
    .catch((error: Error) => ctx.log.error(`step ${launch.step.jobId}.${launch.step.stepId}: ${error.message}`))
    .finally(() => ctx.running.delete(entry));
}
