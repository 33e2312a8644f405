// Where the controller's state lives and how it comes back (DESIGN.md §8): the newest good
// snapshot (falling back to `.old`), then the journal records written after it. Both journals
// are read: `journal.old` holds the records between the two snapshots, which a fall-back to
// `job_state.old` needs.
import { ensureDir } from '../../core/ensure-dir.js';
import { renameSync, existsSync } from 'node:fs';
import path from 'node:path';
import { Journal, readJournal, type JournalRecord, type SequencedRecord } from './journal.js';
import { readSnapshot, writeSnapshot, type NodeStateRecord, type Snapshot } from './snapshot.js';
import type { StoredJob } from './stored-job.js';

/** Records between snapshots: a snapshot rewrites every job, so not after each change. */
const SNAPSHOT_EVERY = 5_000;

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

  /** `volatile`: nothing is read or written (a simulation's job table lives in memory only). */
  constructor(
    stateDir: string,
    private readonly volatile = false,
  ) {
    this.dir = path.join(stateDir, 'ctld');
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
    const problems: string[] = [];
    let base: Snapshot | undefined;
    for (const file of [this.snapshotFile, `${this.snapshotFile}.old`]) {
      if (!existsSync(file)) continue;
      try {
        base = readSnapshot(file);
        break;
      } catch (error) {
        problems.push(`${file}: ${(error as Error).message}; trying the previous state`);
      }
    }
    const jobs = new Map((base?.jobs ?? []).map((job) => [job.id, job]));
    const nodes = new Map((base?.nodes ?? []).map((node) => [node.name, node]));
    let seq = base?.seq ?? 0;
    const records = [
      ...readJournal(`${this.journalFile}.old`, (m) => problems.push(m)),
      ...readJournal(this.journalFile, (m) => problems.push(m)),
    ].sort((a, b) => a.seq - b.seq);
    for (const record of records) {
      if (record.seq <= seq) continue;
      if (record.seq !== seq + 1 && seq > 0) problems.push(`journal records ${seq + 1}-${record.seq - 1} are missing`);
      replay(record, jobs, nodes);
      seq = record.seq;
    }
    return { jobs, nodes, seq, problems };
  }

  /**
   * Starts writing: a snapshot of the recovered state, then a fresh journal (the old one may
   * end in a line a crash cut short).
   */
  open(state: Omit<Snapshot, 'savedAt' | 'nextJobId'>): void {
    this.saveSnapshot(state);
  }

  /** Appends a record; resolves once it is on disk. */
  append(record: JournalRecord): Promise<void> {
    if (this.volatile) return Promise.resolve();
    this.sinceSnapshot++;
    return this.journal!.append(record);
  }

  /** Whether enough has changed since the last snapshot to write a new one. */
  get snapshotDue(): boolean {
    return this.sinceSnapshot >= SNAPSHOT_EVERY;
  }

  get lastSeq(): number {
    return this.journal?.lastSeq ?? 0;
  }

  /** Waits for pending appends, then writes a snapshot of `state` and rotates the journal. */
  async snapshot(state: () => Omit<Snapshot, 'savedAt' | 'nextJobId' | 'seq'>): Promise<void> {
    if (this.volatile) return;
    await this.journal?.settle();
    this.saveSnapshot({ ...state(), seq: this.lastSeq });
  }

  close(): void {
    this.journal?.close();
  }

  private saveSnapshot(state: Omit<Snapshot, 'savedAt' | 'nextJobId'>): void {
    if (this.volatile) return;
    writeSnapshot(this.snapshotFile, { ...state, nextJobId: 0, savedAt: Math.floor(Date.now() / 1000) });
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
