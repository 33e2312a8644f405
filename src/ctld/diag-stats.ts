// sdiag's job figures since the controller started (slurmctld's stats: jobs submitted, started,
// completed, cancelled, failed; pending and running now). The jobs the controller still holds
// are counted when asked; a job purged from the table (MinJobAge) is counted as it goes, so the
// figures stay whole however long the controller runs.
import { isFinished } from '../core/job-state.js';
import { JOB_CANCELLED, JOB_COMPLETE, JOB_PENDING, JOB_RUNNING, JOB_STATE_BASE, JOB_SUSPENDED } from '../plugin-api/records.js';

export interface JobFigures {
  submitted: number;
  started: number;
  completed: number;
  canceled: number;
  failed: number;
}

interface JobTimes {
  readonly job_state: number;
  readonly submit_time: number;
  readonly start_time: number;
  readonly end_time: number;
  /** Allocated nodes; null for a job that never ran (a pending job cancelled gets a start time all the same). */
  readonly nodes: string | null;
}

export class DiagStats {
  /** Unix seconds: the controller's start, from when the figures count. */
  readonly since = Math.floor(Date.now() / 1000);
  private readonly purged: JobFigures = { submitted: 0, started: 0, completed: 0, canceled: 0, failed: 0 };

  /** A job leaves the table: what it counted for stays counted. */
  notePurged(record: JobTimes): void {
    tally(record, this.since, this.purged);
  }

  /** The figures over the jobs held now and those purged; pending and running as they are now. */
  figures(records: Iterable<JobTimes>): JobFigures & { pending: number; running: number } {
    const out = { ...this.purged, pending: 0, running: 0 };
    for (const record of records) {
      tally(record, this.since, out);
      const base = record.job_state & JOB_STATE_BASE;
      if (base === JOB_PENDING) out.pending++;
      else if (base === JOB_RUNNING || base === JOB_SUSPENDED) out.running++;
    }
    return out;
  }
}

function tally(record: JobTimes, since: number, into: JobFigures): void {
  if (record.submit_time >= since) into.submitted++;
  if (record.nodes !== null && record.start_time >= since) into.started++;
  if (!isFinished(record.job_state) || record.end_time < since) return;
  const base = record.job_state & JOB_STATE_BASE;
  if (base === JOB_COMPLETE) into.completed++;
  else if (base === JOB_CANCELLED) into.canceled++;
  else into.failed++;
}
