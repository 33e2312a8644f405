// sstat 22.05's fields (sstat -e, and its default format, observed: /work/ref/sstat.txt), with
// their widths, and each one's value from a step's figures (StepUsage). Every column is
// right-aligned but JobID (sstat sets it to -12); sizes in bytes scaled as convert_num_unit
// does (CONVERT_NUM_UNIT_EXACT: `2264K`), CPU times as sacct's _elapsed_time. tslurm gathers
// no energy, CPU frequency or page faults: those print as sstat prints them without data.
import { convertNumUnit } from '../../core/convert-num.js';
import type { StepStats } from '../../protocol/ctld-answers.js';
import type { StepUsage } from '../../protocol/step-usage.js';

export interface FieldSpec {
  name: string;
  width: number;
  value: (row: StepStats, opts: ValueOptions) => string;
}

export interface ValueOptions {
  /** --noconvert: bytes as they are. */
  noconvert: boolean;
}

const SIZE = (f: (u: StepUsage) => number | undefined) => (row: StepStats, o: ValueOptions) => {
  const value = row.usage ? f(row.usage) : undefined;
  if (value === undefined) return '';
  return o.noconvert ? String(Math.round(value)) : convertNumUnit(Math.round(value));
};
const TEXT = (f: (u: StepUsage) => string | number | undefined) => (row: StepStats) => {
  const value = row.usage ? f(row.usage) : undefined;
  return value === undefined ? '' : String(value);
};
const CPU = (f: (u: StepUsage) => number | undefined) => (row: StepStats) => {
  const value = row.usage ? f(row.usage) : undefined;
  return value === undefined ? '' : elapsedTime(value);
};
const fixed = (text: string) => (): string => text;
const kib = (n: number | undefined): number | undefined => (n === undefined ? undefined : n * 1024);
const totalCpu = (u: StepUsage): number => u.userCpuUsec + u.systemCpuUsec;
const aveCpu = (u: StepUsage): number => Math.round(totalCpu(u) / Math.max(1, u.ntasks ?? 1));

const tresIn = (kind: 'ave' | 'max' | 'min' | 'tot', o: ValueOptions, u: StepUsage): string => {
  const size = (n: number | undefined): string => (n === undefined ? '0' : o.noconvert ? String(n) : convertNumUnit(n));
  const n = Math.max(1, u.ntasks ?? 1);
  const pick = { ave: [aveCpu(u), u.aveDiskReadBytes, u.aveRssKiB * 1024, u.aveVmSizeKiB * 1024], max: [totalCpu(u), u.maxDiskReadBytes, u.maxRssKiB * 1024, u.maxVmSizeKiB * 1024], min: [u.minCpuUsec ?? aveCpu(u), u.aveDiskReadBytes, u.aveRssKiB * 1024, u.aveVmSizeKiB * 1024], tot: [totalCpu(u), (u.aveDiskReadBytes ?? 0) * n, u.aveRssKiB * 1024 * n, u.aveVmSizeKiB * 1024 * n] }[kind];
  const [cpu, disk, mem, vmem] = pick as [number, number | undefined, number, number];
  return `cpu=${elapsedTime(cpu)},energy=0,fs/disk=${size(disk)},mem=${size(mem)},pages=0,vmem=${size(vmem)}`;
};
const tresOut = (kind: 'ave' | 'max' | 'tot', o: ValueOptions, u: StepUsage): string => {
  const n = Math.max(1, u.ntasks ?? 1);
  const value = { ave: u.aveDiskWriteBytes, max: u.maxDiskWriteBytes, tot: u.aveDiskWriteBytes === undefined ? undefined : u.aveDiskWriteBytes * n }[kind];
  return `energy=0,fs/disk=${value === undefined ? '0' : o.noconvert ? String(value) : convertNumUnit(value)}`;
};
const where = (u: StepUsage, what: 'node' | 'task'): string => {
  const pick = (node: string | undefined, task: number | undefined): string => (what === 'node' ? (node ?? '') : String(task ?? 0));
  return `cpu=${pick(u.minCpuNode, u.minCpuTask)},fs/disk=${pick(u.maxDiskReadNode, u.maxDiskReadTask)},mem=${pick(u.maxRssNode, u.maxRssTask)},pages=${pick(u.maxRssNode, u.maxRssTask)},vmem=${pick(u.maxVmSizeNode, u.maxVmSizeTask)}`;
};
const TRES = (f: (u: StepUsage, o: ValueOptions) => string) => (row: StepStats, o: ValueOptions) => (row.usage ? f(row.usage, o) : '');

