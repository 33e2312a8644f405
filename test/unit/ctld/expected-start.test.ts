// Expected starts after a pass: WILL_RUN for the jobs waiting for resources (highest priority
// first, at most 100), and no estimate left on a job that no longer waits so.
import { describe, expect, it } from 'vitest';
import { dropEstimates, estimateStarts } from '../../../src/ctld/expected-start.js';
import { newJob, type CtldJob } from '../../../src/ctld/job.js';
import { NodeTable } from '../../../src/ctld/node-table.js';
import { JOB_PENDING, JOB_RUNNING, SLURM_SUCCESS, type job_record_t, type SchedWillRunResult } from '../../../src/plugin-api/index.js';
import type { JobDescriptor } from '../../../src/protocol/job-desc.js';
import { bits, makeJob, makeNodes } from '../plugins/select-helpers.js';

const table = new NodeTable(makeNodes(4));

function pendingJob(id: number, priority: number, reason = 'Resources'): CtldJob {
  const job = newJob(makeJob({}, { job_id: id, priority, job_state: JOB_PENDING }) as CtldJob['record'], {} as JobDescriptor);
  job.reason = reason;
  return job;
}

// WILL_RUN answers: job id → start time and node (index id % 4).
const asked: number[] = [];
const willRun = async (record: job_record_t): Promise<SchedWillRunResult> => {
  asked.push(record.job_id);
  return { rc: SLURM_SUCCESS, start_time: 1000 + record.job_id, nodes: bits(4, [record.job_id % 4]) };
};

describe('estimateStarts', () => {
  it('estimates the waiting jobs by priority and clears the estimates of jobs that stopped waiting', async () => {
    const [low, high, held] = [pendingJob(1, 10), pendingJob(2, 20), pendingJob(3, 30)];
    const estimated = new Set<CtldJob>();
    asked.length = 0;
    await estimateStarts([low, high, held], estimated, willRun, table);
    expect(asked).toEqual([3, 2, 1]);
    expect([high.expectedStart, high.schedNodes]).toEqual([1002, 'n3']);
    expect(estimated).toEqual(new Set([low, high, held]));

    // Next pass: job 2 started, job 3 was held (not eligible: not handed over), job 1 still waits.
    high.record.job_state = JOB_RUNNING;
    held.reason = 'JobHeldUser';
    asked.length = 0;
    await estimateStarts([low, high], estimated, willRun, table);
    expect(asked).toEqual([1]);
    expect([low.expectedStart, low.schedNodes]).toEqual([1001, 'n2']);
    for (const job of [high, held]) expect([job.expectedStart, job.schedNodes]).toEqual([undefined, undefined]);
    expect(estimated).toEqual(new Set([low]));
  });

  it('asks WILL_RUN for the first 100 jobs only, and not for jobs whose reason is no longer Resources', async () => {
    const jobs = Array.from({ length: 120 }, (_, k) => pendingJob(k + 1, 1000 - k));
    jobs[0]!.reason = 'Priority';
    const estimated = new Set<CtldJob>();
    asked.length = 0;
    await estimateStarts(jobs, estimated, willRun, table);
    expect(asked).toEqual(jobs.slice(1, 101).map((job) => job.record.job_id));
    expect(jobs[101]!.expectedStart).toBeUndefined();
    expect(estimated.size).toBe(100);
  });

  it('dropEstimates takes every estimate off when no job is eligible', async () => {
    const job = pendingJob(7, 5);
    const estimated = new Set<CtldJob>();
    await estimateStarts([job], estimated, willRun, table);
    expect(job.expectedStart).toBe(1007);
    dropEstimates(estimated);
    expect([job.expectedStart, job.schedNodes, estimated.size]).toEqual([undefined, undefined, 0]);
  });
});
