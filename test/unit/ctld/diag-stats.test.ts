// sdiag's job figures: counted from the controller's start, for the jobs held and for those
// purged from the table since; a pending job that was cancelled never started.
import { describe, expect, it } from 'vitest';
import { DiagStats } from '../../../src/ctld/diag-stats.js';
import { JOB_CANCELLED, JOB_COMPLETE, JOB_FAILED, JOB_PENDING, JOB_RUNNING, JOB_TIMEOUT } from '../../../src/plugin-api/records.js';

const job = (job_state: number, submit_time: number, start_time = 0, end_time = 0, nodes: string | null = null) => ({ job_state, submit_time, start_time, end_time, nodes });

describe('DiagStats', () => {
  it('counts since its start, purged jobs included, and pending and running as they are', () => {
    const stats = new DiagStats();
    const t = stats.since;
    const before = t - 100;
    stats.notePurged(job(JOB_COMPLETE, t, t, t + 1, 'n1'));
    stats.notePurged(job(JOB_COMPLETE, before, before, before + 1, 'n1'));
    const held = [
      job(JOB_PENDING, t),
      job(JOB_RUNNING, t, t + 1, 0, 'n1'),
      // Submitted before the start, it started after: started, not submitted.
      job(JOB_RUNNING, before, t + 2, 0, 'n2'),
      // Cancelled while pending: a start time, but no nodes.
      job(JOB_CANCELLED, t, t + 3, t + 3, null),
      job(JOB_FAILED, t, t + 1, t + 4, 'n3'),
      job(JOB_TIMEOUT, t, t + 1, t + 5, 'n3'),
    ];
    expect(stats.figures(held)).toEqual({ submitted: 6, started: 5, completed: 1, canceled: 1, failed: 2, pending: 1, running: 2 });
  });
});
