// sacct's fields (src/sacct/sacct.c fields[]): name, default width (negative: left-justified)
// and the value of a job line or a step line; undefined prints empty, as sacct prints a value
// the record does not have (a step's Partition, a job line's MaxRSS). Usage fields come from
// what the step host gathered; those tslurm does not gather (pages, CPU frequency, energy,
// TRES usage) are listed and print empty.
import { JOB_CANCELLED, JOB_PENDING, JOB_STATE_BASE } from '../../plugin-api/records.js';
import { jobStateString } from '../../core/job-state.js';
import { formatSlurmDate, secsToTimeStr } from '../../core/time-string.js';
import { BATCH_STEP_ID, EXTERN_STEP_ID, type AcctJob, type AcctStep } from '../../acct/records.js';
import { cpuTimeText, exitCodeText, sizeText, timelimitText, type SizeMode } from './values.js';

export interface AcctLine {
  job: AcctJob;
  step: AcctStep | undefined;
}

export interface FieldContext {
  now: number;
  sizes: SizeMode;
}

export interface Field {
  name: string;
  width: number;
  /** Numbers are printed whole, never cut to the width with `+`. */
  numeric?: boolean;
  value: (line: AcctLine, ctx: FieldContext) => string | number | undefined;
}

const jobOnly = (get: (job: AcctJob, ctx: FieldContext) => string | number | undefined) => (line: AcctLine, ctx: FieldContext) => (line.step ? undefined : get(line.job, ctx));
const both = (job: (job: AcctJob, ctx: FieldContext) => string | number | undefined, step: (step: AcctStep, job: AcctJob, ctx: FieldContext) => string | number | undefined) => (line: AcctLine, ctx: FieldContext) =>
  line.step ? step(line.step, line.job, ctx) : job(line.job, ctx);
const usage = (get: (u: NonNullable<AcctStep['usage']>, step: AcctStep, ctx: FieldContext) => string | number | undefined) => (line: AcctLine, ctx: FieldContext) =>
  line.step?.usage ? get(line.step.usage, line.step, ctx) : undefined;
const notGathered = (): undefined => undefined;

/** `7`, `7_3` for an array task, `7+1` for a het component. */
export function jobIdText(job: AcctJob): string {
  if (job.arrayTaskId !== null) return `${job.arrayJobId}_${job.arrayTaskId}`;
  if (job.hetJobOffset !== null) return `${job.hetJobId}+${job.hetJobOffset}`;
  return String(job.jobId);
}

export function stepName(stepId: number): string {
  return stepId === BATCH_STEP_ID ? 'batch' : stepId === EXTERN_STEP_ID ? 'extern' : String(stepId);
}

function stateText(state: number, cancelledBy: number | null): string {
  const base = state & JOB_STATE_BASE;
  const name = jobStateString(base);
  return base === JOB_CANCELLED && cancelledBy !== null ? `${name} by ${cancelledBy}` : name;
}

function elapsed(start: number, end: number, now: number): number {
  if (start === 0) return 0;
  return Math.max(0, (end === 0 ? now : end) - start);
}

const jobElapsed = (job: AcctJob, ctx: FieldContext): number => elapsed(job.start, job.end, ctx.now);
const stepElapsed = (step: AcctStep, ctx: FieldContext): number => elapsed(step.start, step.end, ctx.now);
const jobCpus = (job: AcctJob): number => ((job.state & JOB_STATE_BASE) === JOB_PENDING ? 0 : job.ncpus);

/** The job line's CPU times are its steps' sum, as slurmdbd adds them up. */
function cpuUsec(job: AcctJob, key: 'userCpuUsec' | 'systemCpuUsec' | 'both'): number | undefined {
  const used = job.steps.filter((s) => s.usage);
  if (used.length === 0) return undefined;
  return used.reduce((sum, s) => sum + (key === 'both' ? s.usage!.userCpuUsec + s.usage!.systemCpuUsec : s.usage![key]), 0);
}

