// The controller's accounting (slurmctld's jobacct_storage calls): each job and step record is
// written to the store in the state directory as it starts and ends. The journal stays the
// source of truth for the queue: a store that cannot be opened or written is said in the log
// once (and again once it works), and scheduling goes on. At start every job the journal
// knows is written again, so a store a kill left behind agrees with the journal. The records
// that change in one turn of the event loop are written together, in one transaction, once
// the turn is over, and at most one transaction goes every WRITE_EVERY_MS: a transaction costs
// the controller about four times the rows it holds (measured: a job's start and end, four
// rows, took 0.19 ms of CPU in a transaction of their own, 0.05 ms eight jobs to one), and a
// drain of short jobs changes one or two a turn. A kill loses at most those not written yet,
// which the next start writes again from the journal.
import { accountingStorePath } from '../../acct/store-path.js';
import type { AcctStep } from '../../acct/records.js';
import type { StoreWriter } from '../../acct/store-writer.js';
import type { Logger } from '../../core/log.js';
import { purgeCutoff, type PurgeAfter } from '../../config/purge-after.js';
import type { Controller } from '../controller.js';
import type { CtldJob } from '../job.js';
import { ownStepOf, jobRecordOf } from './job-record.js';
import type { AccountingSink } from './sink.js';

/** How often old records are looked for, when retention is set. */
const PURGE_EVERY_MS = 3600_000;
/** The least time between two transactions; a change after a quiet spell is written at once. */
const WRITE_EVERY_MS = 20;
/**
 * The most jobs and steps one transaction writes: a 1,000-task array's rows in one held the
 * loop ~60 ms (measured with --cpu-prof; ~60 us a job, jobRecordOf and its insert).
 */
const WRITE_AT_MOST = 100;

export class JobAccounting implements AccountingSink {
  private failing = false;
  private timer: NodeJS.Timeout | undefined;
  /**
   * What changed since the last write, in the order of the last change of each: a job (its
   * records taken as they stand at the write) or a step's record. Written in that order, so
   * that where a job's own step and a step record are the same row, the later one wins as
   * when each was written at once.
   */
  private readonly changed = new Map<string, CtldJob | AcctStep>();
  /** Cancels the write that is due, while one is. */
  private due: (() => void) | undefined;
  /** When the last transaction went (ms). */
  private lastWrite = 0;

  private constructor(
    private readonly ctl: Controller,
    private readonly writer: StoreWriter,
    readonly file: string,
  ) {}

  /** Opens (or creates) the store; undefined, said in the log, when it cannot be. */
  static async open(ctl: Controller): Promise<JobAccounting | undefined> {
    const file = accountingStorePath(ctl.options.stateDir);
    try {
      const [{ openStoreForWriting }, { StoreWriter }] = await Promise.all([import('../../acct/open-store.js'), import('../../acct/store-writer.js')]);
      const { db, migrated } = await openStoreForWriting(file);
      for (const step of migrated) ctl.log.info(`accounting store ${file}: schema version ${step.version} (${step.what})`);
      return new JobAccounting(ctl, new StoreWriter(db), file);
    } catch (error) {
      ctl.log.error(`accounting store ${file} cannot be opened: ${describe(error)}; jobs are scheduled but not recorded`);
      return undefined;
    }
  }

  private get log(): Logger {
    return this.ctl.log;
  }

  /** A job was submitted or changed (started, ended, held, requeued, ...). */
  jobChanged(job: CtldJob): void {
    this.note(`job ${job.record.job_id}`, job);
  }

  /** A step started or ended (its record as it stands). */
  stepChanged(step: AcctStep): void {
    this.note(`step ${step.jobId}.${step.stepId}`, step);
  }

  /**
   * Writes what changed, in one transaction of at most WRITE_AT_MOST items unless `all`; the
   * rest goes in the next turn of the loop, so that the controller answers in between.
   */
  flush(all = false): void {
    this.due?.();
    this.due = undefined;
    if (this.changed.size === 0) return;
    const changed: Array<CtldJob | AcctStep> = [];
    for (const [key, item] of this.changed) {
      if (!all && changed.length === WRITE_AT_MOST) break;
      changed.push(item);
      this.changed.delete(key);
    }
    if (this.changed.size > 0) {
      const turn = setImmediate(() => this.flush());
      this.due = () => clearImmediate(turn);
    }
    this.lastWrite = Date.now();
    this.guard(() =>
      this.writer.writeInOrder(
        changed.flatMap((item) => {
          if (!('record' in item)) return [{ step: item }];
          const own = ownStepOf(this.ctl, item, item.batchUsage);
          return [{ job: jobRecordOf(this.ctl, item) }, ...(own ? [{ step: own }] : [])];
        }),
      ),
    );
  }

