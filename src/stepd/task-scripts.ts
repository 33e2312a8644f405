// A task's prologs and epilogs, as slurmstepd runs them (observed on Slurm 22.05:
// /work/ref/task-prolog.txt, task-prolog-conf.txt, task-prolog-conf-more.txt): slurm.conf's
// TaskProlog/TaskEpilog and srun's --task-prolog/--task-epilog, per task, as the task's user,
// in the step's containers and the task's directory, with the task's environment plus
// SLURM_SCRIPT_CONTEXT. Before the task starts, slurm.conf's prolog runs, then the user's (which
// sees what the first exported); a prolog's stdout speaks to the step daemon: `export
// NAME=value` and `unset NAME` change the task's environment, `print TEXT` goes to the task's
// stdout; its stderr is dropped. A failing prolog is the task's end: it exits with the
// prolog's status without running. Once the task has ended, and before its exit is reported,
// the user's epilog runs, then slurm.conf's, both with the task's environment from before the
// prologs; their stdout is dropped, the user's stderr is the task's, slurm.conf's goes to
// slurmstepd's own stderr (the node's first task's).
import { constants } from 'node:os';
import path from 'node:path';
import { envArrayOverwrite, getenvp, unsetenvp } from '../core/env-array.js';
import { slurm_strerror } from '../core/errno.js';
import type { ContainerTask } from '../plugin-api/job-container.js';
import { argvAsUser, execProblem, type RunAs } from './run-as.js';
import { signalTaskGroup, spawnTask } from './spawn-task.js';
import { childGone } from '../os/spawn.js';
import type { StepContainer } from './step-container.js';
import { stepEnvOver } from './step-env.js';
import { taskExecHelper } from './task-pid.js';

export interface TaskScriptContext {
  container: StepContainer;
  runAs: RunAs | undefined;
  cwd: string;
  /** An error line of the task's own process, where its prologs run (prefixed with the daemon's name by the caller). */
  report(line: string): void;
  /** An error line of the step daemon itself, where the epilogs run (on the node's first task's stderr). */
  reportDaemon(line: string): void;
  stdout(chunk: Buffer): void;
  stderr(chunk: Buffer): void;
  /** The step daemon's own stderr, where slurm.conf's TaskEpilog writes. */
  daemonStderr(chunk: Buffer): void;
}

/** A task's scripts of one kind: slurm.conf's (TaskProlog, TaskEpilog) and the user's (--task-prolog, --task-epilog). */
export interface TaskScripts {
  slurm?: string | undefined;
  user?: string | undefined;
}

type ScriptOwner = keyof TaskScripts;

// slurmstepd's words for each (task.c, mgr.c). A failing slurm.conf TaskEpilog says
// `--task-epilog failed` and a failing --task-epilog `TaskEpilog failed`: 22.05.8 swaps them.
const WORDS = {
  slurm: { prolog: 'slurm task_prolog', epilog: 'slurm task_epilog', prologFailed: 'TaskProlog failed', epilogFailed: '--task-epilog failed' },
  user: { prolog: 'user task_prolog', epilog: 'user task_epilog', prologFailed: '--task-prolog failed', epilogFailed: 'TaskEpilog failed' },
} as const;

/** How long the user's --task-epilog may run (mgr.c: _run_script_as_user's max_wait, 5 s). */
const USER_EPILOG_WAIT_MS = 5000;

/** How a script ended: its exit code, or the signal that ended it. */
type ScriptEnd = { code: number } | { signal: NodeJS.Signals };

/** A prolog that stopped its task: the status the task ends with; `signalled` when a signal ended the prolog. */
export interface PrologFailure {
  status: number;
  signalled: boolean;
}

/**
 * Runs a task's prologs, slurm.conf's then the user's, for a task whose environment is `env`,
 * and applies what each printed to it.
 * @returns undefined when the task may start, else how its prolog failed.
 */
