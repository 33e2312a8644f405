// The records squeue lists, built from the controller's jobs the way slurmctld keeps them.
// tslurm's controller keeps one job per array task; slurmctld keeps the array's tasks that
// have not started in one record (job id = the array's id, array_task_str `1-3%2`) and
// splits a task off when it starts or is held on its own. We rebuild that record so squeue's
// output is Slurm's: `12_[1-3%2]`, and `12_3` once one task is left (observed on 22.05).
import { JOB_PENDING, JOB_STATE_BASE } from '../../plugin-api/records.js';
import type { JobView } from '../../protocol/job-view.js';

export interface SqueueRecord {
  /** The job the line shows; for tasks kept together, the first of them under the array's id. */
  job: JobView;
  /** Pending tasks of an array kept in one record, ascending; null for a job or a single task. */
  tasks: number[] | null;
  /** The array's `%N`, shown after `tasks` until squeue rewrites the list. */
  taskLimit: number | null;
  /** Slurm's state_desc: the reasons of the tasks squeue put together (`Resources,JobHeldUser`). */
  reasonText: string | null;
  /** The jobs this record stands for (one, or every task in `tasks`). */
  members: JobView[];
}

export const isPending = (job: JobView): boolean => (job.state & JOB_STATE_BASE) === JOB_PENDING;

/** One record per job, with each array's not-yet-split pending tasks in one; controller order. */
export function buildRecords(views: readonly JobView[]): SqueueRecord[] {
  const kept = keptTogether(views);
  const records: SqueueRecord[] = [];
  for (const view of views) {
    const group = kept.get(view);
    if (group === undefined) records.push(single(view));
    else if (group.anchor === view) records.push(arrayRecord(group.tasks));
  }
  return records;
}

export function single(job: JobView): SqueueRecord {
  return { job, tasks: null, taskLimit: null, reasonText: null, members: [job] };
}

/**
 * The record of an array's tasks kept together: under the array's job id, as slurmctld's
 * record is; with one task left it is that task (`12_3`), still under the array's id.
 */
export function arrayRecord(group: readonly JobView[]): SqueueRecord {
  const first = group[0]!;
  const job = { ...first, jobId: first.arrayJobId };
  if (group.length === 1) return { job, tasks: null, taskLimit: null, reasonText: null, members: [...group] };
  const tasks = group.map((t) => t.arrayTaskId!).sort((a, b) => a - b);
  return { job: { ...job, arrayTaskId: null }, tasks, taskLimit: first.arrayMaxRunning, reasonText: null, members: [...group] };
}

// Which pending tasks slurmctld would still have in the array's own record: those not held
// on their own. Tasks held one by one (`hold 12_3`) are split off there; we take the largest
// set of tasks held alike (ties: the one with the lowest task) as the array's record, which
// sits where the first of them is in the controller's list.
function keptTogether(views: readonly JobView[]): Map<JobView, { tasks: JobView[]; anchor: JobView }> {
  const byArray = new Map<number, Map<string, JobView[]>>();
  for (const view of views) {
    if (view.arrayJobId === 0 || view.arrayTaskId === null || !isPending(view)) continue;
    let sets = byArray.get(view.arrayJobId);
    if (!sets) byArray.set(view.arrayJobId, (sets = new Map()));
    const key = view.held ?? '';
    const set = sets.get(key);
    if (set) set.push(view);
    else sets.set(key, [view]);
  }
  const kept = new Map<JobView, { tasks: JobView[]; anchor: JobView }>();
  for (const sets of byArray.values()) {
    let best: JobView[] | undefined;
    let bestLow = Infinity;
    for (const set of sets.values()) {
      const low = set.reduce((min, t) => Math.min(min, t.arrayTaskId!), Infinity);
      if (!best || set.length > best.length || (set.length === best.length && low < bestLow)) [best, bestLow] = [set, low];
    }
    const anchor = best![0]!;
    const tasks = [...best!].sort((a, b) => a.arrayTaskId! - b.arrayTaskId!);
    for (const task of tasks) kept.set(task, { tasks, anchor });
  }
  return kept;
}

/**
 * squeue's _combine_pending_array_tasks(): other pending tasks of an array (same name and
 * partition) join the array's own record, their reasons merged into its text. Unless -r.
 */
export function combinePendingTasks(records: readonly SqueueRecord[]): SqueueRecord[] {
  const out = [...records];
  for (let i = 0; i < out.length; i++) {
    const master = out[i]!;
    if (!isPending(master.job) || master.tasks === null) continue;
    const tasks = new Set(master.tasks);
    const members = [...master.members];
    let reasonText = master.reasonText;
    let merged = 0;
    for (let j = 0; j < out.length; ) {
      const other = out[j]!;
      if (j === i || !sameArrayPending(master.job, other.job)) {
        j++;
        continue;
      }
      merged++;
      reasonText = mergeReason(master.job.reason, reasonText, other.job.reason);
      for (const t of other.tasks ?? [other.job.arrayTaskId!]) tasks.add(t);
      members.push(...other.members);
      out.splice(j, 1);
      if (j < i) i--;
    }
    // Rewritten from the task bitmap: the `%N` is gone.
    if (merged > 0) out[i] = { ...master, tasks: [...tasks].sort((a, b) => a - b), taskLimit: null, reasonText, members };
  }
  return out;
}

function sameArrayPending(master: JobView, other: JobView): boolean {
  return isPending(other) && other.arrayJobId === master.arrayJobId && other.name === master.name && other.partition === master.partition;
}

// _merge_job_reason(): a reason already in the text (as a substring) is not repeated.
function mergeReason(masterReason: string, text: string | null, taskReason: string): string | null {
  if (masterReason === taskReason) return text;
  const desc = text ?? masterReason;
  return desc.includes(taskReason) ? desc : `${desc},${taskReason}`;
}

/** -r: an array's own record shown one task per line, in task order. */
export function expandTasks(rec: SqueueRecord): SqueueRecord[] {
  if (rec.tasks === null) return [rec];
  return rec.tasks.map((task) => ({ ...rec, job: { ...rec.job, arrayTaskId: task }, tasks: null, taskLimit: null }));
}

/** bit_fmt() of task ids: `0-3,5,7-8`. */
export function formatTaskIds(tasks: readonly number[]): string {
  const parts: string[] = [];
  for (let i = 0; i < tasks.length; ) {
    let j = i;
    while (j + 1 < tasks.length && tasks[j + 1] === tasks[j]! + 1) j++;
    parts.push(j === i ? String(tasks[i]) : `${tasks[i]}-${tasks[j]}`);
    i = j + 1;
  }
  return parts.join(',');
}
