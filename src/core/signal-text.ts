// glibc's strsignal() texts on Linux, which srun prints for a task killed by a signal
// ("node1: task 0: Segmentation fault"). Node has no strsignal, so the table is here.
const TEXTS = [
  'Hangup',
  'Interrupt',
  'Quit',
  'Illegal instruction',
  'Trace/breakpoint trap',
  'Aborted',
  'Bus error',
  'Floating point exception',
  'Killed',
  'User defined signal 1',
  'Segmentation fault',
  'User defined signal 2',
  'Broken pipe',
  'Alarm clock',
  'Terminated',
  'Stack fault',
  'Child exited',
  'Continued',
  'Stopped (signal)',
  'Stopped',
  'Stopped (tty input)',
  'Stopped (tty output)',
  'Urgent I/O condition',
  'CPU time limit exceeded',
  'File size limit exceeded',
  'Virtual timer expired',
  'Profiling timer expired',
  'Window changed',
  'I/O possible',
  'Power failure',
  'Bad system call',
] as const;

// glibc keeps 32 and 33 for its threads, so SIGRTMIN is 34.
const SIGRTMIN = 34;
const SIGRTMAX = 64;

/** strsignal(signal): "Killed" for 9, "Real-time signal 2" for 36. */
export function signalText(signal: number): string {
  const text = TEXTS[signal - 1];
  if (text !== undefined) return text;
  if (signal >= SIGRTMIN && signal <= SIGRTMAX) return `Real-time signal ${signal - SIGRTMIN}`;
  return `Unknown signal ${signal}`;
}
