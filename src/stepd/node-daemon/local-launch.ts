// The `launch` request at the embedded step host, which serves every emulated node: the same
// request tsrun sends a node daemon, but this host runs every node of the span itself instead
// of forwarding it, each node's share through the node daemon's runNodeShare (its own I/O
// connection to tsrun, as a daemon's). The emulated nodes share one job container (one host,
// one process): a step that ends its job deletes it once, after every node's share is over.
import type { NodeLaunchResult, LaunchRequest } from '../../protocol/remote-launch.js';
import type { StepdPlugins } from '../step-container.js';
import { runNodeShare, type StepRunnerContext } from './step-runner.js';

export async function handleLocalLaunch(request: LaunchRequest, ctx: StepRunnerContext): Promise<NodeLaunchResult[]> {
  const { launch, span } = request;
  const nodes = launch.nodes.slice(span[0], span[1]);
  const allEnded = barrier(nodes.length, async (plugins) => {
    if (launch.endsJob && plugins) await plugins.container.delete(launch.step.jobId);
  });
  return Promise.all(
    nodes.map(async (me): Promise<NodeLaunchResult> => {
      let arrived = false;
      const ended = (plugins: StepdPlugins): Promise<void> => {
        arrived = true;
        return allEnded(plugins);
      };
      try {
        await runNodeShare(launch, me, ctx, ended);
        return { node: me.name, ok: true };
      } catch (error) {
        // A share that failed before its tasks (its plugins, its I/O connection) ends here.
        if (!arrived) void allEnded(undefined).catch(() => {});
        return { node: me.name, ok: false, error: (error as Error).message };
      }
    }),
  );
}

/**
 * Settles every caller once `count` have arrived and `last` has run (once, with the plugins of
 * any share that had them); its failure reaches the last one to arrive only, so it is said once.
 */
function barrier(count: number, last: (plugins: StepdPlugins | undefined) => Promise<void>): (plugins: StepdPlugins | undefined) => Promise<void> {
  let arrived = 0;
  let seen: StepdPlugins | undefined;
  let release!: () => void;
  const done = new Promise<void>((resolve) => (release = resolve));
  return (plugins) => {
    seen ??= plugins;
    if (++arrived < count) return done;
    return last(seen).finally(release);
  };
}
