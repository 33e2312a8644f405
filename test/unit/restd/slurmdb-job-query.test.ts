// The query of GET /slurmdb/v0.0.38/jobs read into a store filter: tsacct's time window
// defaults, keys in any case, repeated keys as one list, and the refusals 22.05 words.
import { describe, expect, it } from 'vitest';
import { jobIdQuery, jobQuery } from '../../../src/restd/slurmdb/job-query.js';
import { RestError } from '../../../src/restd/errors.js';
import { BATCH_STEP_ID } from '../../../src/acct/records.js';

const now = new Date(2027, 0, 15, 10, 30, 0);
const nowSec = Math.floor(now.getTime() / 1000);
const midnight = Math.floor(new Date(2027, 0, 15).getTime() / 1000);

const refusal = (query: Record<string, unknown>): { description: string; source: string | undefined; status: number } => {
  try {
    jobQuery(query, now);
  } catch (error) {
    if (error instanceof RestError) return { description: error.description, source: error.source, status: error.status };
    throw error;
  }
  throw new Error('no refusal');
};

describe('the slurmdb jobs query', () => {
  it("defaults the window as tsacct does: today, the moment now with states, all time with job ids", () => {
    expect(jobQuery({}, now).filter).toEqual({ start: midnight, end: nowSec });
    expect(jobQuery({ state: 'CD,F' }, now).filter).toEqual({ states: [3, 5], start: nowSec, end: nowSec });
    expect(jobQuery({ step: '7,8.batch' }, now).filter).toEqual({ jobIds: [{ jobId: 7 }, { jobId: 8, stepId: BATCH_STEP_ID }] });
    expect(jobQuery({ start_time: 'now-1hours', STATE: 'completed' }, now).filter).toEqual({ states: [3], start: nowSec - 3600, end: nowSec });
    expect(jobIdQuery('7_2').filter).toEqual({ jobIds: [{ jobId: 7, taskId: 2 }] });
  });

  it('selects by name and partition in the store, the rest on the records', () => {
    const query = jobQuery({ job_name: ['a', 'b'], partition: 'debug', account: 'phys', skip_steps: true, cpus_min: '2', cpus_max: '4' }, now);
    expect(query.filter).toMatchObject({ names: ['a', 'b'], partitions: ['debug'], noSteps: true });
    const job = { account: 'phys', ncpus: 3 } as never;
    expect(query.matches(job)).toBe(true);
    expect(query.matches({ account: 'phys', ncpus: 5 } as never)).toBe(false);
    expect(query.matches({ account: 'chem', ncpus: 3 } as never)).toBe(false);
    // A minimum alone is an exact count (slurmdbd).
    expect(jobQuery({ nodes_min: '2' }, now).matches({ nnodes: 3 } as never)).toBe(false);
    // Jobs submitted since submit_time, no window of use.
    const submitted = jobQuery({ submit_time: 'now-1hours' }, now);
    expect(submitted.filter).toEqual({});
    expect(submitted.matches({ submit: nowSec - 60 } as never)).toBe(true);
    expect(submitted.matches({ submit: nowSec - 7200 } as never)).toBe(false);
  });

  it("refuses what 22.05 refuses, in its words, with status 500", () => {
    expect(refusal({ users: 'root' })).toEqual({ description: 'Unknown Query field', source: undefined, status: 500 });
    expect(refusal({ state: 'BOGUS' })).toEqual({ description: 'Unable to parse CSV list', source: 'state', status: 500 });
    expect(refusal({ state: '12' })).toEqual({ description: 'Unable to parse CSV list', source: 'state', status: 500 });
    expect(refusal({ end_time: 'soon' })).toEqual({ description: 'Unable to parse time format', source: 'end_time', status: 500 });
    expect(refusal({ submit_time: 'now', start_time: 'now' })).toEqual({ description: 'start_time and submit_time are mutually exclusive', source: 'start_time', status: 500 });
    expect(refusal({ exit_code: '1.5' })).toEqual({ description: 'must be an integer', source: 'exit_code', status: 500 });
    expect(refusal({ step: 'x.y' })).toEqual({ description: 'Unable to parse job/step format', source: 'step', status: 500 });
  });
});
