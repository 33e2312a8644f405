// How srun turns its tasks' exit statuses into its own exit code and error lines
// (Slurm 22.05 src/plugins/launch/slurm/launch_slurm.c _task_finish, src/api/step_launch.c,
// src/srun/libsrun/srun_job.c fini_srun), and what a task that cannot exec reports
// (src/slurmd/slurmstepd/task.c exec_task).
import { constants } from 'node:os';
import { slurm_strerror } from './errno.js';
import { signalText } from './signal-text.js';
import { SIG_OOM } from './oom.js';

export interface TaskExit {
  taskId: number;
  nodeName: string;
  /** Exit code when the task exited, else null. */
  exitCode: number | null;
  /** Signal that ended the task (number or Node's name, 'SIGKILL'), else null. */
  signal: number | NodeJS.Signals | null;
  coreDumped?: boolean;
  /**
   * The step had an out-of-memory kill on this task's node: slurmstepd then reports SIG_OOM
   * for the node's tasks instead of their own status, and srun says "Out Of Memory".
   */
  outOfMemory?: boolean;
}

export interface FoldOptions {
  /** "5.0": enables the "Terminating StepId=" and "Force Terminated StepId=" lines. */
  stepId?: string;
  /** -K / KillOnBadExit: the step was killed after the first task that failed. */
  killOnBadExit?: boolean;
  /** The user cancelled the step (Ctrl-C, scancel): srun then keeps quiet about signals. */
  cancelled?: boolean;
  /**
   * The step was killed for an MPI abort (slurm_kill_job_step from the PMI server): srun prints
   * the tasks' "Killed" lines but no "Force Terminated" line (observed on Slurm 22.05).
   */
  aborted?: boolean;
  /**
   * Lines already printed as the tasks ended (srun prints each as the exit arrives): task id →
   * the status it was printed with; a group printed with the same status is not printed again.
   */
  reported?: ReadonlyMap<number, string>;
  /** The -K "Terminating StepId=" line was printed already. */
  terminatingSent?: boolean;
  /** An "Out Of Memory" line was printed already (srun prints only the first). */
  oomPrinted?: boolean;
}

export interface FoldedExit {
  exitCode: number;
  /** Lines as srun prints them, without the "srun: " prefix. */
  messages: string[];
}

/**
 * srun's exit code and messages for a finished step. Tasks are given in the order their
 * exits arrived; tasks of one node with the same status share one line, as slurmstepd
 * sends them together. A signal beats any exit code (128 + the highest signal number,
 * "so that it's predictable to the user"), else the highest exit code wins.
 */
export function foldTaskExits(tasks: readonly TaskExit[], options: FoldOptions = {}): FoldedExit {
  const messages: string[] = [];
  let terminatingSent = options.terminatingSent === true;
  let oomPrinted = options.oomPrinted === true;
  for (const group of groupByNodeAndStatus(tasks)) {
    if (group.every((t) => options.reported?.get(t.taskId) === exitKey(t))) continue;
    // srun prints "Out Of Memory" for the first such message only (launch_slurm.c's oom_printed).
    const line = group[0]!.outOfMemory ? (oomPrinted ? undefined : oomLine(group)) : statusLine(group, options);
    if (group[0]!.outOfMemory) oomPrinted = true;
    if (line !== undefined) messages.push(line);
    if (options.killOnBadExit && options.stepId && !terminatingSent && isAbnormal(group[0]!)) {
      messages.push(`launch/slurm: _step_signal: Terminating StepId=${options.stepId}`);
      terminatingSent = true;
    }
  }
  // step_launch.c says this once at the end when any task died of SIGTERM or SIGKILL.
  const signals = tasks.filter((t) => !t.outOfMemory).map(signalNumber);
  const { SIGKILL, SIGTERM } = constants.signals;
  if (options.stepId && !options.aborted && signals.some((s) => s === SIGKILL || s === SIGTERM)) {
    messages.push(`Force Terminated StepId=${options.stepId}`);
  }
  // reduce, not Math.max(...list): a step can have more tasks than a call has arguments.
  const worstSignal = signals.reduce<number>((worst, s) => Math.max(worst, s ?? 0), 0);
  const worstCode = tasks.reduce((worst, t) => Math.max(worst, t.exitCode ?? 0), 0);
  // SIG_OOM sticks in srun's global_rc; fini_srun makes 253 into 128 + WTERMSIG(253) = 253.
  if (tasks.some((t) => t.outOfMemory)) return { exitCode: SIG_OOM, messages };
  return { exitCode: worstSignal > 0 ? 128 + worstSignal : worstCode, messages };
}

