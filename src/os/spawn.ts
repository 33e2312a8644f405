// Every child process tslurm starts goes through here (test/unit/structure/spawn-imports.test.ts
// keeps it so), with the same house rules: a child that cannot be started (ENOENT, EACCES) or
// a pipe to a child that died early (EPIPE) never becomes an unhandled 'error' that takes the
// daemon or command down, but an outcome its caller folds into Slurm's terms; a daemon of its
// own runs in its own session and does not keep this process alive. Finding our own native
// helpers stays in stepd/native-helper.ts; what to run is the caller's business.
import { ChildProcess, spawn, spawnSync, type SpawnOptions, type StdioOptions } from 'node:child_process';
import type { Writable } from 'node:stream';
import { readFileSync } from 'node:fs';

export { ChildProcess };

/** How a child ended: its exit code, the signal that ended it, or why it never ran. */
export type ChildEnd =
  | { kind: 'exited'; code: number }
  | { kind: 'signaled'; signal: NodeJS.Signals }
  | { kind: 'exec-failed'; errno: string; message: string };

export interface StartedChild {
  child: ChildProcess;
  /** Resolves once the child's own process has ended, or failed to start. */
  ended: Promise<ChildEnd>;
  /** Resolves once its stdio pipes are closed too (a daemonised grandchild may hold them open). */
  closed: Promise<void>;
}

export interface ChildOptions {
  cwd?: string | undefined;
  env?: NodeJS.ProcessEnv | undefined;
  stdio?: StdioOptions;
  /** Its own process group and session (setsid). */
  detached?: boolean;
  uid?: number | undefined;
  gid?: number | undefined;
}

/** Starts `argv[0]` with `argv.slice(1)`; a failure to start arrives as `ended`, never as a throw or an 'error' event. */
export function startChild(argv: readonly string[], options: ChildOptions = {}): StartedChild {
  const [file, ...args] = argv;
  const child = spawn(file!, args, withoutUndefined(options));
  quietStdin(child.stdin);
  const ended = new Promise<ChildEnd>((resolve) => {
    // Start errors arrive instead of a process, and no 'exit' follows them.
    child.once('error', (error: NodeJS.ErrnoException) => resolve({ kind: 'exec-failed', errno: error.code ?? 'EIO', message: error.message }));
    child.once('exit', (code, signal) => resolve(signal ? { kind: 'signaled', signal } : { kind: 'exited', code: code ?? 0 }));
  });
  const closed = new Promise<void>((resolve) => {
    child.once('close', () => resolve());
    child.once('error', () => resolve());
  });
  return { child, ended, closed };
}

/**
 * Starts a daemon of its own (the controller, the reaper): its own session, so a Ctrl-C at the
 * terminal leaves it alone, and unreferenced, so it does not keep this process alive.
 */
export function startDetached(argv: readonly string[], options: Omit<ChildOptions, 'detached'> = {}): ChildProcess {
  const { child } = startChild(argv, { ...options, detached: true });
  child.unref();
  return child;
}

/**
 * Whether the child's process has ended, known to us or not yet: a child of the spawn server
 * is reaped there and its end reaches us a moment later, when a step may already have found
 * its pid gone (proctrack_p_add of a task that ended at once).
 */
export function childGone(child: ChildProcess): boolean {
  if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return true;
  try {
    const stat = readFileSync(`/proc/${child.pid}/stat`, 'latin1');
    return /^[ZX] /.test(stat.slice(stat.lastIndexOf(')') + 2));
  } catch {
    return true;
  }
}

/** How a program run to its end went: how it ended, what it said on stderr, whether its time ran out. */
export interface RunResult {
  end: ChildEnd;
  stderr: string;
  /** It was still running after `timeoutMs` and was sent SIGTERM. */
  timedOut: boolean;
}

/** Runs a program to its end, with its stderr collected (it is small: a check, a clean-up script). */
export function runToEnd(argv: readonly string[], options: ChildOptions & { timeoutMs?: number | undefined } = {}): Promise<RunResult> {
  const { timeoutMs, ...rest } = options;
  const { child, ended, closed } = startChild(argv, { stdio: ['ignore', 'ignore', 'pipe'], ...rest });
  let stderr = '';
  let timedOut = false;
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const timer =
    timeoutMs === undefined
      ? undefined
      : setTimeout(() => {
          timedOut = true;
          child.kill('SIGTERM');
        }, timeoutMs);
  return Promise.all([ended, closed]).then(([end]) => {
    clearTimeout(timer);
    return { end, stderr, timedOut };
  });
}

/** Runs a program to its end, blocking (srun's --prolog and --epilog run before and after the step, nothing else). */
export function runToEndSync(argv: readonly string[], options: ChildOptions = {}): ChildEnd {
  const [file, ...args] = argv;
  const result = spawnSync(file!, args, withoutUndefined(options));
  if (result.error) {
    const error = result.error as NodeJS.ErrnoException;
    return { kind: 'exec-failed', errno: error.code ?? 'EIO', message: error.message };
  }
  return result.signal ? { kind: 'signaled', signal: result.signal } : { kind: 'exited', code: result.status ?? 0 };
}

// A child that exits without reading its input must not fail us with EPIPE.
function quietStdin(stdin: Writable | null): void {
  stdin?.on('error', () => {});
}

// Options not given are left out rather than passed as undefined (exactOptionalPropertyTypes).
function withoutUndefined(options: ChildOptions): SpawnOptions {
  return Object.fromEntries(Object.entries(options).filter(([, value]) => value !== undefined)) as SpawnOptions;
}
