// The controller's side of the store: job and step records written as they change (an upsert
// each, those of one turn of the controller's event loop in one transaction), a batch of them
// at once when the controller reconciles with its journal, and retention.
import { JOB_COLUMNS, STEP_COLUMNS, jobRow, stepRow } from './row-codec.js';
import type { AcctJob, AcctStep } from './records.js';
import type { StoreDb } from './open-store.js';

const upsert = (table: string, columns: string[], key: string): string =>
  `INSERT INTO ${table} (${columns.join(', ')}) VALUES (${columns.map((c) => `@${c}`).join(', ')}) ` +
  `ON CONFLICT (${key}) DO UPDATE SET ${columns.map((c) => `${c} = excluded.${c}`).join(', ')}`;

export class StoreWriter {
  private readonly putJob;
  private readonly putStep;
  private readonly oldJobs;
  private readonly dropSteps;
  private readonly dropJobs;

  constructor(readonly db: StoreDb) {
    this.putJob = db.prepare(upsert('jobs', JOB_COLUMNS, 'job_id'));
    this.putStep = db.prepare(upsert('steps', STEP_COLUMNS, 'job_id, step_id'));
    this.oldJobs = db.prepare('SELECT job_id FROM jobs WHERE active_until < ?').pluck();
    this.dropSteps = db.prepare('DELETE FROM steps WHERE job_id IN (SELECT job_id FROM jobs WHERE active_until < ?)');
    this.dropJobs = db.prepare('DELETE FROM jobs WHERE active_until < ?');
  }

  writeJob(job: Omit<AcctJob, 'steps'>): void {
    this.putJob.run(jobRow(job));
  }

  writeStep(step: AcctStep): void {
    this.putStep.run(stepRow(step));
  }

  /** Several records in one transaction (the reconcile at start). */
  writeMany(jobs: ReadonlyArray<Omit<AcctJob, 'steps'>>, steps: readonly AcctStep[]): void {
    this.db.transaction(() => {
      for (const job of jobs) this.putJob.run(jobRow(job));
      for (const step of steps) this.putStep.run(stepRow(step));
    })();
  }

  /** Job and step records in one transaction, in the order given (the controller's changes of one turn). */
  writeInOrder(records: ReadonlyArray<{ job: Omit<AcctJob, 'steps'> } | { step: AcctStep }>): void {
    this.db.transaction(() => {
      for (const record of records) {
        if ('job' in record) this.putJob.run(jobRow(record.job));
        else this.putStep.run(stepRow(record.step));
      }
    })();
  }

  /** Deletes the jobs (and their steps) that ended before `before`; answers how many. */
  purgeEndedBefore(before: number): number {
    return this.db.transaction(() => {
      const count = (this.oldJobs.all(before) as number[]).length;
      if (count === 0) return 0;
      this.dropSteps.run(before);
      this.dropJobs.run(before);
      return count;
    })();
  }

  close(): void {
    this.db.close();
  }
}
