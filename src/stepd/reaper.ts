// tsrun's side of the reaper (reaper-main.ts): start it, tell it about task process groups,
// and say "done" when the step ended normally.
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export interface Reaper {
  track(pgid: number): void;
  untrack(pgid: number): void;
  /** The step is over: the reaper exits without killing anything. */
  done(): void;
}

/** Starts the reaper; it lives in its own session so a Ctrl-C at the terminal leaves it alone. */
export function startReaper(killWaitSeconds: number): Reaper {
  const main = fileURLToPath(new URL('../stepd/reaper.js', import.meta.url));
  let child: ChildProcess | undefined;
  try {
    child = spawn(process.execPath, [main, String(killWaitSeconds)], { detached: true, stdio: ['pipe', 'ignore', 'ignore'] });
    child.on('error', () => {});
    child.stdin?.on('error', () => {});
    child.unref();
  } catch {
    child = undefined; // without a reaper tsrun still works; only the SIGKILL case is unguarded
  }
  // Lines are sent in one write per turn of the event loop: a step of 256 tasks would
  // otherwise cost 256 system calls while its tasks are being started.
  let pending: string[] = [];
  const flush = (): void => {
    if (pending.length > 0 && child?.stdin?.writable) child.stdin.write(`${pending.join('\n')}\n`);
    pending = [];
  };
  const send = (line: string): void => {
    if (pending.length === 0) setImmediate(flush);
    pending.push(line);
  };
  return {
    track: (pgid) => send(`+${pgid}`),
    untrack: (pgid) => send(`-${pgid}`),
    done: () => {
      pending.push('done');
      flush();
      child?.stdin?.end();
    },
  };
}
