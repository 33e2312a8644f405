// How a command reaches the controller (DESIGN.md §2): the Unix socket in the state
// directory. When nothing answers there, the command starts a tsctld for this cluster on
// demand (start-controller.ts) and waits for its socket, so a fresh user needs no set-up; a
// controller that cannot start says why at once. Two commands starting one at once is
// harmless: the second tsctld finds the state directory locked and leaves, and both
// commands use the first.
import type net from 'node:net';
import path from 'node:path';
import { UserError } from '../core/errors.js';
import { errnoValue, type ErrnoName } from '../core/errno.js';
import { request, type RpcResponse } from '../protocol/rpc.js';
import type { CtldBody, CtldOp } from '../protocol/ctld-messages.js';
import type { StepdBody, StepdOp } from '../protocol/stepd-messages.js';
import { connectEndpoint, type Endpoint } from '../net/endpoint.js';
import { JsonLink } from '../net/json-link.js';
import type { MessageAuth } from '../net/message-auth.js';
import type { ClusterConfig } from '../config/types.js';
import { remoteController } from './controller-target.js';
import { checkTrustedDir } from '../config/trusted-path.js';

const START_TIMEOUT_MS = 15_000;

export class ControllerError extends UserError {}

/** The controller went away while a request was open (it was stopped or killed). */
export class ConnectionLost extends UserError {
  constructor() {
    super('Unable to contact slurm controller (connection lost)');
  }
}

/** A controller to talk to: the path of its Unix socket, or a TCP controller (controller-target.ts). */
export type CtldTarget = string | { endpoint: Endpoint; auth: MessageAuth };

/** What a request may carry: the body its schema describes (the daemon checks it on receipt). */
type Bodies = { [K in CtldOp]: CtldBody<K> } & { [K in StepdOp]: StepdBody<K> };
type Op = CtldOp | StepdOp;
/** `[op, body]`, the body optional only where the schema allows none. */
export type CallArgs = { [K in Op]: undefined extends Bodies[K] ? [op: K, body?: Bodies[K]] : [op: K, body: Bodies[K]] }[Op];

export class CtldClient {
  private nextId = 1;
  private lostConnection = false;
  private readonly pending = new Map<number, { resolve: (r: RpcResponse) => void; reject: (e: Error) => void }>();
  private readonly link: JsonLink;

  private constructor(socket: net.Socket, auth: MessageAuth | undefined) {
    const lost = (): void => {
      this.lostConnection = true;
      for (const waiter of this.pending.values()) waiter.reject(new ConnectionLost());
      this.pending.clear();
    };
    this.link = new JsonLink(socket, {
      auth,
      onMessage: (message) => {
        const response = message as unknown as RpcResponse;
        // A refusal of our credential comes with id 0: it fails every open request.
        if (response.id === 0 && !response.ok) {
          for (const waiter of this.pending.values()) waiter.resolve(response);
          this.pending.clear();
          return;
        }
        const waiter = this.pending.get(response.id);
        this.pending.delete(response.id);
        waiter?.resolve(response);
      },
      // An answer whose credential does not verify is not an answer; its request then fails.
      onRefused: () => {},
      onClose: lost,
    });
    socket.on('error', lost);
  }

  /** Connects to a Unix socket path, or to a TCP endpoint whose messages `auth` seals. */
  static async connect(target: string | Endpoint, auth?: MessageAuth): Promise<CtldClient> {
    const endpoint = typeof target === 'string' ? { path: target } : target;
    const socket = await connectEndpoint(endpoint);
    return new CtldClient(socket, 'path' in endpoint ? undefined : auth);
  }

  /** Connects to a controller: its Unix socket path, or its TCP address with the auth to seal with. */
  static open(target: CtldTarget): Promise<CtldClient> {
    return typeof target === 'string' ? CtldClient.connect(target) : CtldClient.connect(target.endpoint, target.auth);
  }

