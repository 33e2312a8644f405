// The controller's journal (DESIGN.md §8): every change is appended as one JSON line and
// fsynced before the change is acknowledged, so `kill -9` loses nothing that was answered.
// Appends made while a write is in flight are committed together with one fdatasync (group
// commit), so a burst of submissions costs one disk flush, not one each. A write that fails
// (a full disk) is taken back to the last whole record, so the records appended after the
// disk has room again do not follow half a line.
import { closeSync, fdatasyncSync, fstatSync, ftruncateSync, openSync, readFileSync, readSync, writeSync } from 'node:fs';
import { fdatasync } from 'node:fs';
import { promisify } from 'node:util';

const fdatasyncAsync = promisify(fdatasync);

export type JournalRecord =
  | { t: 'submit'; job: import('./stored-job.js').StoredJob }
  /**
   * A whole array's submission as one record (slurmctld keeps an array as one job record):
   * `job` is its first task; task k has id job.id + k, array index tasks[k][0] and priority
   * tasks[k][1], the rest as the first. Read back as one `submit` record per task.
   */
  | { t: 'submit_array'; job: import('./stored-job.js').StoredJob; tasks: Array<[taskId: number, priority: number]> }
  | { t: 'progress'; id: number; p: import('./stored-job.js').JobProgress }
  | { t: 'purge'; id: number }
  | { t: 'node'; name: string; state: number; reason: string | null; time?: number; uid?: number }
  | { t: 'next_job_id'; next: number };

/**
 * A record as read back: an array's record is already split into its tasks' `submit` records,
 * which share its sequence number; `part` is the task's place in it.
 */
export type SequencedRecord = Exclude<JournalRecord, { t: 'submit_array' }> & { seq: number; part?: number };

export class Journal {
  private fd: number;
  /** The file's length after the last write that went through: whole records only. */
  private committed: number;
  private batch: Array<{ line: string; grouped: boolean; done: () => void; failed: (e: Error) => void; written?: () => void }> = [];
  private flushing: Promise<void> | undefined;
  /** Grouped records announced (expect) and not appended yet. */
  private expected = 0;
  /** Wakes a flush that waits for them. */
  private wake: (() => void) | undefined;

  constructor(
    readonly file: string,
    private seq: number,
  ) {
    this.fd = openSync(file, 'a+', 0o600);
    this.committed = wholeRecordsLength(this.fd);
  }

  /** The sequence number of the last record appended. */
  get lastSeq(): number {
    return this.seq;
  }

  /**
   * Appends a record; resolves once it is on disk. A `grouped` record (a job's start) waits for
   * the others announced with `expect` (the other starts of its scheduling pass), so that one
   * flush takes them all; any other record is flushed at once, with the grouped ones waiting.
   * `written` is called once the record is in the file (the page cache), before its flush to
   * the disk: from then on a killed controller finds it; only a power loss could lose it.
   */
  append(record: JournalRecord, grouped = false, written?: () => void): Promise<void> {
    const line = `${JSON.stringify({ seq: ++this.seq, ...record })}\n`;
    return new Promise((done, failed) => {
      this.batch.push({ line, grouped, done, failed, ...(written && { written }) });
      if (!grouped) this.wakeFlush();
      this.flushing ??= this.flush();
    });
  }

  /** Announces a grouped record to come; call the answer once it is appended (or will not be). */
  expect(): () => void {
    this.expected++;
    let called = false;
    return () => {
      if (called) return;
      called = true;
      if (--this.expected === 0) this.wakeFlush();
    };
  }

  private wakeFlush(): void {
    const wake = this.wake;
    this.wake = undefined;
    wake?.();
  }

  /** Waits until everything appended so far is on disk. */
  async settle(): Promise<void> {
    while (this.flushing) await this.flushing;
  }

  /** Starts a new, empty journal file (after a snapshot has made the old records redundant). */
  reopen(file: string): void {
    // Opened before the old one is closed: if it cannot be, appends still go to the old file.
    const fd = openSync(file, 'a+', 0o600);
    closeSync(this.fd);
    this.fd = fd;
    this.committed = wholeRecordsLength(fd);
  }

