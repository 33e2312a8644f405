// Starting one task as a real process. Each task leads its own process group (detached →
// setsid), so a signal to the group reaches everything it started, and tsrun's own Ctrl-C is
// not delivered to it behind our back: the step daemon decides what the tasks get. The step
// host's spawn server forks it (host-spawn.ts), so spawning resolves once it runs.
import { ChildProcess, type ChildEnd } from '../os/spawn.js';
import { startHostChild } from './host-spawn.js';
import type { Duplex, Stream } from 'node:stream';
import type { Rusage } from './usage/task-rusage.js';

export interface SpawnedTask {
  child: ChildProcess;
  /** Resolves once the task's own process has ended: exit code or signal, or the exec failure. */
  exit: Promise<TaskOutcome>;
  /** Resolves once its stdout and stderr are closed (a daemonised child may hold them open). */
  closed: Promise<void>;
  /** Our ends of the extra socket pairs asked for (`pipes`); empty when the task did not start. */
  pipes: Duplex[];
  /** Its final rusage (wait4) once it has ended, when the spawn server started it. */
  rusage: Promise<Rusage | undefined>;
}

/** How a task ended: exit code or signal, or the exec failure. */
export type TaskOutcome = ChildEnd;

/** The command line, or the command line with the uid and gid Node itself switches to. */
export type SpawnArgv = readonly string[] | { argv: readonly string[]; uid: number; gid: number };

export async function spawnTask(
  command: SpawnArgv,
  env: readonly string[],
  cwd: string,
  extraFds: readonly (number | Stream)[] = [],
  stdin: 'pipe' | 'ignore' = 'pipe',
  pipes = 0,
): Promise<SpawnedTask> {
  const argv = 'argv' in command ? command.argv : command;
  const ids = 'argv' in command ? { uid: command.uid, gid: command.gid } : {};
  // Each extra 'pipe' is a connected socket: the task gets it as that fd.
  const { child, ended: exit, closed, rusage } = await startHostChild(argv, {
    cwd,
    env,
    detached: true,
    ...ids,
    stdio: [stdin, 'pipe', 'pipe', ...extraFds, ...Array<'pipe'>(pipes).fill('pipe')],
  });
  const ends = child.stdio.slice(3 + extraFds.length) as Duplex[];
  // Without a pid the spawn failed (`exit` says why): its pipe ends lead nowhere.
  if (child.pid === undefined) ends.forEach((end) => end?.destroy());
  return { child, exit, closed, pipes: child.pid === undefined ? [] : ends, rusage };
}

/**
 * A task that never started (its task prolog failed): it ended at once with `code`, as
 * slurmstepd's forked task exits with the prolog's status without exec'ing the program.
 */
export function taskNotStarted(code: number): SpawnedTask {
  return { child: new ChildProcess(), exit: Promise.resolve({ kind: 'exited', code }), closed: Promise.resolve(), pipes: [], rusage: Promise.resolve(undefined) };
}

/** Sends a signal to the task's whole process group; a group already gone is not an error. */
export function signalTaskGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    try {
      child.kill(signal);
    } catch {
      // already gone
    }
  }
}
