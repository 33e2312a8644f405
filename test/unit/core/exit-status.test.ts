import { describe, expect, it } from 'vitest';
import { execFailure, foldTaskExits, waitStatusOf } from '../../../src/core/exit-status.js';
import type { TaskExit } from '../../../src/core/exit-status.js';
import { signalText } from '../../../src/core/signal-text.js';

// Observed on Slurm 22.05.8 inside `salloc -N3 --exclusive` (node1..node3, 4 CPUs each). The
// order of srun's lines follows the order exits arrive, so the inputs list tasks in the
// order real srun reported them.
const exited = (taskId: number, nodeName: string, exitCode: number): TaskExit => ({
  taskId,
  nodeName,
  exitCode,
  signal: null,
});
const killed = (taskId: number, nodeName: string, signal: TaskExit['signal']): TaskExit => ({
  taskId,
  nodeName,
  exitCode: null,
  signal,
});

describe('foldTaskExits', () => {
  it("srun -n4 sh -c 'exit $SLURM_PROCID': the highest exit code", () => {
    const tasks = [exited(2, 'node2', 2), exited(3, 'node3', 3), exited(1, 'node1', 1), exited(0, 'node1', 0)];
    const result = foldTaskExits(tasks);
    expect(result).toEqual({
      exitCode: 3,
      messages: [
        'error: node2: task 2: Exited with exit code 2',
        'error: node3: task 3: Exited with exit code 3',
        'error: node1: task 1: Exited with exit code 1',
      ],
    });
  });

  it("srun -n2 sh -c 'kill -9 $$' (step 53.1): 137 and Force Terminated", () => {
    const result = foldTaskExits([killed(0, 'node1', 'SIGKILL'), killed(1, 'node2', 9)], { stepId: '53.1' });
    expect(result).toEqual({
      exitCode: 137,
      messages: ['error: node1: task 0: Killed', 'error: node2: task 1: Killed', 'Force Terminated StepId=53.1'],
    });
  });

  it('a signal beats any exit code, and the highest signal wins: 143 for KILL and TERM', () => {
    // srun -n4: task 1 kill -9, task 2 kill -15, the others exit 3 (step 53.2)
    const tasks = [
      exited(3, 'node3', 3),
      killed(2, 'node2', 'SIGTERM'),
      exited(0, 'node1', 3),
      killed(1, 'node1', 'SIGKILL'),
    ];
    expect(foldTaskExits(tasks, { stepId: '53.2' })).toEqual({
      exitCode: 143,
      messages: [
        'error: node3: task 3: Exited with exit code 3',
        'error: node2: task 2: Terminated',
        'error: node1: task 0: Exited with exit code 3',
        'error: node1: task 1: Killed',
        'Force Terminated StepId=53.2',
      ],
    });
  });

  it('groups the tasks of a node with the same status: srun -N3 -n7 [-m cyclic] sh -c "exit 5"', () => {
    const block = [0, 1, 2, 3, 4, 5, 6].map((t) => exited(t, `node${[1, 1, 1, 2, 2, 3, 3][t]}`, 5));
    // srun reported node2, then node3, then node1
    const order = (ts: TaskExit[]) => ['node2', 'node3', 'node1'].flatMap((n) => ts.filter((t) => t.nodeName === n));
    expect(foldTaskExits(order(block))).toEqual({
      exitCode: 5,
      messages: [
        'error: node2: tasks 3-4: Exited with exit code 5',
        'error: node3: tasks 5-6: Exited with exit code 5',
        'error: node1: tasks 0-2: Exited with exit code 5',
      ],
    });
    const cyclic = [0, 1, 2, 3, 4, 5, 6].map((t) => exited(t, `node${(t % 3) + 1}`, 5));
    expect(foldTaskExits(order(cyclic)).messages).toEqual([
      'error: node2: tasks 1,4: Exited with exit code 5',
      'error: node3: tasks 2,5: Exited with exit code 5',
      'error: node1: tasks 0,3,6: Exited with exit code 5',
    ]);
  });

  it.each([
    ['SIGSEGV', 'Segmentation fault', 139],
    ['SIGABRT', 'Aborted', 134],
    ['SIGUSR1', 'User defined signal 1', 138],
    ['SIGHUP', 'Hangup', 129],
  ] as const)('kill -%s: "%s", exit %i and no Force Terminated line', (signal, text, code) => {
    const result = foldTaskExits([killed(0, 'node1', signal), killed(1, 'node2', signal)], { stepId: '53.5' });
    const messages = [`error: node1: task 0: ${text}`, `error: node2: task 1: ${text}`];
    expect(result).toEqual({ exitCode: code, messages });
  });

  it('kill -2 and kill -15 with an exit 0: 143, Interrupt and Terminated', () => {
    const tasks = [killed(1, 'node2', 'SIGTERM'), killed(0, 'node1', 'SIGINT'), exited(2, 'node3', 0)];
    expect(foldTaskExits(tasks, { stepId: '53.8' })).toEqual({
      exitCode: 143,
      messages: [
        'error: node2: task 1: Terminated',
        'error: node1: task 0: Interrupt',
        'Force Terminated StepId=53.8',
      ],
    });
  });

  it('srun -K: the step is terminated after the first task that fails', () => {
    // srun -n2 -K sh -c 'if [ $SLURM_PROCID = 1 ]; then exit 4; fi; sleep 5' (step 53.13); between
    // the two task lines slurmstepd also printed
    // "slurmstepd-node1: error: *** STEP 53.13 ON node1 CANCELLED AT 2026-11-22T00:09:42 ***".
    const tasks = [exited(1, 'node2', 4), killed(0, 'node1', 'SIGTERM')];
    expect(foldTaskExits(tasks, { stepId: '53.13', killOnBadExit: true })).toEqual({
      exitCode: 143,
      messages: [
        'error: node2: task 1: Exited with exit code 4',
        'launch/slurm: _step_signal: Terminating StepId=53.13',
        'error: node1: task 0: Terminated',
        'Force Terminated StepId=53.13',
      ],
    });
  });

  it('an MPI abort under mpi/pmi2: every task Killed, and no Force Terminated line', () => {
    // srun --mpi=pmi2 -N2 -n4 with rank 1 calling MPI_Abort(MPI_COMM_WORLD, 3) (step 99.0).
    const tasks = [killed(3, 'node2', 'SIGKILL'), ...[0, 1, 2].map((t) => killed(t, 'node1', 'SIGKILL'))];
    expect(foldTaskExits(tasks, { stepId: '99.0', aborted: true })).toEqual({
      exitCode: 137,
      messages: ['error: node2: task 3: Killed', 'error: node1: tasks 0-2: Killed'],
    });
  });

  it('says nothing for tasks that all exit 0', () => {
    expect(foldTaskExits([exited(0, 'node1', 0), exited(1, 'node1', 0)])).toEqual({ exitCode: 0, messages: [] });
  });

  it('keeps quiet about signals once the user cancelled the step (srun logs them only with -v)', () => {
    const result = foldTaskExits([killed(0, 'node1', 'SIGINT'), exited(1, 'node1', 2)], { cancelled: true });
    expect(result).toEqual({ exitCode: 130, messages: ['error: node1: task 1: Exited with exit code 2'] });
  });

  it('adds " (core dumped)" when the task dumped core', () => {
    const result = foldTaskExits([{ ...killed(0, 'node1', 'SIGSEGV'), coreDumped: true }]);
    expect(result.messages).toEqual(['error: node1: task 0: Segmentation fault (core dumped)']);
  });
});