  private note(key: string, item: CtldJob | AcctStep): void {
    this.changed.delete(key);
    this.changed.set(key, item);
    if (this.due !== undefined) return;
    const wait = this.lastWrite + WRITE_EVERY_MS - Date.now();
    if (wait > 0) {
      const timer = setTimeout(() => this.flush(), wait);
      this.due = () => clearTimeout(timer);
    } else {
      const turn = setImmediate(() => this.flush());
      this.due = () => clearImmediate(turn);
    }
  }

  /** Writes every job the controller holds: the store then agrees with the journal. */
  reconcile(jobs: Iterable<CtldJob>): void {
    this.flush(true);
    const list = [...jobs];
    this.guard(() =>
      this.writer.writeMany(
        list.map((job) => jobRecordOf(this.ctl, job)),
        list.flatMap((job) => ownStepOf(this.ctl, job, job.batchUsage) ?? []),
      ),
    );
  }

  /** Retention (purge_after): records of jobs that ended longer ago go, now and every hour. */
  keepFor(keep: PurgeAfter | undefined): void {
    clearInterval(this.timer);
    if (keep === undefined) return;
    const purge = (): void =>
      this.guard(() => {
        const gone = this.writer.purgeEndedBefore(purgeCutoff(keep, this.ctl.now()));
        if (gone > 0) this.log.info(`accounting store: ${gone} job record(s) older than purge_after removed`);
      });
    purge();
    this.timer = setInterval(purge, PURGE_EVERY_MS).unref();
  }

  close(): void {
    clearInterval(this.timer);
    this.flush(true);
    try {
      this.writer.close();
    } catch {
      // closing a store that failed: nothing more to say
    }
  }

  private guard(write: () => void): void {
    try {
      write();
      if (this.failing) this.log.info(`accounting store ${this.file}: writing again`);
      this.failing = false;
    } catch (error) {
      if (!this.failing) this.log.error(`accounting store ${this.file} cannot be written: ${describe(error)}; jobs go on being scheduled, their records are not kept until it can`);
      this.failing = true;
    }
  }
}

/**
 * Opens the store for the controller once its journal is recovered, and brings the store to
 * agree with it (a kill may have cut writes short); retention starts with it.
 */
export async function openAccounting(ctl: Controller): Promise<JobAccounting | undefined> {
  const accounting = await JobAccounting.open(ctl);
  if (!accounting) return undefined;
  accounting.reconcile(ctl.jobs.values());
  accounting.keepFor(ctl.options.config.accounting?.purgeAfter);
  return accounting;
}

/**
 * The controller's accounting from its start, the store opened later (`open`): until then what
 * happens is kept in order, and written once the store is open and agrees with the journal.
 * Loading SQLite and opening the store is the longest step of a controller's start (on a fresh
 * state directory it creates the store), so the daemon opens it once its first requests are
 * answered rather than before it serves.
 */
export class LateAccounting implements AccountingSink {
  private backlog: Array<{ job: CtldJob } | { step: AcctStep }> | undefined = [];
  private store: JobAccounting | undefined;
  private opening: Promise<void> | undefined;

  constructor(private readonly ctl: Controller) {}

  /** Opens the store (once) and writes what was kept; without a store, nothing is kept any more. */
  open(): Promise<void> {
    return (this.opening ??= openAccounting(this.ctl).then((store) => {
      // From here to the end nothing else runs: no record falls between backlog and store.
      const backlog = this.backlog ?? [];
      this.backlog = undefined;
      this.store = store;
      for (const event of backlog) {
        if ('job' in event) store?.jobChanged(event.job);
        else store?.stepChanged(event.step);
      }
    }));
  }

  jobChanged(job: CtldJob): void {
    if (!this.backlog) return this.store?.jobChanged(job);
    // A job is written as it is then: one entry for changes in a row.
    const last = this.backlog.at(-1);
    if (!(last && 'job' in last && last.job === job)) this.backlog.push({ job });
  }

  stepChanged(step: AcctStep): void {
    if (!this.backlog) return this.store?.stepChanged(step);
    this.backlog.push({ step });
  }

  close(): void {
    this.store?.close();
  }
}

function describe(error: unknown): string {
  const { code, message } = error as { code?: string; message?: string };
  return code && message ? `${code}: ${message}` : (message ?? String(error));
}
