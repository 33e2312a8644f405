// Where the controller's state lives and how it comes back (DESIGN.md §8): the newest good
// snapshot (falling back to `.old`), then the journal records written after it. Every journal
// is read: `journal.old` holds the records between the two snapshots, which a fall-back to
// `job_state.old` needs, and `journal.saving` those of a snapshot being written.
//
// A snapshot is written without holding up the controller's loop: the state is taken and the
// journal renamed to `journal.saving` in one step on the loop (a fresh journal takes the records
// after it), the file is written and fsynced through the thread pool, and only once it has taken
// `job_state`'s place does `journal.saving` become `journal.old`. So at every moment the
// snapshot in place and the journals on disk hold every acknowledged change, whatever a `kill -9`
// interrupts.
import { ensureDir } from '../../os/ensure-dir.js';
import { readdirSync, renameSync, existsSync } from 'node:fs';
import { rename } from 'node:fs/promises';
import { syncDir, syncDirAsync, writeFileAtomic, writeFileAtomicAsync } from '../../os/atomic-write.js';
import { checkTrustedDir, checkTrustedFile } from '../../config/trusted-path.js';
import { UserError } from '../../core/errors.js';
import { slurm_strerror } from '../../core/errno.js';
import { diskError, isDiskFull } from '../../core/disk-full.js';
import { FIRST_JOB_ID, JobIdCounter, peekJobIds, recoveredNextJobId } from '../id-counters.js';
import { countLost, keepAside } from './damage.js';
import path from 'node:path';
import { quarantineInvalid } from './quarantine.js';
import { Journal, readJournal, type JournalRecord, type SequencedRecord } from './journal.js';
import { readSnapshot, salvageSnapshot, snapshotPieces, takeSnapshot, type NodeStateRecord, type Snapshot, type TakenSnapshot } from './snapshot.js';
import type { StoredJob } from './stored-job.js';

/** Records between snapshots: a snapshot rewrites every job, so not after each change. */
const SNAPSHOT_EVERY = 5_000;

/** TSLURM_SNAPSHOT_EVERY when it is a positive integer (tests make snapshots frequent), else SNAPSHOT_EVERY. */
function snapshotEvery(): number {
  const value = Number(process.env.TSLURM_SNAPSHOT_EVERY);
  return Number.isInteger(value) && value > 0 ? value : SNAPSHOT_EVERY;
}
/** How often a journal that could not be written is tried again. */
const RETRY_MS = 2_000;

export interface RecoveredState {
  jobs: Map<number, StoredJob>;
  nodes: Map<string, NodeStateRecord>;
  seq: number;
  /** What went wrong on the way (a damaged file, a fall-back), for the log. */
  problems: string[];
}

export class StateStore {
  readonly dir: string;
  private journal: Journal | undefined;
  private sinceSnapshot = 0;
  private readonly snapshotEvery = snapshotEvery();
  /** Why the journal cannot be written now; undefined while it can. */
  private failure: Error | undefined;
  private lastTry = 0;
  /** The recovered sequence number, while no journal could be opened. */
  private seq = 0;
  /** The job ids: recovered, then taken by submissions (id-counters.ts). */
  private ids = new JobIdCounter(FIRST_JOB_ID, undefined);
  /** The snapshot being written, or the last one; the next waits for it. */
  private writing: Promise<void> = Promise.resolve();
  /** Snapshots asked for and not yet written. */
  private snapshotsUnderWay = 0;
  /** Told when the journal stops or starts being writable (for the log). */
  onHealth: (message: string, failing: boolean) => void = () => {};

  /** `volatile`: nothing is read or written (a simulation's job table lives in memory only). */
  constructor(
    stateDir: string,
    private readonly volatile = false,
  ) {
    this.dir = StateStore.dirIn(stateDir);
  }

  /** The controller's own directory in a state directory, where its journal and snapshot live. */
  static dirIn(stateDir: string): string {
    return path.join(stateDir, 'ctld');
  }

  get snapshotFile(): string {
    return path.join(this.dir, 'job_state');
  }

  get journalFile(): string {
    return path.join(this.dir, 'journal');
  }

  /** The records a snapshot being written holds, until it is in place (then journal.old). */
  get savingJournalFile(): string {
    return `${this.journalFile}.saving`;
  }