// launch_slurm.c _task_finish (22.05): a SIG_OOM status prints "Out Of Memory" once (oom_printed)
// and sticks in global_rc, which fini_srun makes 128 + WTERMSIG(253) = 253; 253 is no SIGKILL,
// so no "Force Terminated" line.
describe('foldTaskExits with an out-of-memory node', () => {
  const oom = (exit: TaskExit): TaskExit => ({ ...exit, outOfMemory: true });

  it('one line for the node, exit 253, SIG_OOM as the wait status', () => {
    const tasks = [oom(killed(0, 'node1', 'SIGKILL')), oom(exited(1, 'node1', 0))];
    expect(foldTaskExits(tasks, { stepId: '5.0' })).toEqual({ exitCode: 253, messages: ['error: node1: tasks 0-1: Out Of Memory'] });
    expect(waitStatusOf(tasks)).toBe(253);
  });

  it('only the first out-of-memory message is printed; other nodes report as usual; 253 beats a signal', () => {
    const tasks = [oom(killed(1, 'node2', 'SIGKILL')), exited(0, 'node1', 3), oom(killed(2, 'node3', 'SIGKILL')), killed(3, 'node4', 'SIGTERM')];
    expect(foldTaskExits(tasks, { stepId: '5.0' })).toEqual({
      exitCode: 253,
      messages: ['error: node2: task 1: Out Of Memory', 'error: node1: task 0: Exited with exit code 3', 'error: node4: task 3: Terminated', 'Force Terminated StepId=5.0'],
    });
  });
});

describe('execFailure', () => {
  it.each([
    // srun -n1 /nonexistent and srun -n1 nosuchprog: exit 2, and from the step daemon
    // "slurmstepd-node1: error: execve(): nosuchprog: No such file or directory"
    ['/nonexistent', 'ENOENT', 2, 'error: execve(): /nonexistent: No such file or directory'],
    ['nosuchprog', 'ENOENT', 2, 'error: execve(): nosuchprog: No such file or directory'],
    // srun -n2 /etc/passwd and srun -n1 /tmp: exit 13 ("node1: task 0: Exited with exit code 13")
    ['/etc/passwd', 'EACCES', 13, 'error: execve(): /etc/passwd: Permission denied'],
    ['/tmp', 'EACCES', 13, 'error: execve(): /tmp: Permission denied'],
  ])('%s (%s)', (program, code, exitCode, message) => {
    expect(execFailure(program, code)).toEqual({ exitCode, message });
  });

  it('then folds like any exit: srun -n2 /etc/passwd exits 13', () => {
    expect(foldTaskExits([exited(1, 'node2', 13), exited(0, 'node1', 13)])).toEqual({
      exitCode: 13,
      messages: ['error: node2: task 1: Exited with exit code 13', 'error: node1: task 0: Exited with exit code 13'],
    });
  });
});

describe('signalText', () => {
  it('follows glibc strsignal', () => {
    expect([9, 11, 15, 36, 32, 65].map(signalText)).toEqual([
      'Killed',
      'Segmentation fault',
      'Terminated',
      'Real-time signal 2',
      'Unknown signal 32',
      'Unknown signal 65',
    ]);
  });
});
