// The one lock of tslurm: a file holding its holder's pid, for one controller per state
// directory (tsctld.pid) and for the short updates of the id counters.
//
// Several takers at once must not both win. So the lock is never seen empty: each taker
// writes its pid to a file of its own and links it into place, which fails when the lock
// exists (a file created empty and written after was read, in that gap, as a lock left by a
// dead holder, removed and taken: two controllers then ran on one state directory). A stale
// lock (its holder gone, as the caller judges) is removed by one taker at a time, under a
// guard directory, after checking again that it is still stale.
import { linkSync, mkdirSync, readFileSync, rmdirSync, rmSync, statSync, writeFileSync } from 'node:fs';

export interface HeldLock {
  release(): void;
}

/** The lock, or who holds it (undefined: another taker is taking over a stale one right now). */
export type LockAttempt = { lock: HeldLock } | { holder: number | undefined };

/** A guard left by a taker that died while taking over is removed after this long. */
const GUARD_STALE_MS = 10_000;

/**
 * Takes `file` for this process if it is free or stale; `holderAlive(pid)` says whether the
 * pid a lock holds still holds it. File-system errors (a full disk, no permission) are thrown.
 */
export function tryLockFile(file: string, holderAlive: (pid: number) => boolean): LockAttempt {
  const mine = `${file}.${process.pid}`;
  try {
    writeFileSync(mine, `${process.pid}\n`, { mode: 0o600 });
  } catch (error) {
    // Created but not written (a full disk): it must not stay behind as litter.
    rmSync(mine, { force: true });
    throw error;
  }
  const taken = (): HeldLock | undefined => {
    try {
      linkSync(mine, file);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST') return undefined;
      throw error;
    }
    return {
      release: () => {
        if (pidIn(file) === process.pid) rmSync(file, { force: true });
      },
    };
  };
  try {
    const lock = taken() ?? takeOverStale(file, holderAlive, taken);
    return typeof lock === 'object' ? { lock } : { holder: lock };
  } finally {
    rmSync(mine, { force: true });
  }
}

/** Whether a process with this pid exists (under any user). */
export function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The pid a lock file holds, whether or not that process lives. */
export function pidIn(file: string): number | undefined {
  try {
    const pid = Number.parseInt(readFileSync(file, 'utf8'), 10);
    return Number.isSafeInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

// The lock exists: its live holder's pid; else removed and taken, by one taker at a time.
function takeOverStale(file: string, holderAlive: (pid: number) => boolean, taken: () => HeldLock | undefined): HeldLock | number | undefined {
  const holder = (): number | undefined => {
    const pid = pidIn(file);
    return pid !== undefined && holderAlive(pid) ? pid : undefined;
  };
  const first = holder();
  if (first !== undefined) return first;
  const guard = `${file}.takeover`;
  if (!enterGuard(guard)) return undefined;
  try {
    // Checked again under the guard: another taker may have taken it over meanwhile.
    const now = holder();
    if (now !== undefined) return now;
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
