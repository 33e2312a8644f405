// Job (and step) ids that stay unique across commands sharing a state directory, as slurmctld's
// FirstJobId counter does: a small counter file, updated under an exclusive lock file.
import { ensureDir } from '../os/ensure-dir.js';
import { readFileSync, statSync } from 'node:fs';
import { writeFileAtomic } from '../os/atomic-write.js';
import { pidAlive, tryLockFile, type HeldLock, type LockAttempt } from '../os/lock-file.js';
import path from 'node:path';
import { UserError } from '../core/errors.js';
import { diskError, isDiskFull } from '../core/disk-full.js';

export const FIRST_JOB_ID = 1;
const LOCK_STALE_MS = 10_000;

/**
 * Takes `count` consecutive job ids (an array's tasks) for the controller and returns the
 * first. The file then also says where the controller's ids end (`<next> <controller's next>`):
 * the ids a damaged journal lost are counted up to there (state-store.ts), not ids an older
 * tsrun took past it on its own, when it allocated without a controller.
 */
export function takeJobIds(stateDir: string, count: number): number {
  return takeNext(stateDir, 'next_job_id', FIRST_JOB_ID, count, true);
}

/** The counter file's two numbers: the next id, and the next after the controller's last (when known). */
export function peekJobIds(stateDir: string): { next: number; controllerNext: number | undefined } | undefined {
  try {
    const [next, mark] = readFileSync(path.join(stateDir, 'next_job_id'), 'utf8').trim().split(/\s+/).map(Number);
    if (!Number.isSafeInteger(next)) return undefined;
    return { next: next!, controllerNext: Number.isSafeInteger(mark) ? mark : undefined };
  } catch {
    return undefined;
  }
}

/** Takes the next step id of a job that runs without a controller (tsrun inside an allocation). */
export function takeNextStepId(stateDir: string, jobId: number): number {
  return takeNext(path.join(stateDir, 'steps'), `job${jobId}.next_step`, 0);
}

function takeNext(dir: string, name: string, first: number, count = 1, byController?: boolean): number {
  ensureDir(dir);
  const counter = path.join(dir, name);
  return withLock(`${counter}.lock`, () => {
    let next = first;
    let mark: string | undefined;
    try {
      const words = readFileSync(counter, 'utf8').trim().split(/\s+/);
      next = Number.parseInt(words[0] ?? '', 10);
      mark = words[1];
      if (!Number.isSafeInteger(next) || next < first) next = first;
    } catch {
      // the first id taken from this counter
    }
    if (byController === true) mark = String(next + count);
    // Write the new value fully before it replaces the old one, so a crash never loses ids.
    try {
      writeFileAtomic(counter, `${next + count}${byController !== undefined && mark !== undefined ? ` ${mark}` : ''}\n`);
    } catch (error) {
      // A full disk: no id is taken, and no half-written counter is left behind.
      throw diskError(error);
    }
    return next;
  });
}

// The counter's lock: its holder's pid (os/lock-file.ts). A lock whose holder is gone, or held
// longer than any update takes (a recycled pid), is taken over, so a lock left by a killed
// command does not block every later one.
function withLock<T>(lockFile: string, work: () => T): T {
  const deadline = Date.now() + 5_000;
  const stillHeld = (pid: number): boolean => pidAlive(pid) && !isStale(lockFile);
  let lock: HeldLock | undefined;
  while (lock === undefined) {
    let attempt: LockAttempt;
    try {
      attempt = tryLockFile(lockFile, stillHeld);
    } catch (error) {
      if (isDiskFull(error)) throw diskError(error);
      throw new UserError(`cannot use state directory ${path.dirname(lockFile)}: ${(error as Error).message}`);
    }
    if ('lock' in attempt) lock = attempt.lock;
    else if (Date.now() > deadline) throw new UserError(`state directory is locked: ${lockFile}`);
    else Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 5);
  }
  try {
    return work();
  } finally {
    lock.release();
  }
}

function isStale(lockFile: string): boolean {
  try {
    return Date.now() - statSync(lockFile).mtimeMs > LOCK_STALE_MS;
  } catch {
    return false;
  }
}
