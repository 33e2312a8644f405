// The one CLI boundary every bin goes through: load the command lazily, run it, and turn
// whatever it throws into `<bin>: error: <message>` and an exit status a script can rely on.
import { wantsStack } from './debug.js';
import { UserError, UserErrorReport } from '../core/errors.js';
import { errorLine } from './error-line.js';

export interface CommandModule {
  /** Runs the command on argv (without node and script); returns the exit status. */
  run(argv: string[], bin: string): Promise<number | void>;
  /**
   * The process ends as soon as `run` has returned and its stdout and stderr have taken what
   * it wrote, with its status, as a C command's exit() does: nothing the command left behind
   * (a plugin's timer) holds it, and Node's teardown of its heap is skipped. Only for a command
   * that awaits all of its own work (its files closed) and serves nothing afterwards.
   */
  readonly exitWhenDone?: boolean;
}

/** Entry point of a bin: `runCli('tsrun', () => import('../dist/commands/tsrun.js'))`. */
export async function runCli(bin: string, load: () => Promise<CommandModule>, argv: string[] = process.argv.slice(2)): Promise<void> {
  // A reader that went away (`tsinfo | head`) ends the command quietly, as SIGPIPE ends a C
  // program; the status is the shell's for a process killed by SIGPIPE.
  // The streams the command made, whose queued output the end waits for (see exitWhenDone).
  const made: NodeJS.WriteStream[] = [];
  whenStreamMade('stderr', (stderr) => made.push(stderr));
  whenStdoutMade((stdout) => {
    made.push(stdout);
    stdout.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'EPIPE') process.exit(141);
      throw error;
    });
  });
  try {
    const mod = await load();
    const status = await mod.run(argv, bin);
    if (typeof status === 'number') process.exitCode = status;
    if (mod.exitWhenDone) {
      // A pipe whose reader is behind leaves output queued in Node, which process.exit drops.
      // (Only the streams the command made: asking for one here would make it.) A turn of the
      // loop first, so that a write that already failed (EPIPE) ends the command as above.
      await new Promise((resolve) => setImmediate(resolve));
      await Promise.all(made.map(written));
      process.exit();
    }
  } catch (error) {
    process.exitCode = reportError(bin, error, argv);
  }
}

/**
 * Calls `ready` with process.stdout once something first uses it. Node makes the stream on
 * first access (a socket, TTY or file stream: a few ms of start-up), and a command that
 * prints nothing on stdout, as `tsrun true`, never needs it; Node's own getter keeps the one
 * stream it made, so the wrapper only adds the first call.
 */
export function whenStdoutMade(ready: (stdout: NodeJS.WriteStream) => void): void {
  whenStreamMade('stdout', ready);
}

/** whenStdoutMade for either of the two streams Node makes on first access. */
function whenStreamMade(name: 'stdout' | 'stderr', ready: (stream: NodeJS.WriteStream) => void): void {
  const own = Object.getOwnPropertyDescriptor(process, name);
  const make = own?.get;
  if (make === undefined || own?.configurable !== true) {
    ready(process[name]);
    return;
  }
  Object.defineProperty(process, name, {
    configurable: true,
    enumerable: own.enumerable,
    get() {
      const stream = make.call(process) as NodeJS.WriteStream;
      Object.defineProperty(process, name, own);
      ready(stream);
      return stream;
    },
  });
}

/** Resolves once everything written to `stream` so far is out of Node's hands (or cannot be). */
function written(stream: NodeJS.WriteStream): Promise<void> {
  if (stream.writableLength === 0 || stream.destroyed) return Promise.resolve();
  return new Promise((resolve) => stream.write('', () => resolve()));
}

/** Prints an error the way the boundary does and returns the exit status to use. */
export function reportError(bin: string, error: unknown, argv: readonly string[] = []): number {
  const stack = wantsStack(argv);
  if (error instanceof UserErrorReport) {
    process.stderr.write(error.lines.map((line) => ('error' in line ? errorLine(bin, line.error) : `${line.plain}\n`)).join(''));
    if (stack && error.stack) process.stderr.write(`${error.stack}\n`);
    return error.exitCode;
  }
  if (error instanceof UserError) {
    // A bare error without text: the command has said what went wrong already.
    if (error.bare) process.stderr.write(error.message === '' ? '' : `${error.message}\n`);
    else writeErrorLines(bin, error.message.split('\n'));
    if (stack && error.stack) process.stderr.write(`${error.stack}\n`);
    return error.exitCode;
  }
  const message = error instanceof Error ? error.message : String(error);
  process.stderr.write(`${bin}: internal error: ${message}\n`);
  if (stack) process.stderr.write(`${error instanceof Error ? error.stack : ''}\n`);
  else process.stderr.write(`${bin}: rerun with TSLURM_DEBUG=1 for the stack trace\n`);
  return 1;
}

function writeErrorLines(bin: string, lines: readonly string[]): void {
  process.stderr.write(lines.map((line) => errorLine(bin, line)).join(''));
}
