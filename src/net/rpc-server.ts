// A daemon's listening side (tsctld's, and tsstepd's): one JSON message per line
// (protocol/rpc.ts), each request handled by name, its answer (or its refusal, with Slurm's
// errno) sent back with its id. A request may take long (`wait`); others on the same
// connection are answered meanwhile. On TCP every message is sealed and opened by the auth
// plugin; a message whose credential is refused is logged and not acted on. Every body is
// checked against its request's schema before its handler runs (protocol/check-body.ts).
//
// What a peer may cost before it authenticates is bounded (net/input-limits.ts): each listener
// takes so many connections, so many of them not yet authenticated, each of those for so long
// and with so many bytes buffered, all of them together within one budget; a connection whose
// first message is refused is answered and closed. Each cut is one log line.
import net from 'node:net';
import type * as v from 'valibot';
import { chmodSync, rmSync } from 'node:fs';
import { UserError } from '../core/errors.js';
import { slurm_strerror } from '../core/errno.js';
import type { Logger } from '../core/log.js';
import { checkBody } from '../protocol/check-body.js';
import { answer, failure, versionProblem, type RpcRequest } from '../protocol/rpc.js';
import { JsonLink } from './json-link.js';
import type { MessageAuth, PeerIdentity } from './message-auth.js';
import { InputBudget } from './input-budget.js';
import { inputLimits, type InputLimits } from './input-limits.js';
import { RateLimitedLog } from './rate-limited-log.js';
import type { RpcStats } from './rpc-stats.js';

/** The connection a request came on, for requests whose effect lasts as long as it does (tsrun's jobs). */
export interface RpcConnection {
  /** Calls `listener` once the peer has gone; not when the daemon itself closes. */
  onClose(listener: () => void): void;
  /** Who sent the request, when its credential was checked (TCP); undefined on the Unix socket. */
  identity?: PeerIdentity;
  /** The peer's address (`host:port`, or `local`). */
  peer: string;
}

export type Handler = (body: unknown, connection: RpcConnection) => Promise<unknown>;

/** A request the server takes: the schema its body must pass, and its handler. */
export interface Route {
  body: v.GenericSchema;
  handle: Handler;
}

/** One handler per request of `bodies`, each given the body its schema produced. */
export type HandlerTable<T extends Record<string, v.GenericSchema>> = {
  [K in keyof T]: (body: v.InferOutput<T[K]>, connection: RpcConnection) => Promise<unknown>;
};

/** The routes of a request table and its handlers. */
export function routes<T extends Record<string, v.GenericSchema>>(bodies: T, handlers: HandlerTable<T>): Map<string, Route> {
  return new Map(Object.keys(bodies).map((op) => [op, { body: bodies[op]!, handle: handlers[op] as Handler }]));
}

export class RpcServer {
  private readonly servers: net.Server[] = [];
  private readonly sockets = new Set<net.Socket>();
  /** When the last request or connection closed (or the server started), for the idle exit; watchers' not counted. */
  lastActive = Date.now();
  /** Connections whose every request so far was a watcher's (RpcRequest.watch). */
  private readonly watchers = new Set<net.Socket>();
  private closing = false;
  private readonly limits: InputLimits;
  private readonly budget: InputBudget;
  private readonly refusedLog: RateLimitedLog;

  constructor(
    private readonly routes: ReadonlyMap<string, Route>,
    private readonly log: Logger,
    limits: InputLimits = inputLimits(),
    /** Where each request served is counted (tsctld's sdiag figures); none when not given. */
    private readonly stats?: RpcStats,
  ) {
    this.limits = limits;
    this.budget = new InputBudget(limits.unauthBufferBytes);
    this.refusedLog = new RateLimitedLog((line) => log.error(line));
  }

  /** Bytes unauthenticated connections hold now (for tests and the bench). */
  get unauthBytes(): number {
    return this.budget.held;
  }

  get connections(): number {
    return this.sockets.size;
  }

  /**
   * Connections that keep an idle daemon up: all but the watchers'. One that has sent nothing
   * yet counts (a command about to submit), one whose first request was a watcher's does not
   * until it sends another kind.
   */
  get busyConnections(): number {
    return this.sockets.size - this.watchers.size;
  }

  /** Listens on a Unix socket only its owner may use (the state directory is 0700 too). */
  listen(socketPath: string): Promise<void> {
    rmSync(socketPath, { force: true });
    const server = this.newServer(undefined);
    return new Promise((resolve, reject) => {
      server.once('error', reject);
      server.listen(socketPath, () => {
        chmodSync(socketPath, 0o600);
        resolve();
      });
    });
  }

  /** Listens on TCP; every message must carry a credential `auth` accepts. Resolves to the port. */
  listenTcp(host: string, port: number, auth: MessageAuth): Promise<number> {
    const server = this.newServer(auth);
    return new Promise((resolve, reject) => {
      server.once('error', reject);
      server.listen({ host, port }, () => {
        server.removeListener('error', reject);
        resolve((server.address() as net.AddressInfo).port);
      });
    });
  }

  close(): Promise<void> {
    this.closing = true;
    for (const socket of this.sockets) socket.destroy();
    return Promise.all(this.servers.map((server) => new Promise<void>((resolve) => server.close(() => resolve())))).then(() => {});
  }

