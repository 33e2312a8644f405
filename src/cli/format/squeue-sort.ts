// squeue's order (src/squeue/sort.c): first by start time, latest first, then one stable pass
// per -S key from the last key to the first (default `P,t,-p`: partition, state, priority
// highest first). Both with Slurm's own merge sort, so ties come out as squeue prints them.
import { UserError } from '../../core/errors.js';
import { groupNameForGid } from '../../os/groups.js';
import { expandHostlist } from '../../core/hostlist.js';
import { jobStateCompact, jobStateString } from '../../core/job-state.js';
import { INFINITE, NO_VAL } from '../../core/slurm-constants.js';
import { strnatcmp } from '../../core/strnatcmp.js';
import { JOB_PENDING } from '../../plugin-api/records.js';
import type { JobView } from '../../protocol/job-view.js';
import { slurmListSort } from './slurm-list-sort.js';
import type { SqueueRecord } from './squeue-records.js';
import { timeUsed } from './squeue-values.js';

export const DEFAULT_SQUEUE_SORT = 'P,t,-p';

export interface SortOptions {
  /** Now, Unix seconds (times used and left). */
  now: number;
  /**
   * sort.c's static `now` when the start-time pass runs: 0 on the first listing (it is set
   * only by the -S passes that follow), the previous listing's time with -i.
   */
  startNow: number;
  /** info() messages squeue prints and goes on after (`Invalid sort specification: b`). */
  info(message: string): void;
}

const strcmp = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
const diff = (a: number, b: number): number => (a > b ? 1 : a < b ? -1 : 0);

// A key of the job and how two keys compare; keys are computed once per pass, not per comparison.
interface Key<T = string | number> {
  of(job: JobView, now: number): T;
  cmp(a: T, b: T): number;
}

const num = (of: (job: JobView, now: number) => number): Key<number> => ({ of, cmp: diff });
const str = (of: (job: JobView) => string): Key<string> => ({ of, cmp: strcmp });
const same: Key<number> = { of: () => 0, cmp: () => 0 };

// The letters -S takes; letters squeue accepts but does not sort on map to null.
const KEYS: Record<string, Key<string> | Key<number> | null> = {
  B: str((j) => j.batchHost ?? ''),
  c: null,
  C: num((j) => j.numCpus),
  d: same,
  D: num((j) => j.numNodes),
  e: num((j) => j.endTime),
  f: null,
  g: str((j) => groupNameForGid(j.groupId) ?? ''),
  G: num((j) => j.groupId),
  h: null,
  H: same,
  I: same,
  j: str((j) => j.name),
  J: same,
  l: num((j) => j.timeLimit),
  L: num((j, now) => timeLeft(j, now)),
  m: num((j) => j.memPerNode ?? j.memPerCpu ?? 0),
  M: num((j, now) => timeUsed(j, now)),
  n: null,
  N: { of: (j) => firstNode(j.nodes), cmp: firstNodeCmp },
  O: null,
  // Partition priority tiers are all 1 in tslurm, so the job's priority decides.
  p: num((j) => j.priority),
  P: str((j) => j.partition),
  Q: num((j) => j.priority),
  t: str((j) => jobStateCompact(j.state)),
  T: str((j) => jobStateString(j.state)),
  u: str((j) => j.userName),
  U: num((j) => j.userId),
  v: same,
  V: num((j) => j.submitTime),
  z: same,
};

/** Sorts the records in place as squeue does; throws squeue's error for an unknown key. */
export function sortRecords(records: SqueueRecord[], spec: string, options: SortOptions): SqueueRecord[] {
  const { now } = options;
  slurmListSort(records, (a, b) => startCmp(a.job, b.job, true, options.startNow));
  for (let i = spec.length - 1; i >= 0; i--) {
    const c = spec[i]!;
    if (c === ',' || c === '+' || c === '-') continue;
    let reverse = i > 0 && spec[i - 1] === '-';
    if (i + 1 >= 7 && spec.slice(i - 6, i + 1).toLowerCase() === 'cluster') {
      // One cluster: every job compares equal.
      if (i >= 7 && spec[i - 7] === '-') reverse = true;
      i -= 6;
    } else if (c === 'i') slurmListSort(records, reverse ? (a, b) => -idCmp(a, b) : idCmp);
    // The start-time key answers "not started" the same way in both directions.
    else if (c === 'S') slurmListSort(records, (a, b) => startCmp(a.job, b.job, reverse, now));
    else if (c === 'b') options.info('Invalid sort specification: b');
    else if (c in KEYS) {
      const key = KEYS[c] as Key | null;
      if (key !== null) sortByKey(records, key, reverse, now);
    } else throw new UserError(`Invalid sort specification: ${c}`);
  }
  return records;
}

function sortByKey(records: SqueueRecord[], key: Key, reverse: boolean, now: number): void {
  const keyed = records.map((rec) => ({ rec, k: key.of(rec.job, now) }));
  slurmListSort(keyed, reverse ? (a, b) => -key.cmp(a.k, b.k) : (a, b) => key.cmp(a.k, b.k));
  keyed.forEach((entry, i) => (records[i] = entry.rec));
}

// _sort_job_by_time_start(): a job not started (start 0) sorts after any other, whichever
// side it is on and whatever the direction.
function startCmp(a: JobView, b: JobView, reverse: boolean, now: number): number {
  if (a.startTime === 0) return 1;
  if (b.startTime === 0) return -1;
  const start = (job: JobView): number => (job.state === JOB_PENDING && job.startTime < now ? now : job.startTime);
  const d = diff(start(a), start(b));
  return reverse ? -d : d;
}

// _sort_job_by_id(): an array's tasks by the array's id, then by task; others by job id.
function idCmp(a: SqueueRecord, b: SqueueRecord): number {
  const key = (r: SqueueRecord): [number, number] =>
    r.tasks === null && r.job.arrayJobId !== 0 && r.job.arrayTaskId !== null ? [r.job.arrayJobId, r.job.arrayTaskId] : [r.job.jobId, NO_VAL];
  const [ida, ta] = key(a);
  const [idb, tb] = key(b);
  return ida === idb ? diff(ta, tb) : diff(ida, idb);
}

function timeLeft(job: JobView, now: number): number {
  if (job.timeLimit === INFINITE || job.timeLimit === NO_VAL) return INFINITE;
  return job.timeLimit * 60 - timeUsed(job, now);
}

// hostlist_cmp_first(): the first host of each sorted list, by prefix then number.
function firstNode(nodes: string | null): string {
  return nodes ? (expandHostlist(nodes).sort(strnatcmp)[0] ?? '') : '';
}

function firstNodeCmp(a: string | number, b: string | number): number {
  if (a === '') return 1;
  if (b === '') return -1;
  return strnatcmp(String(a), String(b));
}