const reqMemMb = (job: AcctJob): number | undefined => {
  const match = /(?:^|,)mem=(\d+(?:\.\d+)?)([MGTP])/.exec(job.reqTres);
  if (!match) return undefined;
  return Number(match[1]) * 1024 ** 'MGTP'.indexOf(match[2]!);
};

const kib = (value: number, ctx: FieldContext): string => sizeText(value, 1, ctx.sizes);
const megabytesOfBytes = (bytes: number): string => {
  const mb = bytes / (1 << 20);
  if (mb > 1) return sizeText(Number(mb.toFixed(2)), 2, { kind: 'exact' });
  return mb > 0 ? `${mb.toFixed(2)}M` : '0';
};

export const FIELDS: readonly Field[] = [
  { name: 'Account', width: 10, value: both((j) => j.account, (_s, j) => j.account) },
  { name: 'AllocCPUS', width: 10, numeric: true, value: both(jobCpus, (s) => s.ncpus) },
  { name: 'AllocNodes', width: 10, value: both((j) => ((j.state & JOB_STATE_BASE) === JOB_PENDING ? 0 : j.nnodes), (s) => s.nnodes) },
  { name: 'AllocTRES', width: 10, value: both((j) => j.allocTres, (s) => s.allocTres) },
  { name: 'AveCPU', width: 10, value: usage((u, s) => cpuTimeText(Math.floor((u.userCpuUsec + u.systemCpuUsec) / Math.max(1, s.ntasks) / 1e6) * 1e6)) },
  { name: 'AveCPUFreq', width: 10, value: notGathered },
  { name: 'AveDiskRead', width: 14, value: notGathered },
  { name: 'AveDiskWrite', width: 14, value: notGathered },
  { name: 'AvePages', width: 10, value: notGathered },
  { name: 'AveRSS', width: 10, value: usage((u, _s, ctx) => kib(u.aveRssKiB, ctx)) },
  { name: 'AveVMSize', width: 10, value: usage((u, _s, ctx) => kib(u.aveVmSizeKiB, ctx)) },
  { name: 'Cluster', width: 10, value: both((j) => j.cluster, (_s, j) => j.cluster) },
  { name: 'ConsumedEnergy', width: 14, value: notGathered },
  { name: 'CPUTime', width: 10, value: both((j, ctx) => secsToTimeStr(jobElapsed(j, ctx) * jobCpus(j)), (s, _j, ctx) => secsToTimeStr(stepElapsed(s, ctx) * s.ncpus)) },
  { name: 'CPUTimeRAW', width: 10, numeric: true, value: both((j, ctx) => jobElapsed(j, ctx) * jobCpus(j), (s, _j, ctx) => stepElapsed(s, ctx) * s.ncpus) },
  { name: 'DerivedExitCode', width: 15, value: jobOnly((j) => exitCodeText(j.derivedExitCode)) },
  { name: 'Elapsed', width: 10, value: both((j, ctx) => secsToTimeStr(jobElapsed(j, ctx)), (s, _j, ctx) => secsToTimeStr(stepElapsed(s, ctx))) },
  { name: 'ElapsedRaw', width: 10, numeric: true, value: both(jobElapsed, (s, _j, ctx) => stepElapsed(s, ctx)) },
  { name: 'Eligible', width: 19, value: both((j) => formatSlurmDate(j.eligible), (s) => formatSlurmDate(s.start)) },
  { name: 'End', width: 19, value: both((j) => formatSlurmDate(j.end), (s) => formatSlurmDate(s.end)) },
  { name: 'ExitCode', width: 8, value: both((j) => exitCodeText(j.exitCode), (s) => exitCodeText(s.exitCode)) },
  { name: 'GID', width: 6, numeric: true, value: jobOnly((j) => j.gid) },
  { name: 'Group', width: 9, value: jobOnly((j) => j.group) },
  { name: 'JobID', width: -12, value: both(jobIdText, (s, j) => `${jobIdText(j)}.${stepName(s.stepId)}`) },
  { name: 'JobIDRaw', width: -12, value: both((j) => String(j.jobId), (s) => `${s.jobId}.${stepName(s.stepId)}`) },
  { name: 'JobName', width: 10, value: both((j) => j.name, (s) => s.name) },
  { name: 'MaxDiskRead', width: 12, value: usage((u) => (u.maxDiskReadBytes === undefined ? undefined : megabytesOfBytes(u.maxDiskReadBytes))) },
  { name: 'MaxDiskReadNode', width: 15, value: notGathered },
  { name: 'MaxDiskReadTask', width: 15, value: notGathered },
  { name: 'MaxDiskWrite', width: 12, value: usage((u) => (u.maxDiskWriteBytes === undefined ? undefined : megabytesOfBytes(u.maxDiskWriteBytes))) },
  { name: 'MaxDiskWriteNode', width: 16, value: notGathered },
  { name: 'MaxDiskWriteTask', width: 16, value: notGathered },
  { name: 'MaxPages', width: 8, value: notGathered },
  { name: 'MaxPagesNode', width: 12, value: notGathered },
  { name: 'MaxPagesTask', width: 14, value: notGathered },
  { name: 'MaxRSS', width: 10, value: usage((u, _s, ctx) => kib(u.maxRssKiB, ctx)) },
  { name: 'MaxRSSNode', width: 10, value: usage((u) => u.maxRssNode) },
  { name: 'MaxRSSTask', width: 10, numeric: true, value: usage((u) => u.maxRssTask) },
  { name: 'MaxVMSize', width: 10, value: usage((u, _s, ctx) => kib(u.maxVmSizeKiB, ctx)) },
  { name: 'MaxVMSizeNode', width: 14, value: usage((u) => u.maxVmSizeNode) },
  { name: 'MaxVMSizeTask', width: 14, numeric: true, value: usage((u) => u.maxVmSizeTask) },
  { name: 'MinCPU', width: 10, value: notGathered },
  { name: 'MinCPUNode', width: 10, value: notGathered },
  { name: 'MinCPUTask', width: 10, value: notGathered },
  { name: 'NCPUS', width: 10, numeric: true, value: both(jobCpus, (s) => s.ncpus) },
  { name: 'NNodes', width: 8, numeric: true, value: both((j) => j.nnodes, (s) => s.nnodes) },
  { name: 'NodeList', width: 15, value: both((j) => j.nodeList, (s) => s.nodeList) },
  { name: 'NTasks', width: 8, numeric: true, value: both(() => undefined, (s) => s.ntasks) },
  { name: 'Partition', width: 10, value: jobOnly((j) => j.partition) },
  { name: 'Priority', width: 10, numeric: true, value: jobOnly((j) => j.priority) },
  { name: 'QOS', width: 10, value: jobOnly((j) => j.qos) },
  { name: 'Reason', width: 22, value: jobOnly((j) => j.reason) },
  { name: 'ReqCPUFreq', width: 10, value: notGathered },
  { name: 'ReqCPUFreqGov', width: 13, value: notGathered },
  { name: 'ReqCPUFreqMax', width: 13, value: notGathered },
  { name: 'ReqCPUFreqMin', width: 13, value: notGathered },
  { name: 'ReqCPUS', width: 8, numeric: true, value: both((j) => j.ncpus, (s) => s.ncpus) },
  { name: 'ReqMem', width: 10, value: jobOnly((j, ctx) => { const mb = reqMemMb(j); return mb === undefined ? undefined : sizeText(mb, 2, ctx.sizes); }) },
  { name: 'ReqNodes', width: 8, value: both((j) => j.nnodes, (s) => s.nnodes) },
  { name: 'ReqTRES', width: 10, value: jobOnly((j) => j.reqTres) },
  { name: 'Restarts', width: 8, numeric: true, value: jobOnly((j) => j.restarts) },
  { name: 'Start', width: 19, value: both((j) => formatSlurmDate(j.start), (s) => formatSlurmDate(s.start)) },
  { name: 'State', width: 10, value: both((j) => stateText(j.state, j.cancelledBy), (s) => stateText(s.state, s.cancelledBy)) },
  { name: 'Submit', width: 19, value: both((j) => formatSlurmDate(j.submit), (s) => formatSlurmDate(s.start)) },
  { name: 'SubmitLine', width: 20, value: jobOnly((j) => j.submitLine) },
  { name: 'Suspended', width: 10, value: both(() => '00:00:00', () => '00:00:00') },
  { name: 'SystemCPU', width: 10, value: both((j) => opt(cpuUsec(j, 'systemCpuUsec'), cpuTimeText), (s) => opt(s.usage?.systemCpuUsec, cpuTimeText)) },
  { name: 'Timelimit', width: 10, value: jobOnly((j) => timelimitText(j.timelimit, secsToTimeStr)) },
  { name: 'TimelimitRaw', width: 10, value: jobOnly((j) => timelimitText(j.timelimit, (s) => String(s / 60))) },
  { name: 'TotalCPU', width: 10, value: both((j) => opt(cpuUsec(j, 'both'), cpuTimeText), (s) => opt(s.usage ? s.usage.userCpuUsec + s.usage.systemCpuUsec : undefined, cpuTimeText)) },
  { name: 'TRESUsageInAve', width: 14, value: notGathered },
  { name: 'TRESUsageInMax', width: 14, value: notGathered },
  { name: 'TRESUsageInMaxNode', width: 18, value: notGathered },
  { name: 'TRESUsageInMaxTask', width: 18, value: notGathered },
  { name: 'TRESUsageInMin', width: 14, value: notGathered },
  { name: 'TRESUsageInMinNode', width: 18, value: notGathered },
  { name: 'TRESUsageInMinTask', width: 18, value: notGathered },
  { name: 'TRESUsageInTot', width: 14, value: notGathered },
  { name: 'TRESUsageOutAve', width: 15, value: notGathered },
  { name: 'TRESUsageOutMax', width: 15, value: notGathered },
  { name: 'TRESUsageOutMaxNode', width: 19, value: notGathered },
  { name: 'TRESUsageOutMaxTask', width: 19, value: notGathered },
  { name: 'TRESUsageOutTot', width: 15, value: notGathered },
  { name: 'UID', width: 6, numeric: true, value: jobOnly((j) => j.uid) },
  { name: 'User', width: 9, value: jobOnly((j) => j.user) },
  { name: 'UserCPU', width: 10, value: both((j) => opt(cpuUsec(j, 'userCpuUsec'), cpuTimeText), (s) => opt(s.usage?.userCpuUsec, cpuTimeText)) },
  { name: 'WorkDir', width: 20, value: jobOnly((j) => j.workDir) },
];

