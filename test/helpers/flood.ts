// Peers without the key that stream one endless line each (no newline) at a TCP port, as fast
// as the socket takes it, until the server closes them or `bytes` went out.
import net from 'node:net';

export interface FloodResult {
  /** Bytes the socket accepted from us. */
  sent: number;
  /** The server closed the connection (before we ended it). */
  closedByServer: boolean;
  /** What the server said meanwhile. */
  received: string;
}

const block = Buffer.alloc(1024 * 1024, 'x');

/** `count` connections at once, each sending up to `bytes`; waits `graceMs` after the last byte for the close. */
export function floodConnections(port: number, count: number, bytes: number, graceMs = 30_000): Promise<FloodResult[]> {
  return Promise.all(Array.from({ length: count }, () => floodOne(port, bytes, graceMs)));
}

function floodOne(port: number, bytes: number, graceMs: number): Promise<FloodResult> {
  return new Promise((resolve) => {
    const socket = net.createConnection({ host: '127.0.0.1', port });
    let sent = 0;
    let received = '';
    let done = false;
    let timer: NodeJS.Timeout | undefined;
    const finish = (closedByServer: boolean): void => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      socket.destroy();
      resolve({ sent, closedByServer, received });
    };
    socket.on('error', () => finish(true));
    socket.on('close', () => finish(true));
    socket.on('data', (chunk) => (received += chunk.toString()));
    const pump = (): void => {
      while (!done && sent < bytes) {
        const piece = bytes - sent >= block.length ? block : block.subarray(0, bytes - sent);
        sent += piece.length;
        if (!socket.write(piece)) return void socket.once('drain', pump);
      }
      if (!done) timer = setTimeout(() => finish(false), graceMs);
    };
    socket.once('connect', pump);
  });
}
