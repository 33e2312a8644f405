// srun --pty's task 0 runs on a pseudo-terminal: dist/native/tspty (native/pty) opens one of
// the size tsrun's terminal has, runs the task on it and relays it to the task's usual pipes.
// Built with the other native helpers; without a C compiler at build time it is missing and
// tsrun refuses --pty with a message saying so.
import { nativeHelper } from './native-helper.js';

/** The helper's path, or undefined when it was not built. */
export function ptyHelper(): string | undefined {
  return nativeHelper('tspty');
}

/** The task's command line behind the helper. */
export function onPty(size: { rows: number; cols: number }, program: readonly string[]): string[] {
  const exec = ptyHelper();
  if (exec === undefined) throw new Error('--pty: the pty helper (dist/native/tspty) was not built');
  return [exec, String(size.rows), String(size.cols), ...program];
}