function opt<T>(value: T | undefined, format: (value: T) => string): string | undefined {
  return value === undefined ? undefined : format(value);
}

/** sacct's default format, -b's, and -l's (22.05's LONG_FORMAT). */
export const DEFAULT_FORMAT = 'JobID,JobName,Partition,Account,AllocCPUS,State,ExitCode';
export const BRIEF_FORMAT = 'JobID,State,ExitCode';
export const LONG_FORMAT =
  'JobID,JobIDRaw,JobName,Partition,MaxVMSize,MaxVMSizeNode,MaxVMSizeTask,AveVMSize,MaxRSS,MaxRSSNode,MaxRSSTask,AveRSS,' +
  'MaxPages,MaxPagesNode,MaxPagesTask,AvePages,MinCPU,MinCPUNode,MinCPUTask,AveCPU,NTasks,AllocCPUS,Elapsed,State,ExitCode,' +
  'AveCPUFreq,ReqCPUFreqMin,ReqCPUFreqMax,ReqCPUFreqGov,ReqMem,ConsumedEnergy,MaxDiskRead,MaxDiskReadNode,MaxDiskReadTask,' +
  'AveDiskRead,MaxDiskWrite,MaxDiskWriteNode,MaxDiskWriteTask,AveDiskWrite,ReqTRES,AllocTRES,TRESUsageInAve,TRESUsageInMax,' +
  'TRESUsageInMaxNode,TRESUsageInMaxTask,TRESUsageInMin,TRESUsageInMinNode,TRESUsageInMinTask,TRESUsageInTot,TRESUsageOutMax,' +
  'TRESUsageOutMaxNode,TRESUsageOutMaxTask,TRESUsageOutAve,TRESUsageOutTot';
