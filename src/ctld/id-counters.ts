// Job ids, as slurmctld's FirstJobId counter gives them, and step ids of jobs that run without a
// controller. The controller keeps its job id counter in memory (JobIdCounter): a job's id is
// durable in the journal record that is fsynced before the submission is answered (and an id
// used up without a job, --test-only's, in a `next_job_id` record), so a submission costs one
// disk flush, the journal's, which a burst shares. The counter file `next_job_id` in the state
// directory is the controller's mark: written (not fsynced) as ids are taken, so it survives
// a `kill -9` though not a power cut; a restart counts the jobs a damaged journal lost up to it
// (state/damage.ts), and an older build's file, which was the durable counter, is read as one.
import { ensureDir } from '../os/ensure-dir.js';
import { closeSync, constants, existsSync, ftruncateSync, openSync, readFileSync, statSync, writeSync } from 'node:fs';
import { writeFileAtomic } from '../os/atomic-write.js';
import { pidAlive, tryLockFile, type HeldLock, type LockAttempt } from '../os/lock-file.js';
import path from 'node:path';
import { UserError } from '../core/errors.js';
import { diskError, isDiskFull } from '../core/disk-full.js';

export const FIRST_JOB_ID = 1;
const LOCK_STALE_MS = 10_000;
const MARK_FILE = 'next_job_id';

/**
 * The controller's job ids: the next one in memory, recovered from the snapshot, the journal
 * and the counter file (the highest of the three), and the mark file kept up to date.
 */
export class JobIdCounter {
  private fd: number | undefined;
  private opened = false;

  /** `stateDir` undefined: memory only (a simulation). */
  constructor(
    private next: number,
    private readonly stateDir: string | undefined,
  ) {
    // A file already there (an older build's counter) says from now on where the ids are.
    if (stateDir !== undefined && existsSync(path.join(stateDir, MARK_FILE))) this.writeMark();
  }

  /** The id the next submission gets. */
  get peek(): number {
    return this.next;
  }

  /**
   * Takes `count` consecutive ids (an array's tasks) and returns the first. Durable only
   * once the journal record that names them is: the caller journals before it answers.
   */
  take(count: number): number {
    const first = this.next;
    this.next += count;
    this.writeMark();
    return first;
  }

  close(): void {
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
  }

  // One pwrite at the start of the file: the text never gets shorter (the ids only grow) once
  // what an older build left after it has been cut off, at the first write. A failure costs
  // only the mark: the journal still holds every id.
  private writeMark(): void {
    if (this.stateDir === undefined) return;
    const text = Buffer.from(`${this.next} ${this.next}\n`);
    const first = !this.opened;
    try {
      if (first) {
        this.opened = true;
        // Not O_TRUNC: a kill between a truncation and the write would leave no mark.
        this.fd = openSync(path.join(this.stateDir, MARK_FILE), constants.O_RDWR | constants.O_CREAT, 0o600);
      }
      if (this.fd === undefined) return;
      writeSync(this.fd, text, 0, text.length, 0);
      if (first) ftruncateSync(this.fd, text.length);
    } catch {
      // a full disk, or an unwritable file: without a mark a restart after a damaged journal
      // cannot count what it lost; ids stay unique all the same
    }
  }
}

/**
 * Where the ids go on after a restart: past every id in the counter file (an older build's
 * durable counter, or the mark), in the snapshot's header, and in the journal's records.
 */
export function recoveredNextJobId(stateDir: string, snapshotNext: number | undefined, records: Iterable<{ t: string; job?: { id: number }; next?: number }>): number {
  let next = Math.max(FIRST_JOB_ID, peekJobIds(stateDir)?.next ?? 0, snapshotNext ?? 0);
  for (const record of records) {
    if (record.t === 'submit' && record.job !== undefined) next = Math.max(next, record.job.id + 1);
    else if (record.t === 'next_job_id' && record.next !== undefined) next = Math.max(next, record.next);
  }
  return next;
}

/** The counter file's two numbers: the next id, and the next after the controller's last (when known). */
export function peekJobIds(stateDir: string): { next: number; controllerNext: number | undefined } | undefined {
  try {
    const [next, mark] = readFileSync(path.join(stateDir, MARK_FILE), 'utf8').trim().split(/\s+/).map(Number);
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

function takeNext(dir: string, name: string, first: number, count = 1): number {
  ensureDir(dir);
  const counter = path.join(dir, name);
  return withLock(`${counter}.lock`, () => {
    let next = first;
    try {
      const words = readFileSync(counter, 'utf8').trim().split(/\s+/);
      next = Number.parseInt(words[0] ?? '', 10);
      if (!Number.isSafeInteger(next) || next < first) next = first;
    } catch {
      // the first id taken from this counter
    }
    // Write the new value fully before it replaces the old one, so a crash never loses ids.
    try {
      writeFileAtomic(counter, `${next + count}\n`);
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
