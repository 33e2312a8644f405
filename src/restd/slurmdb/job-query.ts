// The query of GET /slurmdb/v0.0.38/jobs as slurmrestd 22.05 reads it (its dbv0.0.38 jobs.c,
// checked on 22.05.8: /work/ref/restd-slurmdb-22.05.txt): keys in any case, lists comma
// separated, a key it does not know refused as "Unknown Query field" (`users` and `group`
// among them: 22.05 takes `groups`), each value checked as it is read. What the store can
// select is asked of it (accounting store filter); the rest is matched here on the records.
// The time window defaults as tsacct's (sacct's, which slurmdbd applies to the REST query too):
// midnight to now; with states, the moment now; with job ids, all time; `submit_time`: none.
import { parseBeginTime } from '../../core/begin-time.js';
import { jobStateFromName } from '../../core/job-state.js';
import { expandHostlist } from '../../core/hostlist.js';
import { UserError } from '../../core/errors.js';
import type { AcctJob, JobFilter } from '../../acct/records.js';
import { parseJobIds } from '../../commands/tsacct/params.js';
import { RestError } from '../errors.js';

/** Slurm's JOB_END: base states are below it. */
const JOB_END = 12;

export interface JobQuery {
  filter: JobFilter;
  /** What the store cannot select: matched on each record it returns. */
  matches(job: AcctJob): boolean;
}

type Check = (job: AcctJob) => boolean;

/** The query's keys as 22.05's dbv0.0.38 takes them, each with how its value is read. */
const TEXT_LISTS = ['account', 'association', 'cluster', 'constraints', 'format', 'groups', 'job_name', 'partition', 'qos', 'reason', 'reservation', 'state', 'wckey'];
const FLAGS = ['skip_steps', 'disable_wait_for_result'];
const INTEGERS = ['cpus_max', 'cpus_min', 'exit_code', 'nodes_min', 'nodes_max'];
const TIMES = ['start_time', 'end_time', 'submit_time'];
export const QUERY_KEYS = [...TIMES, ...TEXT_LISTS, ...FLAGS, ...INTEGERS, 'node', 'step'];

/** The query as a store filter and a matcher, or the RestError slurmrestd answers for it. */
export function jobQuery(query: Record<string, unknown>, now: Date): JobQuery {
  const filter: JobFilter = {};
  const checks: Check[] = [];
  const numbers: Record<string, number> = {};
  const times: Record<string, number> = {};
  for (const [rawKey, rawValue] of Object.entries(query)) {
    const key = rawKey.toLowerCase();
    const value = Array.isArray(rawValue) ? rawValue.map(String).join(',') : String(rawValue);
    if (TIMES.includes(key)) {
      if ((key === 'start_time' && times.submit_time !== undefined) || (key === 'submit_time' && times.start_time !== undefined)) {
        throw invalid('start_time and submit_time are mutually exclusive', key);
      }
      times[key] = parseTime(value, now, key);
    } else if (key === 'state') {
      filter.states = csv(value, key).map((word) => stateOf(word, key));
    } else if (TEXT_LISTS.includes(key)) {
      const words = csv(value, key);
      const check = textCheck(key, words, filter);
      if (check) checks.push(check);
    } else if (FLAGS.includes(key)) {
      if (key === 'skip_steps' && (value === 'true' || value === '1')) filter.noSteps = true;
    } else if (INTEGERS.includes(key)) {
      if (!/^-?\d+$/.test(value.trim())) throw invalid('must be an integer', key);
      numbers[key] = Number(value);
    } else if (key === 'node') {
      const wanted = new Set(hostlist(value, key));
      checks.push((job) => job.nodeList !== '' && job.nodeList !== 'None assigned' && expandHostlist(job.nodeList).some((name) => wanted.has(name)));
    } else if (key === 'step') {
      filter.jobIds = stepList(value, key);
    } else {
      throw new RestError('ESLURM_REST_INVALID_QUERY', 'Unknown Query field', undefined, { status: 500 });
    }
  }
  const range = (min: number | undefined, max: number | undefined, of: (job: AcctJob) => number): void => {
    // slurmdbd: with a maximum, between the minimum and it; a minimum alone is an exact count.
    if (max !== undefined) checks.push((job) => of(job) >= (min ?? 0) && of(job) <= max);
    else if (min !== undefined) checks.push((job) => of(job) === min);
  };
  range(numbers.cpus_min, numbers.cpus_max, (job) => job.ncpus);
  range(numbers.nodes_min, numbers.nodes_max, (job) => job.nnodes);
  if (numbers.exit_code !== undefined) checks.push((job) => job.exitCode === numbers.exit_code);
  window(filter, times, now, checks);
  return { filter, matches: (job) => checks.every((check) => check(job)) };
}