/**
 * The step's result as srun reports it to the controller (its global_rc): the highest signal
 * as a wait status (0:9 in scontrol's ExitCode=), else the highest exit code (3:0).
 */
export function waitStatusOf(tasks: readonly TaskExit[]): number {
  if (tasks.some((t) => t.outOfMemory)) return SIG_OOM;
  const worstSignal = tasks.reduce<number>((worst, t) => Math.max(worst, signalNumber(t) ?? 0), 0);
  const worstCode = tasks.reduce((worst, t) => Math.max(worst, t.exitCode ?? 0), 0);
  return worstSignal > 0 ? worstSignal : (worstCode & 0xff) << 8;
}

/** What a task that could not be executed prints (from the step daemon) and exits with. */
export function execFailure(
  program: string,
  code: NodeJS.ErrnoException['code'],
): { exitCode: number; message: string } {
  const errno = (constants.errno as Record<string, number>)[code ?? ''] ?? constants.errno.ENOEXEC;
  // slurmstepd logs "execve(): <path>: %m" and _exit(errno): 2 for a missing program, 13
  // for one that is not executable or is a directory.
  return { exitCode: errno, message: `error: execve(): ${program}: ${slurm_strerror(errno)}` };
}

function statusLine(group: readonly TaskExit[], options: FoldOptions): string | undefined {
  const first = group[0]!;
  const ids = formatTaskIds(group.map((t) => t.taskId));
  const where = `${first.nodeName}: ${group.length === 1 ? 'task' : 'tasks'} ${ids}`;
  const signal = signalNumber(first);
  if (signal !== null) {
    if (options.cancelled) return undefined;
    return `error: ${where}: ${signalText(signal)}${first.coreDumped ? ' (core dumped)' : ''}`;
  }
  if (!first.exitCode) return undefined;
  return `error: ${where}: Exited with exit code ${first.exitCode}`;
}

function oomLine(group: readonly TaskExit[]): string {
  const ids = formatTaskIds(group.map((t) => t.taskId));
  return `error: ${group[0]!.nodeName}: ${group.length === 1 ? 'task' : 'tasks'} ${ids}: Out Of Memory`;
}

/** What a task's line says: its node and status (tasks of an OOM'd node all carry SIG_OOM). */
export function exitKey(task: TaskExit): string {
  return task.outOfMemory ? `${task.nodeName}\0oom` : `${task.nodeName}\0${task.exitCode}\0${signalNumber(task)}\0${task.coreDumped === true}`;
}

function groupByNodeAndStatus(tasks: readonly TaskExit[]): TaskExit[][] {
  const groups = new Map<string, TaskExit[]>();
  for (const task of tasks) {
    const key = exitKey(task);
    const group = groups.get(key);
    if (group) group.push(task);
    else groups.set(key, [task]);
  }
  return [...groups.values()];
}

function isAbnormal(task: TaskExit): boolean {
  return task.outOfMemory === true || signalNumber(task) !== null || (task.exitCode ?? 0) !== 0;
}

function signalNumber(task: TaskExit): number | null {
  if (task.signal === null) return null;
  return typeof task.signal === 'number' ? task.signal : constants.signals[task.signal];
}

/** Slurm's bit_fmt of task ids: "0-2,5". */
export function formatTaskIds(ids: readonly number[]): string {
  const sorted = [...ids].sort((a, b) => a - b);
  const parts: string[] = [];
  for (let i = 0; i < sorted.length; ) {
    let j = i;
    while (j + 1 < sorted.length && sorted[j + 1] === sorted[j]! + 1) j += 1;
    parts.push(i === j ? String(sorted[i]) : `${sorted[i]}-${sorted[j]}`);
    i = j + 1;
  }
  return parts.join(',');
}
