// The step host's client of its spawn server (native/spawn-server): Node's own spawn forks the
// whole Node process and holds its event loop until the child has exec'd (milliseconds per
// task at a step host's heap), so the step host asks a small C process, started once, to fork
// its tasks and batch scripts instead. A child's stdio pipes are sockets it connects back to
// this process with before its execve (Node cannot receive descriptors), naming itself with a
// secret token; a file descriptor of ours is reopened by the child through /proc when that is
// the same (see fd-plan.ts). What the server cannot do, or a host without the helper (no C
// compiler at build time), goes through Node's spawn as before: startServedChild decides.
import net, { type Server, type Socket } from 'node:net';
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { constants as osConstants } from 'node:os';
import path from 'node:path';
import { getSystemErrorName } from 'node:util';
import { PassThrough, type Duplex } from 'node:stream';
import { ChildProcess, startChild, type ChildEnd, type ChildOptions, type StartedChild } from './spawn.js';
import { encodeHello, encodeSpawn, ReplyReader, type FdPlan, type Reply, type TaskSetup, type WaitRusage } from './spawn-server-frames.js';
import { fdPlans } from './fd-plan.js';
import { ServedChild } from './served-child.js';
import { envArrayToObject } from '../core/env-array.js';
import { runtimeBase } from './runtime-dir.js';

const SECRET_BYTES = 16;
const TOKEN_BYTES = SECRET_BYTES + 8;
/** sun_path holds 108 bytes with its NUL. */
const SOCKET_PATH_MAX = 107;

let current: SpawnServer | undefined;

/** startChild's options; the environment may be a list of NAME=value (as the step host keeps it). */
export interface ServedOptions extends Omit<ChildOptions, 'env'> {
  env?: NodeJS.ProcessEnv | readonly string[] | undefined;
  /**
   * How the server may start this child other than by running `argv` as it is: work a wrapper
   * would do in the child before its exec done by the server's child instead (the step host's
   * task exec helper, stepd/task-exec-fold.ts). Undefined: `argv` as it is.
   */
  serve?: ((argv: readonly string[], options: ServedOptions) => ServedForm | undefined) | undefined;
}

/** A child as the server starts it when `serve` gave a form: what replaces argv and options. */
export interface ServedForm {
  argv: readonly string[];
  stdio: ChildOptions['stdio'];
  cwd?: string | undefined;
  umask?: number | undefined;
  ids?: { uid: number; gid: number; groups: readonly number[] } | undefined;
  setup: TaskSetup;
}

/** A started child, and whether the spawn server started it (in `serve`'s form, if it gave one). */
export interface ServedStart extends StartedChild {
  served: boolean;
}

/**
 * Starts `argv` as startChild does, through the spawn server `helper` when it is given and can
 * start this child, else through Node's spawn. Resolves once the child runs (or failed to).
 */
export async function startServedChild(helper: string | undefined, argv: readonly string[], options: ServedOptions = {}): Promise<ServedStart> {
  const form = helper === undefined ? undefined : options.serve?.(argv, options);
  const plans = helper === undefined ? undefined : fdPlans(form ? form.stdio : options.stdio);
  const server = plans && serverFor(helper!);
  if (!server) return { ...nodeSpawn(argv, options), served: false };
  const started = await server.spawn(argv, options, plans!, form);
  // Not the server's when it could not run at all (Node's spawn then started `argv` as asked).
  return { ...started, served: started.child instanceof ServedChild };
}

function nodeSpawn(argv: readonly string[], options: ServedOptions): StartedChild {
  const { serve: _unused, env, ...rest } = options;
  return startChild(argv, { ...rest, env: isList(env) ? envArrayToObject(env) : env });
}

function isList(env: ServedOptions['env']): env is readonly string[] {
  return Array.isArray(env);
}

/** The pid of the spawn server this process runs now, if any (for tests and logs). */
export function spawnServerPid(): number | undefined {
  return current?.pid;
}