  recover(): RecoveredState {
    if (this.volatile) return { jobs: new Map(), nodes: new Map(), seq: 0, problems: [] };
    ensureDir(this.dir);
    this.checkTrusted();
    const problems: string[] = [];
    const damaged = new Set<string>();
    let base: Snapshot | undefined;
    let lostInSnapshot: number | undefined = 0;
    for (const file of [this.snapshotFile, `${this.snapshotFile}.old`]) {
      if (!existsSync(file)) continue;
      try {
        base = readSnapshot(file);
        break;
      } catch (error) {
        problems.push(`${file}: ${(error as Error).message}; trying the previous state`);
        damaged.add(file);
      }
    }
    if (base === undefined) {
      // No good snapshot: what the newest readable one still holds.
      for (const file of damaged) {
        const salvage = salvageSnapshot(file);
        if (salvage === undefined) continue;
        base = salvage.snapshot;
        lostInSnapshot = salvage.missingJobs;
        break;
      }
      if (damaged.size > 0 && base === undefined) lostInSnapshot = undefined;
    }
    const jobs = new Map((base?.jobs ?? []).map((job) => [job.id, job]));
    const nodes = new Map((base?.nodes ?? []).map((node) => [node.name, node]));
    let seq = base?.seq ?? 0;
    const records: SequencedRecord[] = [];
    for (const file of [`${this.journalFile}.old`, this.savingJournalFile, this.journalFile]) {
      records.push(
        ...readJournal(file, (m) => {
          problems.push(m);
          damaged.add(file);
        }),
      );
    }
    records.sort((a, b) => a.seq - b.seq);
    const replayed: SequencedRecord[] = [];
    // The tasks of an array's record share its sequence number: the rest of a group whose
    // first task was replayed (and not the copy of a group another file also holds).
    let inGroup = false;
    for (const record of records) {
      const rest = record.part !== undefined && record.part > 0;
      if (record.seq < seq || (record.seq === seq && !(rest && inGroup))) {
        inGroup = false;
        continue;
      }
      inGroup = record.t === 'submit' && record.part !== undefined;
      if (!rest && record.seq !== seq + 1 && seq > 0) problems.push(`journal records ${seq + 1}-${record.seq - 1} are missing`);
      replay(record, jobs, nodes);
      replayed.push(record);
      seq = record.seq;
    }
    problems.push(...this.reportLoss(base, lostInSnapshot, replayed, damaged));
    // Every record read counts, replayed or not: an id a record names was taken.
    this.ids = new JobIdCounter(recoveredNextJobId(path.dirname(this.dir), base?.nextJobId, records), path.dirname(this.dir));
    quarantineInvalid(jobs, this.dir, problems);
    return { jobs, nodes, seq, problems };
  }

  // The jobs a damaged or cut journal or snapshot cost, in one line, with the damaged files
  // kept aside. Counted from the snapshot's id counter on (damage.ts); a file of an older
  // build that has no counter in it is not counted.
  private reportLoss(base: Snapshot | undefined, lostInSnapshot: number | undefined, replayed: readonly SequencedRecord[], damaged: Set<string>): string[] {
    const ids = peekJobIds(path.dirname(this.dir));
    const fromJournal =
      base !== undefined && base.nextJobId > 0 && ids?.controllerNext !== undefined
        ? countLost(base.nextJobId, ids.controllerNext, base.jobs.map((job) => job.id), replayed)
        : undefined;
    const count = fromJournal === undefined || lostInSnapshot === undefined ? undefined : fromJournal.count + lostInSnapshot;
    if (damaged.size === 0 && (count === 0 || count === undefined)) return [];
    // Nothing read as damaged but jobs are missing: the journal was cut at a line's end, or emptied.
    if (damaged.size === 0 && existsSync(this.journalFile)) damaged.add(this.journalFile);
    const kept = [...damaged].map((file) => {
      try {
        return `${path.basename(file)} kept as ${keepAside(file, file.includes('job_state'))}`;
      } catch (error) {
        return `${path.basename(file)} could not be kept aside (${systemText(error as Error)})`;
      }
    });
    // An id taken for a submission a crash cut short before its answer is missing too.
    const what =
      count === undefined
        ? 'the number of jobs lost is not known'
        : count === 0
          ? 'no job was lost'
          : `${count} job${count === 1 ? '' : 's'} could not be recovered${fromJournal!.count > 0 ? ` (job ids ${fromJournal!.ids}, counting any submission a crash cut short before its answer)` : ''}`;
    return [`damaged controller state in ${this.dir}: ${what}; ${kept.join(', ')}`];
  }

