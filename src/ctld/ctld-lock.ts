// One controller per state directory: a pid file (the lock of src/os/lock-file.ts). A second
// tsctld on the same directory is refused before it reads or writes any state; a pid file left
// by a controller that was killed is recognised (its process is gone, or its pid now names
// another program) and taken over.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { UserError } from '../core/errors.js';
import { slurm_strerror } from '../core/errno.js';
import { pidAlive, tryLockFile, type HeldLock, type LockAttempt } from '../os/lock-file.js';

/** Another controller holds the state directory, or is taking it at this moment. */
export class StateDirTaken extends UserError {}

/**
 * Said as slurmctld says it with no_quick_restart (it would otherwise kill the old one):
 * stop that one first.
 */
export class AlreadyRunning extends StateDirTaken {
  constructor(
    readonly holder: number,
    stateDir: string,
  ) {
    super(`another tsctld (pid ${holder}) is already using state directory ${stateDir}; stop it (kill ${holder}) before starting a new one`);
  }
}

function cannotUse(stateDir: string, error: unknown): UserError {
  const errno = (error as NodeJS.ErrnoException).errno;
  const why = typeof errno === 'number' ? slurm_strerror(Math.abs(errno)) : (error as Error).message;
  return new UserError(`cannot use state directory ${stateDir}: ${why}`);
}

export type ControllerLock = HeldLock;

export function lockStateDir(stateDir: string): ControllerLock {
  let attempt: LockAttempt;
  try {
    attempt = tryLockFile(path.join(stateDir, 'tsctld.pid'), isTsctld);
  } catch (error) {
    throw cannotUse(stateDir, error);
  }
  if ('lock' in attempt) return attempt.lock;
  if (attempt.holder !== undefined) throw new AlreadyRunning(attempt.holder, stateDir);
  throw new StateDirTaken(`cannot lock state directory ${stateDir}: another tsctld is starting`);
}

/** Whether the pid is a live tsctld (a recycled pid belongs to some other program: the lock is stale). */
function isTsctld(pid: number): boolean {
  if (!pidAlive(pid)) return false;
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('tsctld');
  } catch {
    return true; // no /proc: trust the live pid
  }
}
