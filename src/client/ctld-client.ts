// How a command reaches the controller (DESIGN.md §2): the Unix socket in the state
// directory. When nothing answers there, the command starts a tsctld for this cluster on
// demand (detached, logging to the state directory) and waits for its socket, so a fresh
// user needs no set-up. Two commands starting one at once is harmless: the second tsctld
// finds the state directory locked and leaves, and both commands use the first.
import { ensureDir } from '../core/ensure-dir.js';
import net from 'node:net';
import { spawn } from 'node:child_process';
import { openSync, closeSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { UserError } from '../core/errors.js';
import { errnoValue, type ErrnoName } from '../core/errno.js';
import { encodeMessage, lineReader, request, type RpcResponse } from '../protocol/rpc.js';

const START_TIMEOUT_MS = 15_000;

export class ControllerError extends UserError {}

/** The controller went away while a request was open (it was stopped or killed). */
export class ConnectionLost extends UserError {
  constructor() {
    super('Unable to contact slurm controller (connection lost)');
  }
}

export class CtldClient {
  private nextId = 1;
  private lostConnection = false;
  private readonly pending = new Map<number, { resolve: (r: RpcResponse) => void; reject: (e: Error) => void }>();

  private constructor(private readonly socket: net.Socket) {
    socket.on(
      'data',
      lineReader(
        (message) => {
          const response = message as RpcResponse;
          const waiter = this.pending.get(response.id);
          this.pending.delete(response.id);
          waiter?.resolve(response);
        },
        () => {},
      ),
    );
    const lost = (): void => {
      this.lostConnection = true;
      for (const waiter of this.pending.values()) waiter.reject(new ConnectionLost());
      this.pending.clear();
    };
    socket.on('close', lost);
    socket.on('error', lost);
  }

  static connect(socketPath: string): Promise<CtldClient> {
    return new Promise((resolve, reject) => {
      const socket = net.createConnection(socketPath);
      socket.once('connect', () => {
        socket.removeAllListeners('error');
        resolve(new CtldClient(socket));
      });
      socket.once('error', reject);
    });
  }

  /** Sends a request; a refusal becomes a UserError with the controller's text and errno. */
  async call<T>(op: string, body?: unknown): Promise<T> {
    const id = this.nextId++;
    // A request on a connection already lost would wait for ever.
    if (this.lostConnection) throw new ConnectionLost();
    const response = await new Promise<RpcResponse>((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.socket.write(encodeMessage(request(id, op, body)));
    });
    if (response.ok) return response.body as T;
    const code = response.error.code as ErrnoName | undefined;
    throw new ControllerError(response.error.message, {
      ...(code !== undefined && safeErrno(code) ? { code } : {}),
      exitCode: response.error.exitCode ?? 1,
    });
  }

  close(): void {
    this.socket.end();
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
}

export async function connectController(options: ConnectOptions): Promise<CtldClient> {
  const socketPath = path.join(options.stateDir, 'tsctld.sock');
  try {
    return await CtldClient.connect(socketPath);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (!options.autostart || (code !== 'ENOENT' && code !== 'ECONNREFUSED')) throw unreachable(error);
  }
  startController(options);
  const deadline = Date.now() + START_TIMEOUT_MS;
  for (let delay = 10; ; delay = Math.min(delay * 2, 200)) {
    await new Promise((resolve) => setTimeout(resolve, delay));
    try {
      return await CtldClient.connect(socketPath);
    } catch (error) {
      if (Date.now() > deadline) throw unreachable(error, path.join(options.stateDir, 'tsctld.log'));
    }
  }
}

function startController(options: ConnectOptions): void {
  try {
    ensureDir(options.stateDir);
  } catch (error) {
    throw new UserError(`state directory ${options.stateDir} is not writable: ${(error as NodeJS.ErrnoException).code ?? ''}`);
  }
  const bin = fileURLToPath(new URL('../../bin/tsctld.js', import.meta.url));
  const args = [bin, '--idle-exit', process.env.TSLURM_CTLD_IDLE_EXIT ?? '300'];
  if (options.clusterFile !== undefined) args.push('--cluster', options.clusterFile);
  const log = openSync(path.join(options.stateDir, 'tsctld.log'), 'a', 0o600);
  try {
    const child = spawn(process.execPath, args, {
      detached: true,
      stdio: ['ignore', log, log],
      env: { ...process.env, TSLURM_STATE_DIR: options.stateDir },
    });
    child.on('error', () => {});
    child.unref();
  } finally {
    closeSync(log);
  }
}

function unreachable(error: unknown, logFile?: string): UserError {
  const why = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
  const see = logFile ? ` (see ${logFile})` : '';
  return new UserError(`Unable to contact slurm controller (${why})${see}`, { code: 'SLURM_ERROR' });
}
