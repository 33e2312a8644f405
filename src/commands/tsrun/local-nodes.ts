// The emulated nodes' shares of a step: one `launch` request, the one a node daemon takes, to
// the state directory's step host on its Unix socket (started on demand, and connected to
// while the controller allocates), which runs every node of it and connects back to tsrun's
// loopback I/O port for each. A host that went away while the job was being allocated (its
// idle exit) is replaced before the request is sent; one lost after it is a failed launch.
import type { CtldClient } from '../../client/ctld-client.js';
import type { NodeLaunchResult } from '../../protocol/remote-launch.js';
import type { HostLaunchOptions, IoPort } from './node-hosts.js';

/** Where the local step host reaches tsrun's I/O port. */
export const LOOPBACK = '127.0.0.1';

/** Slurm's SlurmdPort, only to fill the nodes' `port`: the embedded host forwards nothing. */
const UNUSED_PORT = 6818;

export interface StepHostLink {
  /** The connection opened early (in parallel with the allocation). */
  client: Promise<CtldClient>;
  /** A new connection, starting a host when none serves. */
  reconnect(): Promise<CtldClient>;
  /** The pid of the host last connected to (its `ping` answer), named when it is lost. */
  readonly pid?: number | undefined;
}

/** `port`: tsrun's loopback I/O port when it was opened ahead (while the controller allocated). */
export function localHostLaunch(link: StepHostLink, names: string[], port?: Promise<IoPort>): Pick<HostLaunchOptions, 'nodes' | 'io' | 'send'> {
  return {
    nodes: names.map((name) => ({ name, host: 'localhost', port: UNUSED_PORT })),
    io: { listen: LOOPBACK, reachedAt: async () => LOOPBACK, port },
    send: async (launch) => {
      let client: CtldClient | undefined;
      try {
        client = await link.client.catch(() => link.reconnect());
        if (client.lost) client = await link.reconnect();
        return await client.call<NodeLaunchResult[]>('launch', { launch, span: [0, names.length] });
      } catch (error) {
        return names.map((node) => ({ node, ok: false, error: (error as Error).message }));
      } finally {
        client?.close();
      }
    },
  };
}