  // Every file state is read from must be this user's own (config/trusted-path.ts): the
  // directory is checked by the daemon before it gets here, what is in it here.
  private checkTrusted(): void {
    checkTrustedDir(this.dir, 'controller state directory');
    for (const name of readdirSync(this.dir)) checkTrustedFile(path.join(this.dir, name), 'state file');
    checkTrustedFile(path.join(path.dirname(this.dir), 'next_job_id'), 'job id counter');
  }

  /**
   * Takes `count` consecutive job ids and returns the first: durable once the journal record
   * naming them is (a `submit`, or `next_job_id` for an id used up without a job).
   */
  takeJobIds(count: number): number {
    return this.ids.take(count);
  }

  /** The id the next submission gets. */
  get nextJobId(): number {
    return this.ids.peek;
  }

  /**
   * Starts writing: a snapshot of the recovered state, then a fresh journal (the old one may
   * end in a line a crash cut short).
   */
  open(state: Omit<Snapshot, 'savedAt' | 'nextJobId'>): void {
    try {
      this.saveSnapshot(state);
    } catch (error) {
      // A full disk at start: serve what was recovered, and write once there is room.
      if (!isDiskFull(error)) throw error;
      this.seq = state.seq;
      this.fail(error as Error);
    }
  }

  /**
   * Appends a record; resolves once it is on disk. While the journal cannot be written (a
   * full disk) a submission is refused with the reason, and any other change stays in memory
   * only, until the snapshot written once the disk has room again (retry) holds it.
   * `written` (Journal.append) is called too when the record is not written at all.
   */
  append(record: JournalRecord, grouped = false, written?: () => void): Promise<void> {
    if (this.volatile || this.failure !== undefined) written?.();
    if (this.volatile) return Promise.resolve();
    const submission = record.t === 'submit' || record.t === 'submit_array';
    if (this.failure !== undefined) return submission ? Promise.reject(journalRefusal(this.failure)) : Promise.resolve();
    this.sinceSnapshot++;
    return this.journal!.append(record, grouped, written).catch((error: Error) => {
      written?.();
      this.fail(error);
      if (submission) throw journalRefusal(error);
    });
  }

  /**
   * Announces a grouped record (Journal.expect): the starts of one scheduling pass, whose
   * records come as the step host answers each launch, are flushed together.
   */
  expectGrouped(): () => void {
    return this.journal && this.failure === undefined ? this.journal.expect() : () => {};
  }

  /** Refuses, with the reason, while nothing can be journaled: no new job may be answered. */
  checkWritable(): void {
    if (this.failure !== undefined) throw journalRefusal(this.failure);
  }

  /** Whether the journal cannot be written now. */
  get failing(): boolean {
    return this.failure !== undefined;
  }

  /**
   * While failing, at most every RETRY_MS: a snapshot of `state`, which holds every change
   * since the failure; once it is written, the journal is written again.
   */
  async retry(state: () => Omit<Snapshot, 'savedAt' | 'nextJobId' | 'seq'>): Promise<void> {
    // A snapshot under way writes the same files; the next retry comes after it.
    if (this.failure === undefined || this.snapshotsUnderWay > 0 || Date.now() - this.lastTry < RETRY_MS) return;
    this.lastTry = Date.now();
    try {
      this.saveSnapshot({ ...state(), seq: this.lastSeq });
    } catch {
      return;
    }
    this.failure = undefined;
    this.onHealth(`the journal can be written again; taking submissions`, false);
  }

  private fail(error: Error): void {
    if (this.failure !== undefined) return;
    this.failure = error;
    this.lastTry = Date.now();
    this.onHealth(`cannot write the journal ${this.journalFile}: ${systemText(error)}; submissions are refused until it can be written again`, true);
  }

  /** Whether enough has changed since the last snapshot to write a new one. */
  get snapshotDue(): boolean {
    return this.snapshotsUnderWay === 0 && this.sinceSnapshot >= this.snapshotEvery;
  }

  get lastSeq(): number {
    return this.journal?.lastSeq ?? this.seq;
  }

