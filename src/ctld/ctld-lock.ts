// One controller per state directory: a pid file. A second tsctld on the same directory is
// refused before it reads or writes any state; a pid file left by a controller that was killed
// is recognised (its process is gone) and taken over.
//
// Several starters at once (clients start a controller on demand, a few at a time) must not
// both win. So the pid file is never seen empty: each starter writes its pid to a file of its
// own and links it into place, which fails when the lock exists (a file created empty and
// written after was read, in that gap, as a lock left by a dead controller, removed and taken:
// two controllers then ran on one state directory). And a stale pid file is removed by one
// starter at a time, under a guard directory, after checking again that it is still stale.
import { linkSync, mkdirSync, readFileSync, rmdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { UserError } from '../core/errors.js';
import { slurm_strerror } from '../core/errno.js';

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

export interface ControllerLock {
  release(): void;
}

/** A guard left by a starter that died while taking over is removed after this long. */
const GUARD_STALE_MS = 10_000;

export function lockStateDir(stateDir: string): ControllerLock {
  const file = path.join(stateDir, 'tsctld.pid');
  const mine = path.join(stateDir, `tsctld.pid.${process.pid}`);
  try {
    writeFileSync(mine, `${process.pid}\n`, { mode: 0o600 });
  } catch (error) {
    // Created but not written (a full disk): it must not stay behind as litter.
    rmSync(mine, { force: true });
    throw cannotUse(stateDir, error);
  }
  const taken = (): ControllerLock | undefined => {
    try {
      linkSync(mine, file);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST') return undefined;
      throw cannotUse(stateDir, error);
    }
    return {
      release: () => {
        if (holderOf(file) === process.pid) rmSync(file, { force: true });
      },
    };
  };
  try {
    const lock = taken() ?? takeOverStale(stateDir, file, taken);
    if (lock !== undefined) return lock;
    throw new StateDirTaken(`cannot lock state directory ${stateDir}: another tsctld is starting`);
  } finally {
    rmSync(mine, { force: true });
  }
}

// The lock exists: refused if its holder lives; else removed and taken, by one starter at a time.
function takeOverStale(stateDir: string, file: string, taken: () => ControllerLock | undefined): ControllerLock | undefined {
  const refuse = (holder: number) => new AlreadyRunning(holder, stateDir);
  const holder = holderOf(file);
  if (holder !== undefined) throw refuse(holder);
  const guard = path.join(stateDir, 'tsctld.pid.takeover');
  if (!enterGuard(guard)) return undefined;
  try {
    // Checked again under the guard: another starter may have taken it over meanwhile.
    const now = holderOf(file);
    if (now !== undefined) throw refuse(now);
    rmSync(file, { force: true });
    return taken();
  } finally {
    rmdirSync(guard);
  }
}

function enterGuard(guard: string): boolean {
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      mkdirSync(guard, { mode: 0o700 });
      return true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    try {
      if (Date.now() - statSync(guard).mtimeMs < GUARD_STALE_MS) return false;
      rmdirSync(guard);
    } catch {
      // gone meanwhile: try again
    }
  }
  return false;
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
