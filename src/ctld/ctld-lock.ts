// One controller per state directory: a pid file created exclusively. A second tsctld on the
// same directory is refused before it reads or writes any state; a pid file left by a
// controller that was killed is recognised (its process is gone) and taken over.
import { closeSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import path from 'node:path';
import { UserError } from '../core/errors.js';

export interface ControllerLock {
  release(): void;
}

export function lockStateDir(stateDir: string): ControllerLock {
  const file = path.join(stateDir, 'tsctld.pid');
  for (let attempt = 0; attempt < 2; attempt++) {
    let fd: number;
    try {
      fd = openSync(file, 'wx', 0o600);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'EEXIST') {
        throw new UserError(`cannot use state directory ${stateDir}: ${(error as Error).message}`);
      }
      const holder = holderOf(file);
      if (holder !== undefined) {
        throw new UserError(`another tsctld (pid ${holder}) is already using state directory ${stateDir}`);
      }
      rmSync(file, { force: true });
      continue;
    }
    writeSync(fd, `${process.pid}\n`);
    closeSync(fd);
    return {
      release: () => {
        if (holderOf(file) === process.pid) rmSync(file, { force: true });
      },
    };
  }
  throw new UserError(`cannot lock state directory ${stateDir}: another tsctld is starting`);
}

/** The pid in the file if that process is alive and is a tsctld; else undefined. */
function holderOf(file: string): number | undefined {
  let pid: number;
  try {
    pid = Number.parseInt(readFileSync(file, 'utf8'), 10);
  } catch {
    return undefined;
  }
  if (!Number.isSafeInteger(pid) || pid <= 0) return undefined;
  try {
    process.kill(pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return undefined;
  }
  // A recycled pid belongs to some other program: then the lock is stale.
  try {
    const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
    if (!cmdline.includes('tsctld')) return undefined;
  } catch {
    // no /proc: trust the live pid
  }
  return pid;
}
