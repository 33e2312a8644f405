// SLURM_TASK_PID, the task's own pid, which slurmstepd sets in the forked task before execve,
// at its place in the environment (after SLURM_CPUS_ON_NODE). Node cannot run code between
// fork and exec, so the task's argv starts with dist/native/tstask_exec (native/task-exec),
// which writes its pid into the placeholder nodeEnv() left and execs the program, keeping the
// pid. The step host's spawn server does the same in its child instead of exec'ing the helper
// (host-spawn.ts folds the layer into its request). Without the helper (no C compiler at build
// time) the variable is left out.
import { unsetenvp } from '../core/env-array.js';
import { nativeHelper } from './native-helper.js';
import { execProblem, type RunAs } from './run-as.js';

/** The helper's path, or undefined when it is not built. */
export function taskExecHelper(): string | undefined {
  return nativeHelper('tstask_exec');
}

/**
 * The program to spawn for a task: behind the helper when it is built and the program would
 * start (a missing or forbidden program keeps slurmstepd's own execve report, which the direct
 * spawn gives); otherwise the program itself, and SLURM_TASK_PID leaves the task's env.
 * `options`: the helper's own (--umask, --rlimit), for what the task takes from its submitter.
 */
export function startingWithTaskPid(program: string[], env: string[], cwd: string, runAs: RunAs | undefined, options: readonly string[] = []): string[] {
  const exec = taskExecHelper();
  const pathVar = env.find((entry) => entry.startsWith('PATH='))?.slice(5);
  const who = runAs ?? { uid: process.getuid?.() ?? 0, gid: process.getgid?.() ?? 0, groups: process.getgroups?.() ?? [], name: '' };
  if (exec !== undefined && execProblem(who, program[0]!, cwd, pathVar) === undefined) return [exec, ...options, '--', ...program];
  unsetenvp(env, 'SLURM_TASK_PID');
  return program;
}