  /**
   * Waits for pending appends, then takes `state` and rotates the journal at once; the file is
   * written off the loop, and the promise resolves once it is in place. One at a time: a call
   * while a snapshot is being written waits for it.
   */
  snapshot(state: () => Omit<Snapshot, 'savedAt' | 'nextJobId' | 'seq'>): Promise<void> {
    this.snapshotsUnderWay++;
    const written = this.writing.then(() => this.writeSnapshotNow(state)).finally(() => this.snapshotsUnderWay--);
    this.writing = written.catch(() => {});
    return written;
  }

  private async writeSnapshotNow(state: () => Omit<Snapshot, 'savedAt' | 'nextJobId' | 'seq'>): Promise<void> {
    if (this.volatile || this.failure !== undefined) return;
    await this.journal?.settle();
    if (this.failure !== undefined) return;
    try {
      // No await between settle() and here: no flush has begun on the journal being rotated.
      const taken = this.capture({ ...state(), seq: this.lastSeq });
      await writeFileAtomicAsync(this.snapshotFile, snapshotPieces(taken), { keepOld: true });
      if (existsSync(this.savingJournalFile)) await rename(this.savingJournalFile, `${this.journalFile}.old`);
      await syncDirAsync(this.dir);
    } catch (error) {
      this.fail(error as Error);
      throw error;
    }
  }

  close(): void {
    this.journal?.close();
    this.ids.close();
  }

  // The same steps as writeSnapshotNow, all on the loop: at start (nothing to answer yet) and
  // while the journal cannot be written.
  private saveSnapshot(state: Omit<Snapshot, 'savedAt' | 'nextJobId'>): void {
    if (this.volatile) return;
    const taken = this.capture(state);
    writeFileAtomic(this.snapshotFile, [...snapshotPieces(taken)].join(''), { keepOld: true });
    if (existsSync(this.savingJournalFile)) renameSync(this.savingJournalFile, `${this.journalFile}.old`);
    syncDir(this.dir);
  }

  // A snapshot's content, and a fresh journal for the records after it: the records up to
  // state.seq go to journal.saving, to stay on disk until the snapshot is (then, as
  // journal.old, one more round for a fall-back to job_state.old).
  private capture(state: Omit<Snapshot, 'savedAt' | 'nextJobId'>): TakenSnapshot {
    // Every id below the counter is in this snapshot, or was purged, or was used up without a job.
    const taken = takeSnapshot({ ...state, nextJobId: this.ids.peek, savedAt: Math.floor(Date.now() / 1000) });
    // A journal.saving already there belongs to a snapshot that never took its place (a kill,
    // a full disk): the snapshot in place still needs its records, and journal's after them.
    // Both stay as they are, journal going on (replay skips what this snapshot holds), and the
    // next snapshot rotates it.
    const keep = existsSync(this.savingJournalFile);
    if (!keep && existsSync(this.journalFile)) renameSync(this.journalFile, this.savingJournalFile);
    if (this.journal === undefined) this.journal = new Journal(this.journalFile, state.seq);
    else if (!keep || !existsSync(this.journalFile)) this.journal.reopen(this.journalFile);
    this.sinceSnapshot = 0;
    return taken;
  }
}

function replay(record: SequencedRecord, jobs: Map<number, StoredJob>, nodes: Map<string, NodeStateRecord>): void {
  switch (record.t) {
    case 'submit':
      jobs.set(record.job.id, record.job);
      break;
    case 'progress': {
      const job = jobs.get(record.id);
      if (job) jobs.set(record.id, { ...job, ...record.p });
      break;
    }
    case 'purge':
      jobs.delete(record.id);
      break;
    case 'node':
      nodes.set(record.name, { name: record.name, state: record.state, reason: record.reason, time: record.time, uid: record.uid });
      break;
    case 'next_job_id':
      break;
  }
}

// The answer to a submission the journal could not take: the C library's text for a full
// disk (what Slurm prints for ENOSPC), else what went wrong.
function journalRefusal(error: Error): UserError {
  const refusal = diskError(error);
  return refusal instanceof UserError ? refusal : new UserError(`cannot write the controller's journal: ${systemText(error)}`);
}

function systemText(error: Error): string {
  const errno = (error as NodeJS.ErrnoException).errno;
  return typeof errno === 'number' ? slurm_strerror(Math.abs(errno)) : error.message;
}
