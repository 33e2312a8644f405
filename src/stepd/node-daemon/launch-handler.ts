// The `launch` request at a node daemon (slurmd's REQUEST_LAUNCH_TASKS with its message
// forwarding): run this node's share, and pass the rest of the span on to at most TreeWidth
// daemons, each of which does the same with its part. The answer covers the whole span, one
// result per node; a daemon that cannot be reached fails every node it was to serve.
import { UserError } from '../../core/errors.js';
import type { MessageAuth, PeerIdentity } from '../../net/message-auth.js';
import { forwardSpans, type LaunchRequest, type NodeLaunchResult, type RemoteLaunch } from '../../protocol/remote-launch.js';
import { sendLaunch } from './send-launch.js';
import { runNodeShare, type StepRunnerContext } from './step-runner.js';
import type { StepdPlugins } from '../step-container.js';

export interface LaunchContext extends StepRunnerContext {
  nodeName: string;
  auth: MessageAuth;
}

export async function handleLaunch(request: LaunchRequest, identity: PeerIdentity | undefined, ctx: LaunchContext): Promise<NodeLaunchResult[]> {
  const { launch, span } = request;
  const me = launch.nodes[span[0]];
  if (!me || me.name !== ctx.nodeName) throw new UserError(`launch for node ${me?.name ?? '?'} sent to ${ctx.nodeName}`);
  // A forwarding daemon (running as root or as this daemon's user) speaks for the user it
  // names; anyone else is the user their credential says.
  const trusted = identity === undefined || identity.uid === 0 || identity.uid === process.getuid?.();
  const user = trusted ? (launch.user ?? identity) : identity;
  const passed: RemoteLaunch = { ...launch, ...(user && { user: { uid: user.uid, gid: user.gid } }) };
  const forwarded = forwardSpans(span[0] + 1, span[1], launch.treeWidth).map((sub) => sendLaunch(passed, sub, ctx.auth));
  // The step that ends its job takes the job's container on this node with it.
  const ended = async (plugins: StepdPlugins): Promise<void> => {
    if (passed.endsJob) await plugins.container.delete(passed.step.jobId);
  };
  const mine = runNodeShare(passed, me, ctx, ended).then(
    (): NodeLaunchResult[] => [{ node: me.name, ok: true }],
    (error: Error): NodeLaunchResult[] => [{ node: me.name, ok: false, error: error.message }],
  );
  return (await Promise.all([mine, ...forwarded])).flat();
}

