// One `launch` request to the first daemon of a span (from tsrun, or forwarded by a daemon):
// its answer covers the span; a daemon that cannot be reached fails every node it was to serve.
import { CtldClient } from '../../client/ctld-client.js';
import { UserError } from '../../core/errors.js';
import type { MessageAuth } from '../../net/message-auth.js';
import type { LaunchRequest, NodeLaunchResult, RemoteLaunch } from '../../protocol/remote-launch.js';

export async function sendLaunch(launch: RemoteLaunch, span: [number, number], auth: MessageAuth): Promise<NodeLaunchResult[]> {
  const first = launch.nodes[span[0]]!;
  try {
    const client = await CtldClient.connect({ host: first.host, port: first.port }, auth);
    try {
      return await client.call<NodeLaunchResult[]>('launch', { launch, span } satisfies LaunchRequest);
    } finally {
      client.close();
    }
  } catch (error) {
    const why = error instanceof UserError ? error.message : 'Communication connection failure';
    return launch.nodes.slice(span[0], span[1]).map((node) => ({ node: node.name, ok: false, error: why }));
  }
}