/** Every field, in sstat -e's order. */
export const FIELDS: readonly FieldSpec[] = [
  { name: 'AveCPU', width: 10, value: CPU(aveCpu) },
  { name: 'AveCPUFreq', width: 10, value: fixed('0') },
  { name: 'AveDiskRead', width: 12, value: SIZE((u) => u.aveDiskReadBytes) },
  { name: 'AveDiskWrite', width: 12, value: SIZE((u) => u.aveDiskWriteBytes) },
  { name: 'AvePages', width: 10, value: fixed('0') },
  { name: 'AveRSS', width: 10, value: SIZE((u) => kib(u.aveRssKiB)) },
  { name: 'AveVMSize', width: 10, value: SIZE((u) => kib(u.aveVmSizeKiB)) },
  { name: 'ConsumedEnergy', width: 14, value: fixed('0') },
  { name: 'ConsumedEnergyRaw', width: 17, value: fixed('0') },
  { name: 'JobID', width: 12, value: (row) => `${row.jobId}.${row.stepId}` },
  { name: 'MaxDiskRead', width: 12, value: SIZE((u) => u.maxDiskReadBytes) },
  { name: 'MaxDiskReadNode', width: 15, value: TEXT((u) => u.maxDiskReadNode) },
  { name: 'MaxDiskReadTask', width: 15, value: TEXT((u) => u.maxDiskReadTask) },
  { name: 'MaxDiskWrite', width: 12, value: SIZE((u) => u.maxDiskWriteBytes) },
  { name: 'MaxDiskWriteNode', width: 16, value: TEXT((u) => u.maxDiskWriteNode) },
  { name: 'MaxDiskWriteTask', width: 16, value: TEXT((u) => u.maxDiskWriteTask) },
  { name: 'MaxPages', width: 8, value: fixed('0') },
  { name: 'MaxPagesNode', width: 12, value: TEXT((u) => u.maxRssNode) },
  { name: 'MaxPagesTask', width: 14, value: TEXT((u) => u.maxRssTask) },
  { name: 'MaxRSS', width: 10, value: SIZE((u) => kib(u.maxRssKiB)) },
  { name: 'MaxRSSNode', width: 10, value: TEXT((u) => u.maxRssNode) },
  { name: 'MaxRSSTask', width: 10, value: TEXT((u) => u.maxRssTask) },
  { name: 'MaxVMSize', width: 10, value: SIZE((u) => kib(u.maxVmSizeKiB)) },
  { name: 'MaxVMSizeNode', width: 14, value: TEXT((u) => u.maxVmSizeNode) },
  { name: 'MaxVMSizeTask', width: 14, value: TEXT((u) => u.maxVmSizeTask) },
  { name: 'MinCPU', width: 10, value: CPU((u) => u.minCpuUsec ?? aveCpu(u)) },
  { name: 'MinCPUNode', width: 10, value: TEXT((u) => u.minCpuNode) },
  { name: 'MinCPUTask', width: 10, value: TEXT((u) => u.minCpuTask) },
  { name: 'Nodelist', width: 20, value: (row) => row.nodes },
  { name: 'NTasks', width: 8, value: (row) => String(row.usage?.ntasks ?? row.ntasks) },
  { name: 'Pids', width: 20, value: fixed('') },
  { name: 'ReqCPUFreq', width: 10, value: fixed('Unknown') },
  { name: 'ReqCPUFreqMin', width: 13, value: fixed('Unknown') },
  { name: 'ReqCPUFreqMax', width: 13, value: fixed('Unknown') },
  { name: 'ReqCPUFreqGov', width: 13, value: fixed('Unknown') },
  { name: 'TRESUsageInAve', width: 14, value: TRES((u, o) => tresIn('ave', o, u)) },
  { name: 'TRESUsageInMax', width: 14, value: TRES((u, o) => tresIn('max', o, u)) },
  { name: 'TRESUsageInMaxNode', width: 18, value: TRES((u) => where(u, 'node')) },
  { name: 'TRESUsageInMaxTask', width: 18, value: TRES((u) => where(u, 'task')) },
  { name: 'TRESUsageInMin', width: 14, value: TRES((u, o) => tresIn('min', o, u)) },
  { name: 'TRESUsageInMinNode', width: 18, value: TRES((u) => where(u, 'node')) },
  { name: 'TRESUsageInMinTask', width: 18, value: TRES((u) => where(u, 'task')) },
  { name: 'TRESUsageInTot', width: 14, value: TRES((u, o) => tresIn('tot', o, u)) },
  { name: 'TRESUsageOutAve', width: 15, value: TRES((u, o) => tresOut('ave', o, u)) },
  { name: 'TRESUsageOutMax', width: 15, value: TRES((u, o) => tresOut('max', o, u)) },
  { name: 'TRESUsageOutMaxNode', width: 19, value: TRES((u) => `energy=${u.maxDiskWriteNode ?? ''},fs/disk=${u.maxDiskWriteNode ?? ''}`) },
  { name: 'TRESUsageOutMaxTask', width: 19, value: TRES((u) => `fs/disk=${u.maxDiskWriteTask ?? 0}`) },
  { name: 'TRESUsageOutMin', width: 15, value: TRES((u, o) => tresOut('ave', o, u)) },
  { name: 'TRESUsageOutMinNode', width: 19, value: TRES((u) => `energy=${u.maxDiskWriteNode ?? ''},fs/disk=${u.maxDiskWriteNode ?? ''}`) },
  { name: 'TRESUsageOutMinTask', width: 19, value: TRES((u) => `fs/disk=${u.maxDiskWriteTask ?? 0}`) },
  { name: 'TRESUsageOutTot', width: 15, value: TRES((u, o) => tresOut('tot', o, u)) },
];