/** Whether the spawn server keeps this process alive now (it must not once no child is left). */
export function spawnServerHoldsLoop(): boolean {
  return current?.holdsLoop() ?? false;
}

function serverFor(helper: string): SpawnServer | undefined {
  if (current?.usable) return current;
  try {
    current = new SpawnServer(helper);
  } catch {
    current = undefined; // no socket of ours to connect back to: Node's spawn does it all
  }
  return current;
}

interface Waiting {
  /** What the child runs (the served form's argv), and what was asked (for Node's spawn). */
  argv: readonly string[];
  asked: readonly string[];
  options: ServedOptions;
  group: boolean;
  /** Indices of the streams still to connect back. */
  expect: Set<number>;
  streams: (Socket | null)[];
  pid?: number;
  /** Its end, or its execve's errno, when that came before it was handed over. */
  exit?: ChildEndReply;
  resolve(started: StartedChild): void;
}

class SpawnServer {
  usable = true;
  readonly pid: number | undefined;
  private readonly secret = randomBytes(SECRET_BYTES);
  private readonly waiting = new Map<number, Waiting>();
  private readonly running = new Map<number, { child: ServedChild; group: boolean }>();
  private readonly listener: Server;
  private readonly process: ChildProcess;
  private readonly dir: string;
  private nextId = 1;
  private corked = false;

  constructor(helper: string) {
    this.dir = mkdtempSync(path.join(runtimeBase(), 'tslurm-spawn-'));
    const socketPath = path.join(this.dir, 's');
    if (Buffer.byteLength(socketPath) > SOCKET_PATH_MAX) {
      rmSync(this.dir, { recursive: true, force: true });
      throw new Error(`socket path too long: ${socketPath}`);
    }
    // Listening is synchronous for a Unix socket: a child may connect from the first request on.
    this.listener = net.createServer((socket) => this.accepted(socket)).listen(socketPath);
    this.listener.on('error', () => this.lost(undefined));
    this.listener.unref();
    // Its own session: a Ctrl-C at the terminal of a foreground tsstepd does not reach it. No
    // environment: each request brings its child's, and nothing of the host's is its business.
    // TSLURM_SPAWN_CLONE3=0: tasks join their cgroup by a write, as on a kernel without clone3.
    const args = process.env.TSLURM_SPAWN_CLONE3 === '0' ? ['--no-clone3'] : [];
    const started = startChild([helper, ...args], { stdio: ['pipe', 'pipe', 'inherit'], detached: true, env: {} });
    this.process = started.child;
    this.pid = started.child.pid;
    this.process.unref();
    (this.process.stdin as Socket | null)?.unref();
    const reader = new ReplyReader();
    this.process.stdout!.on('data', (chunk: Buffer) => reader.push(chunk).forEach((reply) => this.replied(reply)));
    // Gone only once its last replies are read (the pipe closed) and it has exited.
    void started.closed.then(() => started.ended).then((end) => this.lost(end));
    this.process.stdin!.write(encodeHello(this.secret, socketPath));
    this.updateRef();
  }

  spawn(asked: readonly string[], options: ServedOptions, fds: readonly FdPlan[], form: ServedForm | undefined): Promise<StartedChild> {
    const id = this.nextId++;
    const group = options.detached === true;
    const argv = form?.argv ?? asked;
    const ids = options.uid !== undefined || options.gid !== undefined ? { uid: options.uid ?? process.getuid!(), gid: options.gid ?? process.getgid!() } : undefined;
    const request = encodeSpawn({
      id,
      argv,
      env: envEntries(options.env ?? process.env),
      cwd: form?.cwd ?? options.cwd ?? process.cwd(),
      setsid: group,
      ids: form?.ids ?? ids,
      // The child takes the umask this process has now, as a forked child would.
      umask: form?.umask ?? currentUmask(),
      fds,
      setup: form?.setup,
    });
    const expect = new Set(fds.flatMap((plan, i) => (plan.kind === 'connect' ? [i] : [])));
    return new Promise((resolve) => {
      this.waiting.set(id, { argv, asked, options, group, expect, streams: fds.map(() => null), resolve });
      this.send(request);
      this.updateRef();
    });
  }

