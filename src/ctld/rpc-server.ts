// The controller's listening side: one JSON message per line (protocol/rpc.ts), each request
// handled by name, its answer (or its refusal, with Slurm's errno) sent back with its id. A
// request may take long (`wait`); others on the same connection are answered meanwhile.
import net from 'node:net';
import { chmodSync, rmSync } from 'node:fs';
import { UserError } from '../core/errors.js';
import type { Logger } from '../core/log.js';
import { answer, encodeMessage, failure, lineReader, versionProblem, type RpcRequest } from '../protocol/rpc.js';

/** The connection a request came on, for requests whose effect lasts as long as it does (tsrun's jobs). */
export interface RpcConnection {
  /** Calls `listener` once the peer has gone; not when the controller itself closes. */
  onClose(listener: () => void): void;
}

export type Handler = (body: unknown, connection?: RpcConnection) => Promise<unknown>;

export class RpcServer {
  private readonly server: net.Server;
  private readonly sockets = new Set<net.Socket>();
  /** When the last connection closed (or the server started), for the idle exit. */
  lastActive = Date.now();
  private closing = false;

  constructor(
    private readonly handlers: ReadonlyMap<string, Handler>,
    private readonly log: Logger,
  ) {
    this.server = net.createServer((socket) => this.serve(socket));
  }

  get connections(): number {
    return this.sockets.size;
  }

  /** Listens on a Unix socket only its owner may use (the state directory is 0700 too). */
  listen(socketPath: string): Promise<void> {
    rmSync(socketPath, { force: true });
    return new Promise((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(socketPath, () => {
        chmodSync(socketPath, 0o600);
        resolve();
      });
    });
  }

  close(): Promise<void> {
    this.closing = true;
    for (const socket of this.sockets) socket.destroy();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  private serve(socket: net.Socket): void {
    this.sockets.add(socket);
    const closeListeners: Array<() => void> = [];
    const connection: RpcConnection = { onClose: (listener) => closeListeners.push(listener) };
    socket.on('close', () => {
      this.sockets.delete(socket);
      this.lastActive = Date.now();
      if (!this.closing) closeListeners.forEach((listener) => listener());
    });
    socket.on('error', () => {});
    const send = (text: string): void => {
      if (!socket.destroyed) socket.write(text);
    };
    socket.on(
      'data',
      lineReader(
        (message) => void this.handle(message as RpcRequest, send, connection),
        (line) => this.log.error(`rpc: unreadable message (${line.length} bytes) ignored`),
      ),
    );
  }

  private async handle(message: RpcRequest, send: (text: string) => void, connection: RpcConnection): Promise<void> {
    this.lastActive = Date.now();
    const id = typeof message?.id === 'number' ? message.id : 0;
    const problem = versionProblem(message?.v);
    if (problem !== undefined) {
      this.log.error(`rpc: ${problem}; request refused`);
      return send(encodeMessage(failure(id, { message: problem, code: 'SLURM_PROTOCOL_VERSION_ERROR' })));
    }
    const handler = this.handlers.get(message.op);
    if (!handler) return send(encodeMessage(failure(id, { message: `unknown request "${String(message.op)}"` })));
    try {
      send(encodeMessage(answer(id, await handler(message.body, connection))));
    } catch (error) {
      if (error instanceof UserError) {
        send(encodeMessage(failure(id, { message: error.message, code: error.code, exitCode: error.exitCode })));
      } else {
        this.log.error(`rpc: ${message.op}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
        send(encodeMessage(failure(id, { message: `internal error: ${error instanceof Error ? error.message : String(error)}` })));
      }
    }
  }
}
