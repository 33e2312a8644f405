// One node's share of a step inside a step host (a node daemon, or the embedded step host
// serving every emulated node): the I/O connection to tsrun first (so no output is lost), then
// launchNode, its output, exits and aborts sent up, stdin and signals taken down. tsrun gone
// before the step ended (the connection closed) kills the step, as a lost srun does.
import type { Logger } from '../../core/log.js';
import type { Reaper } from '../reaper.js';
import { launchNode, type NodeIoSink } from '../launch-node.js';
import type { NodeLaunchSpec } from '../launch-spec.js';
import type { StepdPlugins } from '../step-container.js';
import type { MessageAuth } from '../../net/message-auth.js';
import type { RemoteLaunch, RemoteNode } from '../../protocol/remote-launch.js';
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
  const sink: NodeIoSink = {
    stdout: (k, chunk) => uplink.send({ t: 'out', k, d: chunk.toString('base64') }),
    stderr: (k, chunk) => uplink.send({ t: 'err', k, d: chunk.toString('base64') }),
    daemonError: (line) => uplink.send({ t: 'derr', line }),
    taskStarted: (pid) => {
      pids.push(pid);
      ctx.reaper.track(pid);
    },
    container: (plan, open) => ctx.reaper.container(plan, open),
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
  // tsrun may be gone before the tasks are all started (killed the moment its first task ran):
  // its connection's close is heard from now on, and acted on once there is a step to kill.
  let step: Awaited<ReturnType<typeof launchNode>> | undefined;
  let finished = false;
  let tsrunGone = false;
  const killForTsrun = (): void => {
    ctx.log.error(`step ${launch.step.jobId}.${launch.step.stepId}: tsrun went away; killing the step`);
    step!.signal('SIGKILL');
  };
  uplink.onClose(() => {
    tsrunGone = true;
    if (step && !finished) killForTsrun();
  });
  try {
    step = await launchNode(spec, plugins, sink);
  } catch (error) {
    await ended(plugins).catch((failure: Error) => ctx.log.error(failure.message));
    uplink.send({ t: 'done' });
    await uplink.end();
    throw error;
  }
  const started = step;
  const entry = { jobId: launch.step.jobId, kill: () => started.signal('SIGKILL') };
  ctx.running.add(entry);
  uplink.onMessage((message) => {
    if (message.t === 'sig') started.signal(message.s);
    else if (message.t === 'in') started.stdin(message.k)?.write(Buffer.from(message.d, 'base64'));
    else if (message.t === 'eof') started.stdin(message.k)?.end();
  });
  if (tsrunGone) killForTsrun();
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