  /**
   * The requests of one turn of the event loop (a node's share of a step, every node's in the
   * embedded host) go to the server in one write, not one per task: the pipe write and the
   * server's wake-up for each were a sixth of the step host's CPU in `tsrun -n256`.
   */
  private send(frame: Buffer): void {
    const stdin = this.process.stdin!;
    if (!this.corked) {
      this.corked = true;
      stdin.cork();
      process.nextTick(() => {
        this.corked = false;
        stdin.uncork();
      });
    }
    stdin.write(frame);
  }

  private replied(reply: Reply): void {
    const waiting = this.waiting.get(reply.id);
    if (reply.type === 'started' && waiting) {
      waiting.pid = reply.pid;
      this.settle(reply.id, waiting);
    } else if (reply.type === 'failed' && waiting && waiting.pid === undefined) {
      // Not even set up (stdio, chdir, ids): no process to speak of, as Node's spawn has none.
      this.waiting.delete(reply.id);
      waiting.streams.forEach((stream) => stream?.destroy());
      waiting.resolve(notStarted(waiting.argv, getSystemErrorName(-reply.errno)));
    } else {
      // Its end, or its failed execve: the process ran, as the pid it had said.
      const end: ChildEndReply | undefined =
        reply.type === 'failed' ? { errno: reply.errno } : reply.type === 'ended' ? { code: reply.code, signal: reply.signal, rusage: reply.rusage } : undefined;
      const running = this.running.get(reply.id);
      if (end && running) {
        this.running.delete(reply.id);
        endLater(running.child, end);
      } else if (end && waiting) waiting.exit = end;
    }
    this.updateRef();
  }

  // A child's stream connecting back: its token first, then it is that child's fd.
  private accepted(socket: Socket): void {
    socket.on('error', () => {}); // a child's stream reset is its end, not ours
    const onReadable = (): void => {
      const token = (socket.read(TOKEN_BYTES) as Buffer | null) ?? (socket.readableEnded ? Buffer.alloc(0) : null);
      if (token === null) return;
      socket.off('readable', onReadable);
      this.route(socket, token);
    };
    socket.on('readable', onReadable);
  }

  private route(socket: Socket, token: Buffer): void {
    const genuine = token.length === TOKEN_BYTES && timingSafeEqual(token.subarray(0, SECRET_BYTES), this.secret);
    const id = genuine ? token.readUInt32LE(SECRET_BYTES) : 0;
    const index = genuine ? token.readUInt32LE(SECRET_BYTES + 4) : 0;
    const waiting = this.waiting.get(id);
    if (!waiting?.expect.delete(index)) return void socket.destroy();
    waiting.streams[index] = socket;
    this.settle(id, waiting);
  }

  // Started and every stream connected: the child is handed over.
  private settle(id: number, waiting: Waiting): void {
    if (waiting.pid === undefined || waiting.expect.size > 0) return;
    this.waiting.delete(id);
    const child = new ServedChild(waiting.pid, waiting.streams.map(unlessGone), waiting.argv);
    const ended = new Promise<ChildEnd>((resolve) => child.once('exit', () => resolve(child.end())));
    const closed = new Promise<void>((resolve) => child.once('close', () => resolve()));
    waiting.resolve({ child, ended, closed });
    if (waiting.exit) endLater(child, waiting.exit);
    else this.running.set(id, { child, group: waiting.group });
    // Its last stream may come after its end: nothing may be left holding this process.
    this.updateRef();
  }

