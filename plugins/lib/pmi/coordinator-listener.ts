// tsrun's end of the PMI tree's links (Slurm's srun side of mpi/pmi2: a TCP listener whose
// port the step daemons find in SLURM_PMI2_SRUN_PORT). Every node connects once and says
// hello (nothing is answered: a node has what it starts from already); a node whose parent is
// tsrun keeps the connection as its tree link, the others learn where their parent listens and
// hang up.
import { createServer, type Server, type Socket } from 'node:net';
import type { KvsCoordinator } from './coordinator.js';
import { TreeLink } from './tree-link.js';
import type { CoordinatorReply, NodeHello, PmiDown, PmiUp } from './messages.js';

export interface CoordinatorListener {
  readonly port: number;
  close(): void;
}

interface Address {
  host: string;
  port: number;
}

/**
 * Listens on `host` (any free port) for the nodes of the step, who must know `key`. Without a
 * host, on every address (IPv6's and IPv4's), as srun's net_stream_listen does, for nodes may be
 * other hosts: an address given costs a name lookup (Node loads its dns module for it) on
 * tsrun's way to the launch.
 */
export async function listenForNodes(coordinator: KvsCoordinator, key: string, host?: string): Promise<CoordinatorListener> {
  const addresses = new Map<number, Address>();
  const waitingForParent = new Map<number, Array<(address: Address) => void>>();
  const links = new Set<TreeLink<unknown, unknown>>();

  const accept = (socket: Socket): void => {
    const link = new TreeLink<NodeHello | PmiUp, CoordinatorReply | PmiDown>(socket, false);
    links.add(link);
    socket.once('close', () => links.delete(link));
    // The node id once this is a tree link; null once it was only a hello link.
    let child: number | null | undefined;
    link.handle({
      message: (message) => {
        if (child !== undefined) {
          if (child !== null) coordinator.receive(child, message as PmiUp);
          return;
        }
        const hello = message as NodeHello;
        if (hello.kind !== 'hello' || hello.key !== key || !Number.isInteger(hello.nodeid)) return link.close();
        link.trust();
        if (hello.port !== null) {
          const address = { host: peerHost(socket), port: hello.port };
          addresses.set(hello.nodeid, address);
          for (const tell of waitingForParent.get(hello.nodeid)?.splice(0) ?? []) tell(address);
        }
        if (hello.parent === null) {
          child = hello.nodeid;
          coordinator.attach(child, (down) => link.send(down));
          return;
        }
        child = null;
        const tell = (address: Address): void => link.send({ kind: 'parent', ...address });
        const known = addresses.get(hello.parent);
        if (known) tell(known);
        else waitingForParent.set(hello.parent, [...(waitingForParent.get(hello.parent) ?? []), tell]);
      },
      lost: () => {
        if (typeof child === 'number') coordinator.lost(child);
      },
    });
  };

  const server: Server = createServer(accept);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    if (host === undefined) server.listen(0, () => resolve());
    else server.listen(0, host, () => resolve());
  });
  server.on('error', () => {}); // after listen, errors belong to connections
  const { port } = server.address() as { port: number };
  return {
    port,
    close: () => {
      server.close();
      for (const link of links) link.close();
    },
  };
}

/** The address a node reached us from: where the other nodes can reach it too. */
function peerHost(socket: Socket): string {
  const host = socket.remoteAddress ?? '127.0.0.1';
  return host.startsWith('::ffff:') ? host.slice('::ffff:'.length) : host;
}