/** GET /slurmdb/v0.0.38/job/{job_id}: that job (`7`, `7_3`, `7.batch`), all time. */
export function jobIdQuery(id: string): JobQuery {
  return { filter: { jobIds: stepList(id, 'job_id') }, matches: () => true };
}

function window(filter: JobFilter, times: Record<string, number>, now: Date, checks: Check[]): void {
  const nowSec = Math.floor(now.getTime() / 1000);
  const { start_time: start, end_time: end, submit_time: submitted } = times;
  if (submitted !== undefined) {
    // slurmdbd's JOBCOND_FLAG_NO_DEFAULT_USAGE: jobs submitted within the times given, no window.
    checks.push((job) => job.submit >= submitted && (end === undefined || job.submit <= end));
    return;
  }
  // tsacct's defaults (commands/tsacct/params.ts), so both answer alike for the same selection.
  const states = filter.states !== undefined && filter.states.length > 0;
  if (start !== undefined || end !== undefined) {
    filter.start = start ?? (states ? nowSec : filter.jobIds ? 0 : midnight(now));
    filter.end = end ?? nowSec;
  } else if (states) {
    filter.start = nowSec;
    filter.end = nowSec;
  } else if (!filter.jobIds) {
    filter.start = midnight(now);
    filter.end = nowSec;
  }
}

function textCheck(key: string, words: string[], filter: JobFilter): Check | undefined {
  const among = (of: (job: AcctJob) => string): Check => (job) => words.includes(of(job));
  switch (key) {
    case 'job_name':
      filter.names = words;
      return undefined;
    case 'partition':
      filter.partitions = words;
      return undefined;
    case 'account':
      return among((job) => job.account);
    case 'cluster':
      return among((job) => job.cluster);
    case 'groups':
      return (job) => words.includes(job.group) || words.includes(String(job.gid));
    case 'qos':
      return among((job) => job.qos);
    case 'reason':
      return among((job) => job.reason);
    case 'format':
      // sacct's output fields: slurmdbd selects nothing by them.
      return undefined;
    default:
      // association, constraints, reservation, wckey: the store records none for a job, so
      // no job has the one asked for.
      return () => false;
  }
}

function csv(value: string, key: string): string[] {
  const words = value.split(',').map((word) => word.trim()).filter((word) => word !== '');
  if (words.length === 0) throw invalid('Unable to parse CSV list', key);
  return words;
}

// 22.05's _add_list_job_state: a state's name (long or short) or its number.
function stateOf(word: string, key: string): number {
  const state = /^\d+$/.test(word) ? Number(word) : jobStateFromName(word);
  if (state === undefined || state >= JOB_END) throw invalid('Unable to parse CSV list', key);
  return state;
}

function stepList(value: string, key: string): NonNullable<JobFilter['jobIds']> {
  try {
    return parseJobIds(value);
  } catch (error) {
    if (error instanceof UserError) throw invalid('Unable to parse job/step format', key);
    throw error;
  }
}

function hostlist(value: string, key: string): string[] {
  try {
    return expandHostlist(value);
  } catch (error) {
    if (error instanceof UserError) throw invalid('Unable to parse node list', key);
    throw error;
  }
}

function parseTime(value: string, now: Date, key: string): number {
  try {
    return parseBeginTime(value, now);
  } catch (error) {
    if (error instanceof UserError) throw invalid('Unable to parse time format', key);
    throw error;
  }
}

function midnight(now: Date): number {
  const day = new Date(now);
  day.setHours(0, 0, 0, 0);
  return Math.floor(day.getTime() / 1000);
}

// 22.05 answers a query it cannot read with status 500 (observed), not 400.
function invalid(description: string, key: string): RestError {
  return new RestError('ESLURM_REST_INVALID_QUERY', description, key, { status: 500 });
}
