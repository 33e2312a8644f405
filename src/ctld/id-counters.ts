// Job (and step) ids that stay unique across commands sharing a state directory, as slurmctld's
// FirstJobId counter does: a small counter file, updated under an exclusive lock file.
import { ensureDir } from '../core/ensure-dir.js';
import { openSync, closeSync, readFileSync, renameSync, rmSync, writeFileSync, fsyncSync, statSync } from 'node:fs';
import path from 'node:path';
import { UserError } from '../core/errors.js';

const FIRST_JOB_ID = 1;
const LOCK_STALE_MS = 10_000;

/** Takes the next job id from `stateDir/next_job_id` and returns it. */
export function takeNextJobId(stateDir: string): number {
  return takeNext(stateDir, 'next_job_id', FIRST_JOB_ID);
}

/** Takes `count` consecutive job ids (an array's tasks) and returns the first. */
export function takeJobIds(stateDir: string, count: number): number {
  return takeNext(stateDir, 'next_job_id', FIRST_JOB_ID, count);
}

/** Takes the next step id of a job that runs without a controller (tsrun inside an allocation). */
export function takeNextStepId(stateDir: string, jobId: number): number {
  return takeNext(path.join(stateDir, 'steps'), `job${jobId}.next_step`, 0);
}

function takeNext(dir: string, name: string, first: number, count = 1): number {
  ensureDir(dir);
  const counter = path.join(dir, name);
  return withLock(`${counter}.lock`, () => {
    let next = first;
    try {
      next = Number.parseInt(readFileSync(counter, 'utf8'), 10);
      if (!Number.isSafeInteger(next) || next < first) next = first;
    } catch {
      // the first id taken from this counter
    }
    // Write the new value fully before it replaces the old one, so a crash never loses ids.
    const tmp = `${counter}.new`;
    writeFileSync(tmp, `${next + count}\n`);
    const fd = openSync(tmp, 'r+');
    fsyncSync(fd);
    closeSync(fd);
    renameSync(tmp, counter);
    return next;
  });
}

function withLock<T>(lockFile: string, work: () => T): T {
  const deadline = Date.now() + 5_000;
  for (;;) {
    try {
      closeSync(openSync(lockFile, 'wx'));
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') {
        throw new UserError(`cannot use state directory ${path.dirname(lockFile)}: ${(error as Error).message}`);
      }
      // A lock left by a killed command must not block every later one.
      if (isStale(lockFile)) rmSync(lockFile, { force: true });
      else if (Date.now() > deadline) throw new UserError(`state directory is locked: ${lockFile}`);
      else Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 5);
    }
  }
  try {
    return work();
  } finally {
    rmSync(lockFile, { force: true });
  }
}

function isStale(lockFile: string): boolean {
  try {
    return Date.now() - statSync(lockFile).mtimeMs > LOCK_STALE_MS;
  } catch {
    return false;
  }
}
