// Where a daemon listens or a client connects: a Unix socket path or a TCP host and port.
import net from 'node:net';

export type Endpoint = { path: string } | { host: string; port: number };

/** `host:port`, with IPv6 hosts in brackets, as the cluster file writes them. */
export function formatEndpoint(endpoint: Endpoint): string {
  if ('path' in endpoint) return endpoint.path;
  return endpoint.host.includes(':') ? `[${endpoint.host}]:${endpoint.port}` : `${endpoint.host}:${endpoint.port}`;
}

/** Parses `host:port` (`[v6]:port`); undefined when it is not one. */
export function parseHostPort(text: string): { host: string; port: number } | undefined {
  const match = /^(?:\[([^\]]+)\]|([^:\s]+)):(\d{1,5})$/.exec(text);
  if (!match) return undefined;
  const port = Number(match[3]);
  if (port < 1 || port > 65535) return undefined;
  return { host: match[1] ?? match[2]!, port };
}

/** Opens a stream to `endpoint`; rejects with the socket's error (ECONNREFUSED, ...) or a timeout. */
export function connectEndpoint(endpoint: Endpoint, timeoutMs = 10_000): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    const socket = 'path' in endpoint ? net.createConnection(endpoint.path) : net.createConnection({ host: endpoint.host, port: endpoint.port });
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`connect ${formatEndpoint(endpoint)}: timed out`));
    }, timeoutMs);
    socket.once('connect', () => {
      clearTimeout(timer);
      socket.removeAllListeners('error');
      socket.setNoDelay(true);
      resolve(socket);
    });
    socket.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
  });
}
