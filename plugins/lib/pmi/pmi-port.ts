// The node's PMI_PORT listener (what MPICH's hydra offers besides PMI_FD): a task that lost
// its fd 3 (a wrapper closed inherited descriptors and unset PMI_FD) connects here over TCP,
// names itself with `cmd=initack pmiid=<PMI_ID>` and then speaks PMI as on fd 3
// (connection.ts). Loopback only: a node's tasks run on its own host.
import { createServer, type Server, type Socket } from 'node:net';
import { serveConnection } from './connection.js';
import type { NodePmiServer } from './node-server.js';

export const PMI_PORT_HOST = '127.0.0.1';

export interface PmiPortListener {
  /** `host:port`, as PMI_PORT carries it. */
  readonly address: string;
  close(): void;
}

export async function listenPmiPort(server: NodePmiServer): Promise<PmiPortListener> {
  const sockets = new Set<Socket>();
  const listener: Server = createServer((socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
    socket.setNoDelay(true);
    serveConnection(socket, server, undefined);
  });
  await new Promise<void>((resolve, reject) => {
    listener.once('error', reject);
    listener.listen(0, PMI_PORT_HOST, () => resolve());
  });
  listener.on('error', () => {});
  const { port } = listener.address() as { port: number };
  return {
    address: `${PMI_PORT_HOST}:${port}`,
    close: () => {
      listener.close();
      for (const socket of sockets) socket.destroy();
    },
  };
}
