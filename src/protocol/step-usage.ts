// What a step (or a batch script) used, as sacct and sstat report it: Slurm's jobacct_gather
// fields for the tasks of one step. Gathered where the tasks run (cgroup memory peak under
// proctrack/cgroup, else /proc samples at JobAcctGatherFrequency, and each task's final wait4
// rusage), carried to the controller in step-end and batch-result messages and in live samples,
// and written to the accounting store. Memory in KiB, CPU time in microseconds.

export interface StepUsage {
  /** Highest resident set of any one task (sacct MaxRSS), with which task and where. */
  maxRssKiB: number;
  maxRssTask: number;
  maxRssNode: string;
  /** Mean over the tasks of each task's peak resident set (sacct AveRSS). */
  aveRssKiB: number;
  /** Highest virtual size of any one task (sacct MaxVMSize), with which task and where. */
  maxVmSizeKiB: number;
  maxVmSizeTask: number;
  maxVmSizeNode: string;
  aveVmSizeKiB: number;
  /** CPU time of all tasks and their children (sacct UserCPU, SystemCPU; TotalCPU is the sum). */
  userCpuUsec: number;
  systemCpuUsec: number;
  /** Bytes read and written by the tasks (/proc/PID/io), when the kernel reports them. */
  maxDiskReadBytes?: number;
  maxDiskWriteBytes?: number;
  /** sstat's per-task figures: how many tasks, the least CPU of one task (MinCPU) and where, mean bytes per task. */
  ntasks?: number;
  minCpuUsec?: number;
  minCpuTask?: number;
  minCpuNode?: string;
  maxDiskReadTask?: number;
  maxDiskReadNode?: string;
  maxDiskWriteTask?: number;
  maxDiskWriteNode?: string;
  aveDiskReadBytes?: number;
  aveDiskWriteBytes?: number;
  /** Unix seconds of the sample: the end of the step, or the latest live sample. */
  sampledAt: number;
}

/**
 * What one node saw of one task of a step (the node's report, folded into a StepUsage by
 * foldStepUsage): peaks over the task and its descendants, CPU time, bytes read and written.
 */
export interface TaskUsage {
  taskId: number;
  /** Peak resident set and peak virtual size, KiB. */
  rssKiB: number;
  vmSizeKiB: number;
  userCpuUsec: number;
  systemCpuUsec: number;
  readBytes?: number;
  writeBytes?: number;
}

/** One node's share of a step's usage: its tasks, and the step's cgroup there when it had one. */
export interface NodeUsage {
  node: string;
  tasks: TaskUsage[];
  /** cpu.stat (and memory.peak, when the memory controller is there) of the step's cgroup on the node. */
  cgroup?: { userCpuUsec: number; systemCpuUsec: number; memPeakKiB?: number };
}
