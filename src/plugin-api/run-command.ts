/**
 * Running a program from a plugin, as Slurm's plugins do through `run_command()`
 * (src/common/run_command.c: job_container/tmpfs's namespace scripts, clean-up commands).
 * `run_command(['/bin/sh', '-c', script], { timeoutMs: 30_000 })` resolves once the program
 * has ended and its stderr is read; it never rejects: a program that cannot be started
 * (ENOENT, EACCES) comes back as `end.kind === 'exec-failed'`, one past its time limit is sent
 * SIGTERM and comes back with `timedOut`. `startProgram` starts one that lives beside the
 * plugin (a helper it talks to over pipes), under the same rule: a start failure is `ended`.
 */
import { runToEnd, startChild, type ChildEnd, type ChildOptions, type RunResult, type StartedChild } from '../os/spawn.js';

/** How the program ended: its exit code, the signal that ended it, or why it never ran. */
export type CommandEnd = ChildEnd;
export type CommandResult = RunResult;

export interface CommandOptions {
  /** The program's environment (default: this process's). */
  env?: NodeJS.ProcessEnv | undefined;
  cwd?: string | undefined;
  /** Milliseconds it may run before it is sent SIGTERM (default: no limit). */
  timeoutMs?: number | undefined;
}

/** Runs `argv[0]` with `argv.slice(1)` to its end. */
export function run_command(argv: readonly string[], options: CommandOptions = {}): Promise<CommandResult> {
  return runToEnd(argv, options);
}

export type StartedProgram = StartedChild;
export type ProgramOptions = Omit<ChildOptions, 'uid' | 'gid'>;

/** Starts `argv[0]` with `argv.slice(1)`: the child, when it ended (or why it never ran), when its pipes closed. */
export function startProgram(argv: readonly string[], options: ProgramOptions = {}): StartedProgram {
  return startChild(argv, options);
}