  private newServer(auth: MessageAuth | undefined): net.Server {
    const counts = { open: 0, unauth: 0 };
    const server = net.createServer((socket) => {
      const peer = socket.remoteAddress ? `${socket.remoteAddress}:${socket.remotePort}` : 'local';
      const { maxConnections, maxUnauthConnections } = this.limits;
      const over = counts.open >= maxConnections ? `${maxConnections} connections` : counts.unauth >= maxUnauthConnections ? `${maxUnauthConnections} unauthenticated connections` : undefined;
      if (over !== undefined) {
        socket.on('error', () => {});
        socket.destroy();
        this.refusedLog.note(`rpc: refused a connection from ${peer}: this listener already has ${over}`);
        return;
      }
      this.serve(socket, auth, peer, counts);
    });
    this.servers.push(server);
    return server;
  }

  private serve(socket: net.Socket, auth: MessageAuth | undefined, peer: string, counts: { open: number; unauth: number }): void {
    this.sockets.add(socket);
    counts.open++;
    counts.unauth++;
    socket.setNoDelay(true);
    const closeListeners: Array<() => void> = [];
    /** Whether a request came: the first one says whether this is a watcher's connection. */
    let answered = false;
    // A peer that neither authenticates nor finishes a message in time holds a slot for nothing.
    const timer = setTimeout(() => {
      this.log.error(`rpc: closing connection from ${peer}: no accepted message within ${this.limits.unauthTimeoutMs / 1000} s`);
      socket.destroy();
    }, this.limits.unauthTimeoutMs).unref();
    let unauth = true;
    const authenticated = (): void => {
      if (!unauth) return;
      unauth = false;
      counts.unauth--;
      clearTimeout(timer);
    };
    const link = new JsonLink(socket, {
      auth,
      limits: this.limits,
      budget: this.budget,
      onEstablished: authenticated,
      onCut: (reason) => this.log.error(`rpc: ${reason}`),
      // A command that sent too much learns why rather than seeing the connection drop.
      farewell: (why) => failure(0, { message: `Insane message length: ${why}`, code: 'SLURM_PROTOCOL_INSANE_MSG_LENGTH' }),
      onMessage: (message, identity) => {
        const connection: RpcConnection = { onClose: (listener) => closeListeners.push(listener), peer, ...(identity && { identity }) };
        const request = message as unknown as RpcRequest;
        if (request?.watch === true) {
          if (!answered) this.watchers.add(socket);
        } else {
          this.watchers.delete(socket);
          this.lastActive = Date.now();
        }
        answered = true;
        void this.handle(request, link, connection);
      },
      onRefused: (reason) => {
        this.log.error(`rpc: ${reason}; message refused`);
        // The sender learns why, unsealed: it cannot be trusted with anything else.
        if (!socket.destroyed) socket.write(`${JSON.stringify(failure(0, { message: 'Protocol authentication error', code: 'SLURM_PROTOCOL_AUTHENTICATION_ERROR' }))}\n`);
        // A peer that has not authenticated gets one try per connection.
        if (!link.established) {
          socket.pause();
          socket.end();
        }
      },
      onClose: () => {
        authenticated();
        counts.open--;
        this.sockets.delete(socket);
        if (!this.watchers.delete(socket)) this.lastActive = Date.now();
        if (!this.closing) closeListeners.forEach((listener) => listener());
      },
    });
  }

  private async handle(message: RpcRequest, link: JsonLink, connection: RpcConnection): Promise<void> {
    const id = typeof message?.id === 'number' ? message.id : 0;
    const problem = versionProblem(message?.v);
    if (problem !== undefined) {
      this.log.error(`rpc: ${problem}; request refused`);
      return void link.send(failure(id, { message: problem, code: 'SLURM_PROTOCOL_VERSION_ERROR' }));
    }
    const route = this.routes.get(message.op);
    if (!route) return void link.send(failure(id, { message: `unknown request "${String(message.op)}"` }));
    try {
      const claimed = connection.identity ? withIdentity(message.body, connection.identity) : message.body;
      const body = checkBody(message.op, route.body, claimed);
      const started = process.hrtime.bigint();
      const result = await route.handle(body, connection);
      this.stats?.note(message.op, requester(body, connection), Number((process.hrtime.bigint() - started) / 1000n));
      await link.send(answer(id, result));
    } catch (error) {
      if (error instanceof UserError) {
        void link.send(failure(id, { message: error.message, code: error.code, exitCode: error.exitCode }));
      } else {
        // A bug here, not the peer's mistake: the stack goes to this daemon's log, and the peer
        // gets Slurm's one line for it, which its command prints after what failed
        // (`sbatch: error: Batch job submission failed: Slurm internal error, ...`).
        this.log.error(`rpc: ${message.op} failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
        void link.send(failure(id, { message: slurm_strerror('ESLURM_INTERNAL'), code: 'ESLURM_INTERNAL' }));
      }
    }
  }
}

/** Who made a request: the credential's user, else the user its body names, else this daemon's. */
function requester(body: unknown, connection: RpcConnection): number {
  if (connection.identity) return connection.identity.uid;
  const named = (body as { userId?: unknown } | undefined)?.userId;
  return typeof named === 'number' ? named : (process.getuid?.() ?? 0);
}

/**
 * An authenticated request speaks for the user its credential names, whatever its body
 * claims: `userId` (and a submission's `userId`/`groupId`) are replaced by the credential's.
 * Root's submission keeps the owner it names (srun --uid/--gid, as slurmctld lets root submit
 * for another user).
 */
function withIdentity(body: unknown, identity: PeerIdentity): unknown {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return body;
  const out: Record<string, unknown> = { ...(body as Record<string, unknown>) };
  if ('userId' in out) out.userId = identity.uid;
  const desc = out.desc;
  if (typeof desc === 'object' && desc !== null && !(identity.uid === 0 && 'userId' in desc)) out.desc = { ...desc, userId: identity.uid, groupId: identity.gid };
  return out;
}
