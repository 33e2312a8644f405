// A child the spawn server started (os/spawn-server.ts), dressed as the ChildProcess Node's
// own spawn gives, so that the step host's code handles both alike: pid, stdio streams (the
// sockets the child connected back with), kill(), exitCode and signalCode, and the events
// 'spawn', 'exit' and then 'close' once its readable streams are closed too, as Node orders them.
import { constants } from 'node:os';
import type { Duplex } from 'node:stream';
import { ChildProcess, type ChildEnd } from './spawn.js';
import type { WaitRusage } from './spawn-server-frames.js';

const signalNames = new Map(Object.entries(constants.signals).map(([name, number]) => [number, name as NodeJS.Signals]));

export class ServedChild extends ChildProcess {
  /** What the server's wait4 said the child and what it reaped used, once it has ended. */
  rusage: WaitRusage | undefined;
  private closesLeft = 1;
  private execError: string | undefined;

  /** `streams[i]`: the child's fd i when it was asked for as a pipe, else null. */
  constructor(pid: number, streams: readonly (Duplex | null)[], argv: readonly string[]) {
    super();
    const stdio = [0, 1, 2].map((i) => streams[i] ?? null).concat(streams.slice(3));
    Object.assign(this, { pid, stdio, stdin: stdio[0], stdout: stdio[1], stderr: stdio[2], spawnfile: argv[0], spawnargs: [...argv] });
    // The child's stdin is ours to write: what it might send back on that socket is dropped.
    streams[0]?.resume();
    // Node counts the readable streams (all but stdin) and the exit before 'close'.
    for (const stream of streams.slice(1)) {
      if (!stream) continue;
      this.closesLeft++;
      stream.once('close', () => this.closed());
    }
    queueMicrotask(() => this.emit('spawn'));
  }

  /** The server's report of how the child ended (a wait status taken apart, and its rusage). */
  ended(code: number, signal: number, rusage?: WaitRusage): void {
    this.rusage = rusage;
    const name = signal === 0 ? null : (signalNames.get(signal) ?? 'SIGKILL');
    Object.assign(this, { exitCode: name ? null : code, signalCode: name });
    // As Node's own: stdin goes with the child, and output nobody read is pulled through on
    // the next tick (so that it reaches its end and closes), after 'exit'.
    this.stdin?.destroy();
    this.emit('exit', name ? null : code, name);
    process.nextTick(() => this.stdio.slice(1).forEach((stream) => (stream as Duplex | null)?.readable && (stream as Duplex).resume()));
    this.closed();
  }

  /** Its execve failed with `errno` (a name): the process exited 127 without running the program. */
  execFailed(errno: string): void {
    this.execError = errno;
    this.ended(127, 0);
  }

  /** The same end, as spawn.ts's ChildEnd. */
  end(): ChildEnd {
    if (this.execError !== undefined) return { kind: 'exec-failed', errno: this.execError, message: `spawn ${this.spawnfile} ${this.execError}` };
    return this.signalCode ? { kind: 'signaled', signal: this.signalCode } : { kind: 'exited', code: this.exitCode ?? 0 };
  }

  override kill(signal: NodeJS.Signals | number = 'SIGTERM'): boolean {
    if (this.exitCode !== null || this.signalCode !== null) return false;
    try {
      process.kill(this.pid!, signal);
      Object.assign(this, { killed: true });
      return true;
    } catch {
      return false;
    }
  }

  // Not a libuv process: nothing of ours to reference (the server's pipe is, while it runs).
  override ref(): void {}
  override unref(): void {}

  private closed(): void {
    if (--this.closesLeft === 0) this.emit('close', this.exitCode, this.signalCode);
  }
}