/** sstat's default format (observed). */
export const DEFAULT_FIELDS =
  'JobID,MaxVMSize,MaxVMSizeNode,MaxVMSizeTask,AveVMSize,MaxRSS,MaxRSSNode,MaxRSSTask,AveRSS,MaxPages,MaxPagesNode,MaxPagesTask,AvePages,MinCPU,MinCPUNode,MinCPUTask,AveCPU,NTasks,AveCPUFreq,ReqCPUFreqMin,ReqCPUFreqMax,ReqCPUFreqGov,ConsumedEnergy,MaxDiskRead,MaxDiskReadNode,MaxDiskReadTask,AveDiskRead,MaxDiskWrite,MaxDiskWriteNode,MaxDiskWriteTask,AveDiskWrite,TRESUsageInAve,TRESUsageInMax,TRESUsageInMaxNode,TRESUsageInMaxTask,TRESUsageInMin,TRESUsageInMinNode,TRESUsageInMinTask,TRESUsageInTot,TRESUsageOutAve,TRESUsageOutMax,TRESUsageOutMaxNode,TRESUsageOutMaxTask,TRESUsageOutMin,TRESUsageOutMinNode,TRESUsageOutMinTask,TRESUsageOutTot';

/** sstat -i. */
export const PID_FIELDS = 'JobID,Nodelist,Pids';

/**
 * sacct's _elapsed_time: `D-HH:MM:SS`, `HH:MM:SS`, `MM:SS.mmm` when under an hour with a
 * fraction, else `00:MM:SS`.
 */
export function elapsedTime(usec: number): string {
  const secs = Math.floor(usec / 1e6);
  const milli = Math.floor((usec % 1e6) / 1000);
  const two = (n: number): string => String(n).padStart(2, '0');
  const [days, hours, minutes, seconds] = [Math.floor(secs / 86400), Math.floor(secs / 3600) % 24, Math.floor(secs / 60) % 60, secs % 60];
  if (days > 0) return `${days}-${two(hours)}:${two(minutes)}:${two(seconds)}`;
  if (hours > 0) return `${two(hours)}:${two(minutes)}:${two(seconds)}`;
  if (milli > 0) return `${two(minutes)}:${two(seconds)}.${String(milli).padStart(3, '0')}`;
  return `00:${two(minutes)}:${two(seconds)}`;
}

/** `sstat -e`: the names, four to a line, each in 20 columns. */
export function helpFormat(): string {
  const names = FIELDS.map((f) => f.name.padEnd(19));
  let out = '';
  for (let i = 0; i < names.length; i += 4) out += `${names.slice(i, i + 4).join(' ')}\n`;
  return out;
}
