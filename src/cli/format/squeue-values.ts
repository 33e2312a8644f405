// The value forms of squeue's print.c: job ids of arrays, times used and left, limits, dates,
// node lists, priorities, memory and the NODELIST(REASON) column.
import { convertNumUnit } from '../../core/convert-num.js';
import { rangedHostlistSorted } from '../../core/hostlist.js';
import { INFINITE, NO_VAL } from '../../core/slurm-constants.js';
import { formatSlurmDate, formatSlurmTime } from '../../core/time-string.js';
import {
  JOB_COMPLETING,
  JOB_FAILED,
  JOB_OOM,
  JOB_PENDING,
  JOB_RUNNING,
  JOB_STATE_BASE,
  JOB_SUSPENDED,
  JOB_TIMEOUT,
  JOB_DEADLINE,
} from '../../plugin-api/records.js';
import type { JobView } from '../../protocol/job-view.js';
import { formatTaskIds, type SqueueRecord } from './squeue-records.js';

const JOB_STAGE_OUT = 0x0080_0000;
// print.h's FORMAT_STRING_SIZE: ids are snprintf()ed into 32 bytes.
const FORMAT_STRING_SIZE = 32;

/** Slurm's array_task_str: `1-3%2` for the array's own record. */
export function taskString(rec: SqueueRecord): string | null {
  if (rec.tasks === null) return null;
  return formatTaskIds(rec.tasks) + (rec.taskLimit !== null ? `%${rec.taskLimit}` : '');
}

/** %i: `12`, `12_3`, `12_[1-3%2]`. */
export function jobIdText(rec: SqueueRecord): string {
  const { job } = rec;
  const tasks = taskString(rec);
  if (tasks !== null) return `${job.arrayJobId}_[${tasks}]`.slice(0, FORMAT_STRING_SIZE - 1);
  if (job.arrayJobId !== 0 && job.arrayTaskId !== null) return `${job.arrayJobId}_${job.arrayTaskId}`;
  return String(job.jobId);
}

const base = (job: JobView): number => job.state & JOB_STATE_BASE;

/** job_time_used(): seconds the job has run (0 while pending). */
export function timeUsed(job: JobView, now: number): number {
  if (job.startTime === 0 || base(job) === JOB_PENDING) return 0;
  if (base(job) === JOB_SUSPENDED) return 0;
  const end = base(job) === JOB_RUNNING || job.endTime === 0 ? now : job.endTime;
  return end - job.startTime;
}

/** A time limit in minutes: `UNLIMITED`, `NOT_SET`, else null (print the seconds). */
export function limitWord(minutes: number): string | null {
  if (minutes === INFINITE) return 'UNLIMITED';
  if (minutes === NO_VAL) return 'NOT_SET';
  return null;
}

/** _print_secs(): `0:00`, `1:00:00`, `1-00:00:00`; INVALID below 0 or past a year. */
export function secs(seconds: number): string {
  return seconds === INFINITE ? 'INVALID' : formatSlurmTime(seconds);
}

/** _print_time(): a date, or `N/A` for none. */
export function date(epoch: number): string {
  return epoch === 0 ? 'N/A' : formatSlurmDate(epoch);
}

/** %e: `NONE` while an unlimited job runs on. */
export function endTime(job: JobView, now: number): string {
  if (job.timeLimit === INFINITE && job.endTime > now) return 'NONE';
  return date(job.endTime);
}

/** %p: the priority as a fraction of the largest, `%16.14f`. */
export function priorityFraction(priority: number): string {
  return (priority / 0xffffffff).toFixed(14).padStart(16);
}

/** A node list as squeue prints it: sorted and ranged; nothing for none. */
export function nodeList(nodes: string | null): string {
  return nodes ? rangedHostlistSorted(nodes) : '';
}

/** The reason text: merged reasons of tasks shown together, else the job's. */
export function reasonOf(rec: SqueueRecord): string {
  return rec.reasonText ?? rec.job.reason;
}

/** %R shows the reason instead of the nodes for these jobs (not while completing). */
export function showsReason(job: JobView): boolean {
  if ((job.state & JOB_COMPLETING) !== 0) return false;
  const b = base(job);
  return b === JOB_PENDING || (job.state & JOB_STAGE_OUT) !== 0 || b === JOB_TIMEOUT || b === JOB_OOM || b === JOB_DEADLINE || b === JOB_FAILED;
}

/** convert_num_unit(): `2048` MB is `2G`; with --noconvert, `2048M`. */
export function units(n: number, unit: number, noConvert: boolean): string {
  return noConvert ? (n === 0 ? '0' : `${n}${['', 'K', 'M', 'G'][unit]}`) : convertNumUnit(n, unit);
}

/** Memory per node (or per CPU) in MB as convert_num_unit() prints it: `0`, `100M`, `2G`. */
export function minMemory(job: JobView, noConvert = false): string {
  return units(job.memPerNode ?? job.memPerCpu ?? 0, 2, noConvert);
}

/** pn_min_cpus: CPUs a node must have for the job. */
export function minCpus(job: JobView): number {
  return (job.cpusPerTask ?? 1) * (job.ntasksPerNode || 1);
}

/** Tasks: -n, else one per node times --ntasks-per-node. */
export function numTasks(job: JobView): number {
  return job.numTasks ?? (job.ntasksPerNode || 1) * Math.max(job.minNodes ?? 1, 1);
}

/** `gpu:2,nic:1` as Slurm 22.05 keeps it: `gres:gpu:2,gres:nic:1`. */
export function gresTres(gres: string | null): string {
  if (!gres) return 'N/A';
  return gres
    .split(',')
    .map((g) => (g.startsWith('gres:') ? g : `gres:${g}`))
    .join(',');
}

/** TRES_ALLOC: what the job holds, or what it asks for while pending. */
export function tresText(job: JobView): string {
  const running = job.nodes !== null && base(job) !== JOB_PENDING;
  let mem = '';
  if (!running) {
    const mb = job.memPerNode !== null ? job.memPerNode * job.numNodes : job.memPerCpu !== null ? job.memPerCpu * job.numCpus : 0;
    if (mb > 0) mem = `mem=${convertNumUnit(mb, 2)},`;
  }
  return `cpu=${job.numCpus},${mem}node=${job.numNodes},billing=${job.numCpus}`;
}

/** The default output file squeue names when none was given: `<WorkDir>/slurm-<id>.out`. */
export function defaultOutput(job: JobView): string {
  return `${job.workDir}/slurm-${job.jobId}.out`;
}
