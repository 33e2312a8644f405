// --dependency as slurmctld 22.05 reads it (job_scheduler.c: update_job_dependency,
// _xlate_array_dep). Terms are `type:job[:job...]` (type any case), `singleton`, or a bare job
// id (afterany); a job is `12`, `12_3`, `12_*` or `12_[1-3,7]`, with `+minutes` after it.
// Every mistake is ESLURM_DEPENDENCY ("Job dependency problem"), the controller's answer;
// whether the named jobs exist is the controller's business too.
//
// Slurm's quirks we keep, each observed: `+minutes` is taken on every type, not only after,
// and holds for the jobs after it in the same term; a job named twice (same type and task)
// counts once, the first kept; `12_[1-2]+3` puts the delay on the last task only, because
// the list is expanded as text to `12_1:12_2+3`.
// Quirks we refuse (Slurm accepts them): mixing ',' and '?' (the man page says only one
// separator may be used; Slurm turns every ',' into '?'), text after `+minutes` (Slurm reads
// `+5m` as 5 and silently drops every term after such text), a missing or negative number (`12_` is task 0, `afterok:-1` is job
// 4294967295) and task lists other than `N` and `N-M` items (`[1-3:2]` gives only task 1).
import type { DependencySpec, DependencyTerm } from '../protocol/job-desc.js';
import { UserError } from './errors.js';

type JobRef = DependencyTerm['jobs'][number];
type JobType = Exclude<DependencyTerm['type'], 'singleton'>;

const TYPES: readonly JobType[] = ['after', 'afterany', 'afterok', 'afternotok', 'aftercorr', 'afterburstbuffer'];
const MAX_JOB_ID = 0xffffffff;
// Task ids share a uint32 with NO_VAL (no task) and INFINITE (`_*`).
const MAX_TASK_ID = 0xfffffffd;

/** The terms of a --dependency value; "" and "0" mean none (an empty term list). */
export function parseDependency(text: string, maxArraySize = 1001): DependencySpec {
  if (text === '' || text === '0') return { combine: 'all', terms: [], text };
  const source = expandTaskLists(text, maxArraySize);
  const terms: DependencyTerm[] = [];
  const seen = new Set<string>();
  const separators = new Set<string>();
  for (let at = 0; ; ) {
    const { term, end } = readTerm(source, at);
    const jobs = term.jobs.filter((job) => once(seen, `${term.type}:${refKey(job)}`));
    if (term.type === 'singleton' ? once(seen, 'singleton') : jobs.length > 0) terms.push({ type: term.type, jobs });
    if (end === source.length) break;
    separators.add(source[end]!);
    at = end + 1;
  }
  if (separators.size > 1) throw dependencyProblem();
  return { combine: separators.has('?') ? 'any' : 'all', terms, text };
}

function readTerm(s: string, at: number): { term: DependencyTerm; end: number } {
  if (s.slice(at, at + 9).toLowerCase() === 'singleton') {
    return { term: { type: 'singleton', jobs: [] }, end: expectEnd(s, at + 9, ',?') };
  }
  // Slurm looks for a ':' anywhere in the rest: only without one is a bare job id allowed.
  const colon = s.indexOf(':', at);
  if (colon === -1) {
    if (!/\d/.test(s[at] ?? '')) throw dependencyProblem();
    const { ref, end } = readJob(s, at);
    return { term: { type: 'afterany', jobs: [ref] }, end: expectEnd(s, end, ',') };
  }
  const type = s.slice(at, colon).toLowerCase();
  if (type === 'expand') throw UserError.fromErrno('ESLURM_NOT_SUPPORTED');
  if (!(TYPES as readonly string[]).includes(type)) throw dependencyProblem();
  const jobs: JobRef[] = [];
  let end = colon;
  // A delay holds for the following jobs of the term too, until another one (observed:
  // "after:101+5:102" is after:101+5,after:102+5).
  let minutes: number | undefined;
  do {
    const read = readJob(s, end + 1);
    end = read.end;
    const delay = /^\+(\s*\+?\d+)/.exec(s.slice(end));
    if (delay) {
      minutes = Number(delay[1]);
      if (minutes < 1 || !Number.isSafeInteger(minutes)) throw dependencyProblem();
      end += delay[0].length;
    }
    if (minutes !== undefined) read.ref.delayMinutes = minutes;
    jobs.push(read.ref);
  } while (s[end] === ':');
  return { term: { type: type as JobType, jobs }, end: expectEnd(s, end, ',?') };
}

// A job id (strtol: blanks and '+' may lead), then `_task` or `_*`.
function readJob(s: string, at: number): { ref: JobRef; end: number } {
  const match = /^\s*\+?(\d+)(?:_(?:(\*)|\s*\+?(\d+)))?/.exec(s.slice(at));
  const jobId = Number(match?.[1]);
  if (!match || jobId === 0 || jobId > MAX_JOB_ID) throw dependencyProblem();
  const ref: JobRef = { jobId };
  if (match[2] !== undefined) ref.allTasks = true;
  if (match[3] !== undefined) {
    ref.arrayTaskId = Number(match[3]);
    if (ref.arrayTaskId > MAX_TASK_ID) throw dependencyProblem();
  }
  return { ref, end: at + match[0].length };
}

// A term ends the text, or a separator that another term follows ("afterok:12," is refused).
function expectEnd(s: string, at: number, separators: string): number {
  if (at === s.length) return at;
  if (!separators.includes(s[at]!) || at === s.length - 1) throw dependencyProblem();
  return at;
}

/** `12_[1-2,5]` → `12_1:12_2:12_5`, as _xlate_array_dep rewrites the text before parsing it. */
function expandTaskLists(text: string, maxArraySize: number): string {
  return text.replace(/(\d+)_\[([^\]]*)\]/g, (_whole, jobId: string, list: string) => {
    const tasks = parseTaskList(list, maxArraySize);
    return tasks.map((task, i) => (i === 0 ? `${jobId}_${task}` : `:${jobId}_${task}`)).join('');
  });
}

function parseTaskList(list: string, maxArraySize: number): number[] {
  const tasks: number[] = [];
  for (const item of list.split(',')) {
    const match = /^(\d+)(?:-(\d+))?$/.exec(item);
    const lo = Number(match?.[1]);
    const hi = match?.[2] === undefined ? lo : Number(match[2]);
    if (!match || hi < lo || hi >= maxArraySize) throw dependencyProblem();
    for (let task = lo; task <= hi; task += 1) if (!tasks.includes(task)) tasks.push(task);
  }
  return tasks.sort((a, b) => a - b);
}

function refKey(ref: JobRef): string {
  return `${ref.jobId}_${ref.allTasks ? '*' : (ref.arrayTaskId ?? '')}`;
}

function once(seen: Set<string>, key: string): boolean {
  if (seen.has(key)) return false;
  seen.add(key);
  return true;
}

function dependencyProblem(): UserError {
  return UserError.fromErrno('ESLURM_DEPENDENCY');
}
