// What the controller calls on the accounting store (accounting.ts implements it): kept apart
// so the controller needs neither the store nor SQLite to load, and imports nothing that
// imports it back.
import type { AcctStep } from '../../acct/records.js';
import type { CtldJob } from '../job.js';

export interface AccountingSink {
  /** A job was submitted or changed (started, ended, held, requeued, ...). */
  jobChanged(job: CtldJob): void;
  /** A step started or ended (its record as it stands). */
  stepChanged(step: AcctStep): void;
  close(): void;
}
