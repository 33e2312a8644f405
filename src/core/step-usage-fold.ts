// A step's usage from what each of its nodes reported of its tasks, as slurmctld aggregates
// the tasks' jobacct records (jobacctinfo_aggregate): maxima with the task and node that had
// them, means over the tasks, CPU summed. Where a node's step had a cgroup, its cpu.stat is the
// node's CPU (it also counts what the tasks left behind and never reaped), and its memory.peak
// stands for the node's peak resident set when the node ran a single task of the step.
import type { NodeUsage, StepUsage, TaskUsage } from '../protocol/step-usage.js';

export function foldStepUsage(nodes: readonly NodeUsage[], sampledAt: number): StepUsage | undefined {
  const tasks = nodes.flatMap((n) => n.tasks.map((task) => ({ task: withCgroupPeak(task, n), node: n.node })));
  if (tasks.length === 0) return undefined;
  const maxRss = top(tasks, (t) => t.rssKiB);
  const maxVm = top(tasks, (t) => t.vmSizeKiB);
  const minCpu = top(tasks, (t) => -(t.userCpuUsec + t.systemCpuUsec));
  let userCpuUsec = 0;
  let systemCpuUsec = 0;
  for (const n of nodes) {
    userCpuUsec += n.cgroup ? Math.max(n.cgroup.userCpuUsec, sum(n.tasks, (t) => t.userCpuUsec)) : sum(n.tasks, (t) => t.userCpuUsec);
    systemCpuUsec += n.cgroup ? Math.max(n.cgroup.systemCpuUsec, sum(n.tasks, (t) => t.systemCpuUsec)) : sum(n.tasks, (t) => t.systemCpuUsec);
  }
  const mean = (f: (t: TaskUsage) => number): number => Math.round(sum(tasks.map((t) => t.task), f) / tasks.length);
  const usage: StepUsage = {
    maxRssKiB: maxRss.task.rssKiB,
    maxRssTask: maxRss.task.taskId,
    maxRssNode: maxRss.node,
    aveRssKiB: mean((t) => t.rssKiB),
    maxVmSizeKiB: maxVm.task.vmSizeKiB,
    maxVmSizeTask: maxVm.task.taskId,
    maxVmSizeNode: maxVm.node,
    aveVmSizeKiB: mean((t) => t.vmSizeKiB),
    userCpuUsec,
    systemCpuUsec,
    ntasks: tasks.length,
    minCpuUsec: minCpu.task.userCpuUsec + minCpu.task.systemCpuUsec,
    minCpuTask: minCpu.task.taskId,
    minCpuNode: minCpu.node,
    sampledAt,
  };
  const reads = tasks.filter((t) => t.task.readBytes !== undefined);
  if (reads.length > 0) {
    const most = top(reads, (t) => t.readBytes!);
    Object.assign(usage, { maxDiskReadBytes: most.task.readBytes, maxDiskReadTask: most.task.taskId, maxDiskReadNode: most.node });
    usage.aveDiskReadBytes = Math.round(sum(reads.map((t) => t.task), (t) => t.readBytes!) / reads.length);
  }
  const writes = tasks.filter((t) => t.task.writeBytes !== undefined);
  if (writes.length > 0) {
    const most = top(writes, (t) => t.writeBytes!);
    Object.assign(usage, { maxDiskWriteBytes: most.task.writeBytes, maxDiskWriteTask: most.task.taskId, maxDiskWriteNode: most.node });
    usage.aveDiskWriteBytes = Math.round(sum(writes.map((t) => t.task), (t) => t.writeBytes!) / writes.length);
  }
  return usage;
}

// The cgroup's peak counts the whole step on the node: it is one task's only when there is one.
function withCgroupPeak(task: TaskUsage, node: NodeUsage): TaskUsage {
  const peak = node.cgroup?.memPeakKiB;
  if (peak === undefined || node.tasks.length !== 1 || peak <= task.rssKiB) return task;
  return { ...task, rssKiB: peak };
}

/** The entry with the highest value; the lowest task id among equals, as Slurm keeps the first. */
function top<T extends { task: TaskUsage }>(items: readonly T[], value: (t: TaskUsage) => number): T {
  return items.reduce((best, item) => {
    const a = value(item.task);
    const b = value(best.task);
    return a > b || (a === b && item.task.taskId < best.task.taskId) ? item : best;
  });
}

function sum(tasks: readonly TaskUsage[], f: (t: TaskUsage) => number): number {
  return tasks.reduce((total, t) => total + f(t), 0);
}
