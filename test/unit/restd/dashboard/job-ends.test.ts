import { describe, expect, it } from 'vitest';
import { JobEndLog } from '../../../../src/restd/dashboard/job-ends.js';
import type { DashJob } from '../../../../src/restd/dashboard/view.js';

const job = (jobId: number, state: string, endTime = 0): DashJob => ({
  id: String(jobId),
  jobId,
  name: `j${jobId}`,
  user: 'alice',
  partition: 'debug',
  state,
  reason: 'None',
  held: false,
  ended: !['PENDING', 'RUNNING', 'SUSPENDED', 'COMPLETING'].includes(state),
  nodes: 'node1',
  numNodes: 1,
  numCpus: 1,
  timeLimit: 5,
  submitTime: 1,
  startTime: 2,
  endTime,
  exitCode: '0:0',
});

describe('the log of job ends', () => {
  it('seeds itself with the ended jobs of the first poll, newest first', () => {
    const log = new JobEndLog();
    const found = log.observe([job(1, 'COMPLETED', 100), job(2, 'RUNNING'), job(3, 'FAILED', 200)], 300);
    expect(found.map((e) => [e.jobId, e.state])).toEqual([
      [3, 'FAILED'],
      [1, 'COMPLETED'],
    ]);
  });

  it('catches up after a stretch with no polls: ended jobs it has not logged, once, and none twice', () => {
    const log = new JobEndLog();
    log.observe([job(1, 'COMPLETED', 100), job(2, 'RUNNING')], 110);
    // Nobody watched: job 3 came and went, job 2 ended; the controller still lists job 1.
    log.catchUp();
    const found = log.observe([job(1, 'COMPLETED', 100), job(2, 'FAILED', 150), job(3, 'COMPLETED', 140), job(4, 'PENDING')], 500);
    expect(found.map((e) => [e.jobId, e.state])).toEqual([
      [2, 'FAILED'],
      [3, 'COMPLETED'],
    ]);
    // Only the first poll after the stretch catches up.
    expect(log.observe([job(1, 'COMPLETED', 100), job(4, 'PENDING'), job(5, 'COMPLETED', 510)], 520)).toEqual([]);
    expect(log.list().map((e) => e.jobId)).toEqual([2, 3, 1]);
  });

  it('logs a job once, when a later poll sees it ended, not while it is completing', () => {
    const log = new JobEndLog();
    log.observe([job(1, 'RUNNING'), job(2, 'PENDING')], 10);
    expect(log.observe([job(1, 'COMPLETING'), job(2, 'PENDING')], 11)).toEqual([]);
    expect(log.observe([job(1, 'CANCELLED', 12), job(2, 'PENDING')], 12).map((e) => [e.jobId, e.state])).toEqual([[1, 'CANCELLED']]);
    expect(log.observe([job(1, 'CANCELLED', 12), job(2, 'PENDING')], 13)).toEqual([]);
    expect(log.list().map((e) => e.jobId)).toEqual([1]);
  });

  it('logs a job that left the controller between two polls as ENDED at the time it was missed', () => {
    const log = new JobEndLog();
    log.observe([job(7, 'RUNNING')], 10);
    expect(log.observe([], 20)).toMatchObject([{ jobId: 7, state: 'ENDED', endTime: 20 }]);
  });

  it('keeps only the newest entries', () => {
    const log = new JobEndLog(2);
    log.observe([job(1, 'RUNNING'), job(2, 'RUNNING'), job(3, 'RUNNING')], 1);
    log.observe([job(1, 'COMPLETED', 5), job(2, 'COMPLETED', 6), job(3, 'COMPLETED', 7)], 8);
    expect(log.list().map((e) => e.jobId)).toEqual([3, 2]);
  });
});
