// Which records squeue lists (src/squeue/print.c _filter_job, _filter_job_part): jobs named
// with -j (an array's own record cut down to the tasks named), states, users, names,
// partitions and nodes. Without -t only pending, running, suspended and completing jobs show.
import { expandHostlist } from '../../core/hostlist.js';
import { JOB_COMPLETING, JOB_PENDING, JOB_RUNNING, JOB_STATE_BASE, JOB_SUSPENDED } from '../../plugin-api/records.js';
import { arrayRecord, type SqueueRecord } from './squeue-records.js';

/** One `-j` entry: `12`, or `12_3` (task 3 of array 12). */
export interface JobIdSpec {
  id: number;
  task: number | undefined;
}

export interface SqueueFilter {
  jobs: JobIdSpec[] | null;
  /** 'all' (-t all), the states asked for (a base state or a flag), or null for squeue's default. */
  states: 'all' | number[] | null;
  users: number[] | null;
  /** Compared without case, as squeue does. */
  names: string[] | null;
  partitions: string[] | null;
  nodes: ReadonlySet<string> | null;
  /** -R: jobs in one of these reservations. */
  reservations?: string[] | null;
  /** An account, QOS or license was asked for: tslurm's jobs have none. */
  none: boolean;
}

const STATE_FLAGS = 0xffffff00;

/** The records to list, in the same order; array records cut down to the tasks -j names. */
export function filterRecords(records: readonly SqueueRecord[], filter: SqueueFilter): SqueueRecord[] {
  const out: SqueueRecord[] = [];
  if (filter.none) return out;
  for (const rec of records) {
    let partial = false;
    if (filter.jobs) {
      const match = jobMatch(rec, filter.jobs);
      if (match === 'no') continue;
      partial = match === 'partial';
    }
    if (!stateMatches(rec.job.state, filter.states)) continue;
    if (filter.nodes && !intersects(rec.job.nodes, filter.nodes)) continue;
    if (filter.users && !filter.users.includes(rec.job.userId)) continue;
    if (filter.names && !filter.names.some((n) => n.toLowerCase() === rec.job.name.toLowerCase())) continue;
    if (filter.partitions && !rec.job.partition.split(',').some((p) => filter.partitions!.includes(p))) continue;
    if (filter.reservations && !filter.reservations.includes(rec.job.reservation ?? '')) continue;
    out.push(partial ? cutToTasks(rec, filter.jobs!) : rec);
  }
  return out;
}

// The first -j entry that names the record decides, as in squeue's loop: the whole job or
// array, one split-off task, or some tasks of an array's own record.
function jobMatch(rec: SqueueRecord, jobs: readonly JobIdSpec[]): 'no' | 'whole' | 'partial' {
  const { job } = rec;
  for (const spec of jobs) {
    if (spec.task === undefined && (spec.id === job.arrayJobId || spec.id === job.jobId)) return 'whole';
    if (spec.task !== undefined && rec.tasks === null && spec.task === job.arrayTaskId && spec.id === job.arrayJobId) return 'whole';
    if (spec.task !== undefined && spec.id === job.arrayJobId && rec.tasks?.includes(spec.task)) return 'partial';
    // tslurm's own id of a task kept in the array's record names that task.
    if (spec.task === undefined && rec.members.some((m) => m.jobId === spec.id)) return rec.tasks ? 'partial' : 'whole';
  }
  return 'no';
}

function cutToTasks(rec: SqueueRecord, jobs: readonly JobIdSpec[]): SqueueRecord {
  const wanted = new Set<number>();
  for (const spec of jobs) {
    if (spec.task !== undefined && spec.id === rec.job.arrayJobId) wanted.add(spec.task);
    const member = rec.members.find((m) => m.jobId === spec.id && spec.task === undefined);
    if (member) wanted.add(member.arrayTaskId!);
  }
  const members = rec.members.filter((m) => wanted.has(m.arrayTaskId!));
  if (members.length === 0) return rec;
  const cut = arrayRecord(members);
  // squeue rewrites the task list, without the `%N`.
  return { ...cut, taskLimit: null };
}

function stateMatches(state: number, states: SqueueFilter['states']): boolean {
  if (states === 'all') return true;
  if (states === null) {
    const base = state & JOB_STATE_BASE;
    return base === JOB_PENDING || base === JOB_RUNNING || base === JOB_SUSPENDED || (state & JOB_COMPLETING) !== 0;
  }
  // A flag matches when the job has it; a base state only when the job's state, flags and
  // all, is exactly that (a completing job is not `-t CD`).
  return states.some((s) => ((s & STATE_FLAGS) !== 0 ? (s & state) !== 0 : s === state));
}

function intersects(nodes: string | null, wanted: ReadonlySet<string>): boolean {
  if (!nodes) return false;
  return expandHostlist(nodes).some((n) => wanted.has(n));
}