  /** Sends a request; a refusal becomes a UserError with the controller's text and errno. */
  call<T>(...args: CallArgs): Promise<T> {
    return this.send<T>(args, false);
  }

  /** A watcher's request (protocol/rpc.ts `watch`): it does not keep the controller from its idle exit. */
  watch<T>(...args: CallArgs): Promise<T> {
    return this.send<T>(args, true);
  }

  private async send<T>([op, body]: CallArgs, watch: boolean): Promise<T> {
    const id = this.nextId++;
    // A request on a connection already lost would wait for ever.
    if (this.lostConnection) throw new ConnectionLost();
    const response = await new Promise<RpcResponse>((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.link.send(request(id, op, body, watch)).catch(reject);
    });
    if (response.ok) return response.body as T;
    const code = response.error.code as ErrnoName | undefined;
    throw new ControllerError(response.error.message, {
      ...(code !== undefined && safeErrno(code) ? { code } : {}),
      exitCode: response.error.exitCode ?? 1,
    });
  }

  /** Whether the connection is gone (the controller stopped): a long-lived user opens a new one. */
  get lost(): boolean {
    return this.lostConnection;
  }

  /** This end's address on a TCP connection: one the controller's network reaches this host by. */
  get localAddress(): string | undefined {
    return this.link.socket.localAddress;
  }

  /**
   * Ends the connection. What was sent still goes out (the end waits for it), but the process
   * does not wait for the controller to close its side: a short command exits at once.
   */
  close(): void {
    this.link.end();
    this.link.socket.unref();
  }
}

function safeErrno(code: ErrnoName): boolean {
  try {
    errnoValue(code);
    return true;
  } catch {
    return false;
  }
}

export interface ConnectOptions {
  stateDir: string;
  /** The cluster file the controller must run with (undefined: the built-in cluster). */
  clusterFile: string | undefined;
  /** Start a controller when none answers (embedded mode). */
  autostart: boolean;
  /** The cluster: when it names a `control.address`, that TCP controller is used instead. */
  config?: ClusterConfig;
}

export async function connectController(options: ConnectOptions): Promise<CtldClient> {
  const remote = options.config ? await remoteController(options.config) : undefined;
  if (remote) return CtldClient.connect(remote.endpoint, remote.auth).catch((error: unknown) => Promise.reject(unreachable(error)));
  // Nothing in a directory another user may write is trusted, its socket neither.
  checkTrustedDir(options.stateDir);
  const socketPath = path.join(options.stateDir, 'tsctld.sock');
  try {
    return await CtldClient.connect(socketPath);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (!options.autostart || (code !== 'ENOENT' && code !== 'ECONNREFUSED')) throw unreachable(error);
  }
  const { startControllerOnDemand } = await import('./start-controller.js');
  const started = startControllerOnDemand({ stateDir: options.stateDir, clusterFile: options.clusterFile });
  const deadline = Date.now() + START_TIMEOUT_MS;
  // The first try comes as soon as the controller says `ready` on its pipe; the poll covers one
  // that does not say it (another command's controller serving us after a race).
  let said: Promise<unknown> | undefined = started.said;
  for (let delay = 10; ; delay = Math.min(delay * 2, 200)) {
    let timer: NodeJS.Timeout | undefined;
    const tick = new Promise((resolve) => (timer = setTimeout(resolve, delay)));
    const first = await Promise.race(said ? [said.then(() => 'said'), tick] : [tick]);
    clearTimeout(timer);
    if (first === 'said') said = undefined;
    const outcome = started.outcome();
    if (outcome?.kind === 'failed') throw outcome.error;
    try {
      return await CtldClient.connect(socketPath);
    } catch (error) {
      if (Date.now() > deadline) throw unreachable(error, path.join(options.stateDir, 'tsctld.log'));
    }
  }
}

function unreachable(error: unknown, logFile?: string): UserError {
  const why = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
  const see = logFile ? ` (see ${logFile})` : '';
  return new UserError(`Unable to contact slurm controller (${why})${see}`, { code: 'SLURM_ERROR' });
}