export async function runTaskPrologs(scripts: TaskScripts, env: string[], ctx: TaskScriptContext): Promise<PrologFailure | undefined> {
  for (const owner of ['slurm', 'user'] as const) {
    const script = scripts[owner];
    if (script === undefined) continue;
    const failed = await runTaskProlog(owner, script, env, ctx);
    if (failed !== undefined) return failed;
  }
  return undefined;
}

/**
 * A task whose prolog the signal that ended an earlier task's would have ended too: slurmstepd
 * runs every task's prologs at once, each in the task's own process, so a signal to the step
 * ends all of them; here they run one task after the other, and the later ones do not start.
 * Says what slurmstepd says of its first prolog ended so.
 */
export function prologSignalled(scripts: TaskScripts, ctx: TaskScriptContext): PrologFailure {
  const words = WORDS[scripts.slurm !== undefined ? 'slurm' : 'user'];
  ctx.report(`${words.prolog} did not exit normally. reason: `);
  ctx.report(`${words.prologFailed} status=1`);
  return { status: 1, signalled: true };
}

/** Runs a task's epilogs, the user's then slurm.conf's, once the task whose environment (before its prologs) was `env` ended. */
export async function runTaskEpilogs(scripts: TaskScripts, env: readonly string[], ctx: TaskScriptContext): Promise<void> {
  for (const owner of ['user', 'slurm'] as const) {
    const script = scripts[owner];
    if (script !== undefined) await runTaskEpilog(owner, script, env, ctx);
  }
}

async function runTaskProlog(owner: ScriptOwner, script: string, env: string[], ctx: TaskScriptContext): Promise<PrologFailure | undefined> {
  const words = WORDS[owner];
  envArrayOverwrite(env, 'SLURM_SCRIPT_CONTEXT', 'prolog_task');
  const why = cannotRun(script, env, ctx);
  if (why !== undefined) {
    ctx.report(`run_command: ${words.prolog} ${why}`);
    ctx.report(`${words.prolog} did not exit normally. reason: Run command failed - configuration error`);
    ctx.report(`${words.prologFailed} status=1`);
    return { status: 1, signalled: false };
  }
  let out = '';
  const end = await runScript(script, scriptEnv(env), ctx, undefined, (chunk) => (out += chunk.toString()));
  // Ended by a signal (scancel of the step while it ran): run_command's line, then the
  // failure with status 1, as Slurm 22.05 prints them (/work/ref/task-prolog-cancel.txt).
  if ('signal' in end) {
    ctx.report(`${words.prolog} did not exit normally. reason: `);
    ctx.report(`${words.prologFailed} status=1`);
    return { status: 1, signalled: true };
  }
  // What a prolog printed counts whatever its exit code (its `print` lines show even when it fails).
  for (const line of out.split('\n')) applyPrologLine(line, env, ctx);
  if (end.code === 0) return undefined;
  ctx.report(`${words.prologFailed} status=${end.code}`);
  return { status: end.code, signalled: false };
}

async function runTaskEpilog(owner: ScriptOwner, script: string, env: readonly string[], ctx: TaskScriptContext): Promise<void> {
  const words = WORDS[owner];
  const epilogEnv = scriptEnv(env);
  envArrayOverwrite(epilogEnv, 'SLURM_SCRIPT_CONTEXT', 'epilog_task');
  if (!path.isAbsolute(script) || cannotRun(script, epilogEnv, ctx) !== undefined) {
    ctx.reportDaemon(`Could not run ${words.epilog} [${script}]: access denied`);
    ctx.reportDaemon(`${words.epilogFailed} status=-1`);
    return;
  }
  const end = await runScript(script, epilogEnv, ctx, owner === 'user' ? ctx.stderr : ctx.daemonStderr, undefined, {
    // slurmstepd gives the user's epilog 5 s, then kills its process group; slurm.conf's has no limit.
    ...(owner === 'user' && { maxWaitMs: USER_EPILOG_WAIT_MS }),
    killGroupAfter: true,
  });
  // slurmstepd prints the raw wait status here.
  const status = 'signal' in end ? (constants.signals[end.signal] ?? 9) : end.code << 8;
  if (status !== 0) ctx.reportDaemon(`${words.epilogFailed} status=${status}`);
}

