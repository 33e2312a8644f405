// tsrun's side of the reaper (reaper-main.ts): start it, record each task's process group in a
// file with a synchronous write (so a tsrun killed right after a spawn has already told it),
// and mark the file "done" when the step ended normally. The reaper's stdin is only a lifeline:
// it ends when tsrun ends, however it ends.
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
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
  let fd: number | undefined;
  try {
    const registry = path.join(mkdtempSync(path.join(tmpdir(), 'tslurm-reaper-')), 'groups');
    fd = openSync(registry, 'a', 0o600);
    child = spawn(process.execPath, [main, String(killWaitSeconds), registry], { detached: true, stdio: ['pipe', 'ignore', 'ignore'] });
    child.on('error', () => {});
    child.stdin?.on('error', () => {});
    child.unref();
  } catch {
    child = undefined; // without a reaper tsrun still works; only the SIGKILL case is unguarded
  }
  const record = (line: string): void => {
    if (fd !== undefined) writeSync(fd, `${line}\n`);
  };
  return {
    track: (pgid) => record(`+${pgid}`),
    untrack: (pgid) => record(`-${pgid}`),
    done: () => {
      record('done');
      if (fd !== undefined) closeSync(fd);
      fd = undefined;
      child?.stdin?.end();
    },
  };
}
