// Where the controller's state lives and how it comes back (DESIGN.md §8): the newest good
// snapshot (falling back to `.old`), then the journal records written after it. Both journals
// are read: `journal.old` holds the records between the two snapshots, which a fall-back to
// `job_state.old` needs.
import { ensureDir } from '../../os/ensure-dir.js';
import { readdirSync, renameSync, existsSync } from 'node:fs';
import { checkTrustedDir, checkTrustedFile } from '../../config/trusted-path.js';
import { UserError } from '../../core/errors.js';
import { slurm_strerror } from '../../core/errno.js';
import { diskError, isDiskFull } from '../../core/disk-full.js';
import { FIRST_JOB_ID, JobIdCounter, peekJobIds, recoveredNextJobId } from '../id-counters.js';
import { countLost, keepAside } from './damage.js';
import path from 'node:path';
import { quarantineInvalid } from './quarantine.js';
import { Journal, readJournal, type JournalRecord, type SequencedRecord } from './journal.js';
import { readSnapshot, salvageSnapshot, writeSnapshot, type NodeStateRecord, type Snapshot } from './snapshot.js';
import type { StoredJob } from './stored-job.js';

/** Records between snapshots: a snapshot rewrites every job, so not after each change. */
const SNAPSHOT_EVERY = 5_000;
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
  /** Why the journal cannot be written now; undefined while it can. */
  private failure: Error | undefined;
  private lastTry = 0;
  /** The recovered sequence number, while no journal could be opened. */
  private seq = 0;
  /** The job ids: recovered, then taken by submissions (id-counters.ts). */
  private ids = new JobIdCounter(FIRST_JOB_ID, undefined);
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
    for (const file of [`${this.journalFile}.old`, this.journalFile]) {
      records.push(
        ...readJournal(file, (m) => {
          problems.push(m);
          damaged.add(file);
        }),
      );
    }
    records.sort((a, b) => a.seq - b.seq);
    const replayed: SequencedRecord[] = [];
    for (const record of records) {
      if (record.seq <= seq) continue;
      if (record.seq !== seq + 1 && seq > 0) problems.push(`journal records ${seq + 1}-${record.seq - 1} are missing`);
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
   */
  append(record: JournalRecord, grouped = false): Promise<void> {
    if (this.volatile) return Promise.resolve();
    if (this.failure !== undefined) return record.t === 'submit' ? Promise.reject(journalRefusal(this.failure)) : Promise.resolve();
    this.sinceSnapshot++;
    return this.journal!.append(record, grouped).catch((error: Error) => {
      this.fail(error);
      if (record.t === 'submit') throw journalRefusal(error);
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
    if (this.failure === undefined || Date.now() - this.lastTry < RETRY_MS) return;
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
    return this.sinceSnapshot >= SNAPSHOT_EVERY;
  }

  get lastSeq(): number {
    return this.journal?.lastSeq ?? this.seq;
  }

  /** Waits for pending appends, then writes a snapshot of `state` and rotates the journal. */
  async snapshot(state: () => Omit<Snapshot, 'savedAt' | 'nextJobId' | 'seq'>): Promise<void> {
    if (this.volatile || this.failure !== undefined) return;
    await this.journal?.settle();
    try {
      this.saveSnapshot({ ...state(), seq: this.lastSeq });
    } catch (error) {
      this.fail(error as Error);
      throw error;
    }
  }

  close(): void {
    this.journal?.close();
    this.ids.close();
  }

  private saveSnapshot(state: Omit<Snapshot, 'savedAt' | 'nextJobId'>): void {
    if (this.volatile) return;
    // Every id below the counter is in this snapshot, or was purged, or was used up without a job.
    const nextJobId = this.ids.peek;
    writeSnapshot(this.snapshotFile, { ...state, nextJobId, savedAt: Math.floor(Date.now() / 1000) });
    // The records up to state.seq are in the snapshot now; keep them one more round as
    // journal.old for a fall-back to job_state.old, and start an empty journal.
    if (existsSync(this.journalFile)) renameSync(this.journalFile, `${this.journalFile}.old`);
    if (this.journal) this.journal.reopen(this.journalFile);
    else this.journal = new Journal(this.journalFile, state.seq);
    this.sinceSnapshot = 0;
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
