// The store's read API: the jobs (and their steps) a filter selects, as records. tsacct
// formats them; tsrestd's /slurmdb/v0.0.38/jobs serves them. Window and state semantics are
// sacct's (its job_cond): a job is in a window when it was submitted before its end and had
// not ended before its start; with states, when it was in one of them during the window.
import { JOB_PENDING, JOB_RUNNING, JOB_SUSPENDED } from '../plugin-api/records.js';
import { BATCH_STEP_ID, EXTERN_STEP_ID, type AcctJob, type AcctStep, type JobFilter } from './records.js';
import { jobFromRow, stepFromRow, type Row } from './row-codec.js';
import type { StoreDb } from './open-store.js';
import type { Statement } from 'better-sqlite3';

const NOT_ENDED = 0xffffffff;
/** Above this many jobs the steps are read by id range and matched here (SQLite caps parameters). */
const MAX_IN_LIST = 500;

export function queryJobs(db: StoreDb, filter: JobFilter): AcctJob[] {
  const where: string[] = [];
  const params: Record<string, number | string> = {};
  let n = 0;
  const list = (values: ReadonlyArray<number | string>): string =>
    values
      .map((value) => {
        const key = `p${n++}`;
        params[key] = value;
        return `@${key}`;
      })
      .join(', ');
  if (filter.jobIds && filter.jobIds.length > 0) {
    where.push(`(${filter.jobIds.map((id) => jobIdCondition(id, list)).join(' OR ')})`);
  }
  if (filter.uids && filter.uids.length > 0) where.push(`uid IN (${list(filter.uids)})`);
  if (filter.names && filter.names.length > 0) where.push(`name IN (${list(filter.names)})`);
  if (filter.partitions && filter.partitions.length > 0) where.push(`partition IN (${list(filter.partitions)})`);
  const start = filter.start ?? 0;
  const end = filter.end ?? NOT_ENDED;
  params.ws = start;
  params.we = end;
  if (filter.states && filter.states.length > 0) {
    where.push(`(${filter.states.map(stateCondition).join(' OR ')})`);
  } else if (filter.start !== undefined || filter.end !== undefined) {
    where.push('active_until >= @ws AND submit <= @we');
  }
  // Sorted here, not by ORDER BY: to skip a sort SQLite would walk the whole table in id order
  // rather than the window's index (observed: a full scan of 100,000 jobs for 1,000).
  const sql = `SELECT * FROM jobs${where.length > 0 ? ` WHERE ${where.join(' AND ')}` : ''}`;
  const jobs = rows(db.prepare(sql), [params]).map(jobFromRow).sort((a, b) => a.jobId - b.jobId);
  if (!filter.noSteps && jobs.length > 0) attachSteps(db, jobs, filter);
  return jobs;
}

function jobIdCondition(id: { jobId: number; taskId?: number }, list: (values: number[]) => string): string {
  if (id.taskId !== undefined) return `(array_job_id = ${list([id.jobId])} AND array_task_id = ${list([id.taskId])})`;
  const p = list([id.jobId]);
  // `<> 0` lets SQLite use the partial index of array tasks for the second half of the OR.
  return `(job_id = ${p} OR (array_job_id = ${p} AND array_job_id <> 0))`;
}

// A job in the state during the window: pending, running, or ended in that state within it.
function stateCondition(state: number): string {
  if (state === JOB_PENDING) return '(submit <= @we AND (start = 0 OR start >= @ws))';
  if (state === JOB_RUNNING) return '(start > 0 AND start <= @we AND active_until >= @ws)';
  if (state === JOB_SUSPENDED) return `((state & 255) = ${JOB_SUSPENDED} AND active_until >= @ws)`;
  return `((state & 255) = ${state} AND end >= @ws AND end <= @we AND end > 0)`;
}

function attachSteps(db: StoreDb, jobs: AcctJob[], filter: JobFilter): void {
  const byId = new Map(jobs.map((job) => [job.jobId, job]));
  const found =
    jobs.length <= MAX_IN_LIST
      ? rows(db.prepare(`SELECT * FROM steps WHERE job_id IN (${jobs.map(() => '?').join(', ')})`), jobs.map((j) => j.jobId))
      : rows(db.prepare('SELECT * FROM steps WHERE job_id BETWEEN ? AND ?'), [jobs[0]!.jobId, jobs[jobs.length - 1]!.jobId]);
  const wanted = new Map((filter.jobIds ?? []).filter((id) => id.stepId !== undefined).map((id) => [id.jobId, id.stepId!]));
  for (const row of found) {
    const step = stepFromRow(row);
    if (wanted.has(step.jobId) && wanted.get(step.jobId) !== step.stepId) continue;
    byId.get(step.jobId)?.steps.push(step);
  }
  for (const job of jobs) job.steps.sort((a, b) => stepOrder(a) - stepOrder(b));
}

// Rows as arrays, made into objects by one object literal per statement: objects built key by
// key (as better-sqlite3 and a loop do) fall into dictionary mode past a few dozen keys, which
// measured several times slower on thousands of wide rows. The names are the schema's columns.
function rows(statement: Statement, args: unknown[]): Row[] {
  const names = statement.columns().map((c) => c.name);
  if (!names.every((name) => /^[a-z_]+$/.test(name))) throw new Error(`unexpected column names: ${names.join(', ')}`);
  const make = new Function('v', `return { ${names.map((name, i) => `${name}: v[${i}]`).join(', ')} };`) as (values: unknown[]) => Row;
  return (statement.raw(true).all(...args) as unknown[][]).map(make);
}

// sacct lists a job's batch step first, then its extern step, then the numbered ones.
function stepOrder(step: AcctStep): number {
  if (step.stepId === BATCH_STEP_ID) return -2;
  if (step.stepId === EXTERN_STEP_ID) return -1;
  return step.stepId;
}