  close(): void {
    if (this.batch.length > 0) {
      const batch = this.batch;
      this.batch = [];
      try {
        const bytes = Buffer.from(batch.map((b) => b.line).join(''));
        for (let at = 0; at < bytes.length; ) at += writeSync(this.fd, bytes, at);
        batch.forEach((b) => b.written?.());
        fdatasyncSync(this.fd);
        batch.forEach((b) => b.done());
      } catch (error) {
        this.takeBack();
        batch.forEach((b) => b.failed(error as Error));
      }
    }
    closeSync(this.fd);
  }

  private async flush(): Promise<void> {
    // Let the rest of this event-loop turn add its records to the same batch.
    await new Promise((resolve) => setImmediate(resolve));
    while (this.batch.length > 0) {
      // Only grouped records so far, and more of them on their way: wait for them.
      while (this.expected > 0 && this.batch.every((b) => b.grouped)) await new Promise<void>((resolve) => (this.wake = resolve));
      const batch = this.batch;
      this.batch = [];
      const bytes = Buffer.from(batch.map((b) => b.line).join(''));
      try {
        // A short write is not an error yet: the rest is written, or fails with the reason.
        // Written at once (it goes to the page cache): through the thread pool it cost a second
        // round trip per flush, a wake-up of a worker and of this loop. The flush to the disk,
        // which takes milliseconds, still runs beside the loop.
        for (let at = 0; at < bytes.length; ) at += writeSync(this.fd, bytes, at, bytes.length - at);
        batch.forEach((b) => b.written?.());
        await fdatasyncAsync(this.fd);
        this.committed += bytes.length;
        batch.forEach((b) => b.done());
      } catch (error) {
        this.takeBack();
        batch.forEach((b) => b.failed(error as Error));
      }
    }
    this.flushing = undefined;
  }

  // Cuts off what a failed write left (shortening a file needs no space).
  private takeBack(): void {
    try {
      ftruncateSync(this.fd, this.committed);
    } catch {
      // Then the next start finds a damaged line, reports it, and skips it.
    }
  }
}

// The length of a journal's whole records, a last line a crash cut short cut off: it was never
// acknowledged, and a record appended after it would leave it as damage in the middle.
function wholeRecordsLength(fd: number): number {
  const size = fstatSync(fd).size;
  if (size === 0) return 0;
  const last = Buffer.alloc(1);
  readSync(fd, last, 0, 1, size - 1);
  if (last[0] === 0x0a) return size;
  const text = Buffer.alloc(size);
  for (let at = 0; at < size; ) at += readSync(fd, text, at, size - at, at);
  const whole = text.lastIndexOf(0x0a) + 1;
  ftruncateSync(fd, whole);
  return whole;
}

/**
 * The records of a journal file in order. A last line cut short by a crash was never
 * acknowledged and is skipped; damage anywhere else is reported through `onDamage`.
 */
export function readJournal(file: string, onDamage: (message: string) => void): SequencedRecord[] {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return [];
  }
  const lines = text.split('\n');
  const records: SequencedRecord[] = [];
  for (const [i, line] of lines.entries()) {
    if (line === '') continue;
    try {
      const record = JSON.parse(line) as SequencedRecord | (JournalRecord & { t: 'submit_array'; seq: number });
      if (typeof record.seq !== 'number' || typeof record.t !== 'string') throw new Error('not a journal record');
      if (record.t === 'submit_array') records.push(...arrayTaskRecords(record));
      else records.push(record);
    } catch {
      const last = i === lines.length - 1 || (i === lines.length - 2 && lines[i + 1] === '');
      if (!last) onDamage(`${file}: line ${i + 1} is damaged; skipped`);
    }
  }
  return records;
}

// One `submit` record per task of an array's record, each with the array's sequence number.
function arrayTaskRecords(record: JournalRecord & { t: 'submit_array'; seq: number }): SequencedRecord[] {
  if (!Array.isArray(record.tasks)) throw new Error('not a journal record');
  return record.tasks.map(([taskId, priority], k) => ({
    seq: record.seq,
    part: k,
    t: 'submit',
    job: { ...record.job, id: record.job.id + k, arrayTaskId: taskId, priority },
  }));
}