/** Why the script cannot be run as the task's user (run_command's words), or undefined. */
function cannotRun(script: string, env: readonly string[], ctx: TaskScriptContext): string | undefined {
  if (!path.isAbsolute(script)) return `is not fully qualified pathname (${script})`;
  const problem = execProblem(ctx.runAs, script, ctx.cwd, getenvp(env, 'PATH') ?? undefined);
  if (problem === undefined) return undefined;
  const errno = (constants.errno as Record<string, number>)[problem] ?? constants.errno.EACCES;
  return `can not be executed (${script}) ${slurm_strerror(errno)}`;
}

/** The script sees the task's variables, but not the placeholder of the task's own pid. */
function scriptEnv(env: readonly string[]): string[] {
  const copy = [...env];
  unsetenvp(copy, 'SLURM_TASK_PID');
  return copy;
}

/**
 * One script, joined to the step's containers as a task is (its cgroup, the job's namespace),
 * as the user, with no stdin. Its stdout and stderr go to the callbacks given, or nowhere.
 * `maxWaitMs`: its process group is killed then; `killGroupAfter`: also once it has ended, so
 * that what it left running neither lingers nor holds its output open (slurmstepd's killpg).
 */
async function runScript(
  script: string,
  env: string[],
  ctx: TaskScriptContext,
  onStderr: ((chunk: Buffer) => void) | undefined,
  onStdout?: (chunk: Buffer) => void,
  limits: { maxWaitMs?: number; killGroupAfter?: boolean } = {},
): Promise<ScriptEnd> {
  const taskExec = taskExecHelper();
  const task: ContainerTask = {
    argv: ctx.runAs ? argvAsUser(ctx.runAs, [script]) : [script],
    env: stepEnvOver(env),
    cwd: ctx.cwd,
    ...(taskExec !== undefined && { taskExec }),
  };
  await ctx.container.join(task);
  const spawned = await spawnTask(task.argv, env, task.cwd ?? ctx.cwd, [], 'ignore');
  const { child } = spawned;
  if (onStdout) child.stdout?.on('data', onStdout);
  else child.stdout?.resume();
  if (onStderr) child.stderr?.on('data', onStderr);
  else child.stderr?.resume();
  if (child.pid !== undefined) {
    await ctx.container.adopt(child.pid, () => childGone(child)).catch(() => {});
  }
  const timer = limits.maxWaitMs === undefined ? undefined : setTimeout(() => signalTaskGroup(child, 'SIGKILL'), limits.maxWaitMs);
  const outcome = await spawned.exit;
  clearTimeout(timer);
  if (limits.killGroupAfter) signalTaskGroup(child, 'SIGKILL');
  await spawned.closed;
  if (outcome.kind === 'signaled') return { signal: outcome.signal };
  return { code: outcome.kind === 'exited' ? outcome.code : 127 };
}

/** One line of the prolog's stdout: `export NAME=value`, `unset NAME`, `print TEXT`; others are ignored. */
function applyPrologLine(line: string, env: string[], ctx: { stdout(chunk: Buffer): void }): void {
  if (line.startsWith('export ')) {
    const assignment = line.slice(7).trimStart();
    const equals = assignment.indexOf('=');
    // `export A =b` sets A, as slurmstepd reads it; `export A` sets nothing.
    const name = equals < 0 ? '' : assignment.slice(0, equals).trimEnd();
    if (name !== '') envArrayOverwrite(env, name, assignment.slice(equals + 1));
  } else if (line.startsWith('unset ')) {
    const name = line.slice(6).trimStart().split(' ')[0];
    if (name) unsetenvp(env, name);
  } else if (line.startsWith('print ')) {
    ctx.stdout(Buffer.from(`${line.slice(6).trimStart()}\n`));
  }
}