  /**
   * The server is gone (killed: it never leaves on its own while we live). Its children are
   * orphans whose ends nobody can report now, so they are killed, and end so; requests it
   * never answered fail, or, when it never ran at all, start through Node's spawn instead.
   */
  private lost(end: ChildEnd | undefined): void {
    if (!this.usable) return;
    this.usable = false;
    this.listener.close();
    rmSync(this.dir, { recursive: true, force: true });
    if (this.running.size > 0) process.stderr.write(`tsspawn_server ${this.pid ?? ''} is gone: killing its ${this.running.size} children, whose ends it can no longer report\n`);
    for (const { child, group } of this.running.values()) {
      for (const target of group ? [-child.pid!, child.pid!] : [child.pid!]) {
        try {
          process.kill(target, 'SIGKILL');
        } catch {
          // already gone
        }
      }
      endLater(child, { code: 0, signal: osConstants.signals.SIGKILL });
    }
    this.running.clear();
    const neverRan = end?.kind === 'exec-failed';
    for (const waiting of this.waiting.values()) {
      waiting.streams.forEach((stream) => stream?.destroy());
      waiting.resolve(neverRan ? nodeSpawn(waiting.asked, waiting.options) : notStarted(waiting.argv, 'ECHILD'));
    }
    this.waiting.clear();
    this.updateRef();
  }

  holdsLoop(): boolean {
    const handle = (this.process.stdout as unknown as { _handle?: { hasRef?(): boolean } } | null)?._handle;
    return handle?.hasRef?.() ?? false;
  }

  // The server's pipe keeps this process alive while a child is starting or running, as
  // Node's own child handles do, and not otherwise.
  private updateRef(): void {
    const stdout = this.process.stdout as Socket | null;
    if (this.usable && this.waiting.size + this.running.size > 0) stdout?.ref();
    else stdout?.unref();
  }
}

/**
 * A child's end is told on a later turn of the loop than its start, however close together
 * the server's replies came: its caller has had the child and wired its streams by then (its
 * awaits are microtasks), and the end pulls unread output through, as Node's does.
 */
function endLater(child: ServedChild, end: ChildEndReply): void {
  setImmediate(() => ('errno' in end ? child.execFailed(getSystemErrorName(-end.errno)) : child.ended(end.code, end.signal, end.rusage)));
}

/** A child's end as the server told it: its wait status and rusage, or its execve's errno. */
type ChildEndReply = { code: number; signal: number; rusage?: WaitRusage } | { errno: number };

/**
 * A stream that reached its end while the child was being handed over (net ends an empty
 * stream at its EOF, read or not) is replaced by an empty one that ends when read, as the
 * stream of a Node child would still do for whoever reads it.
 */
function unlessGone(stream: Socket | null): Duplex | null {
  if (!stream || !(stream.readableEnded || stream.destroyed)) return stream;
  const empty = new PassThrough();
  empty.end();
  return empty;
}

/** A child that never ran, as Node's spawn leaves one: no pid, an exec failure as its end. */
function notStarted(argv: readonly string[], errno: string): StartedChild {
  const child = Object.assign(new ChildProcess(), { stdin: null, stdout: null, stderr: null, stdio: [null, null, null] });
  const end: ChildEnd = { kind: 'exec-failed', errno, message: `spawn ${argv[0]} ${errno}` };
  return { child, ended: Promise.resolve(end), closed: Promise.resolve() };
}

/** The environment as NAME=value entries: a list as envArrayToObject reads it (first of a name wins). */
function envEntries(env: NodeJS.ProcessEnv | readonly string[]): readonly string[] {
  if (!isList(env)) return Object.entries(env).flatMap(([key, value]) => (value === undefined ? [] : [`${key}=${value}`]));
  const names = new Set<string>();
  return env.filter((entry) => {
    const eq = entry.indexOf('=');
    if (eq <= 0 || names.has(entry.slice(0, eq))) return false;
    names.add(entry.slice(0, eq));
    return true;
  });
}

function currentUmask(): number {
  const mask = process.umask(0o022);
  process.umask(mask);
  return mask;
}

