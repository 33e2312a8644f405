// The usage of one node's share of a step, gathered while its tasks run (slurmstepd's
// jobacct_gather): each task's process tree sampled from /proc every JobAcctGatherFrequency
// seconds (peaks kept, the latest sample sent up as a live figure), then at the end the final
// rusage the task exec helper reports where it waits for the program (batch scripts), and the
// step cgroup's cpu.stat and memory.peak when proctrack/cgroup made one. Frequency 0 takes no samples, only the final figures (Slurm's
// JobAcctGatherFrequency=0).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { NodeUsage, TaskUsage } from '../../protocol/step-usage.js';
import { parentsOf, sampleTree, type ProcSample } from './proc-tree.js';
import type { Rusage } from './task-rusage.js';

interface Tracked {
  taskId: number;
  pid: number;
  /** The pid is the task exec helper waiting on the program. */
  viaHelper: boolean;
  rusage: Promise<Rusage | undefined>;
  peakRssKiB: number;
  peakVmKiB: number;
  last?: ProcSample;
}

export class NodeUsageGatherer {
  private readonly tasks: Tracked[] = [];
  private timer: NodeJS.Timeout | undefined;
  private sampling: Promise<void> = Promise.resolve();
  private cgroupFigures: NodeUsage['cgroup'];

  constructor(
    private readonly node: string,
    private readonly frequencySeconds: number,
    /** A live figure of the node's tasks, after each sample. */
    private readonly report?: (usage: NodeUsage) => void,
  ) {}

  add(taskId: number, pid: number | undefined, rusage: Promise<Rusage | undefined>, viaHelper: boolean): void {
    if (pid === undefined) return void this.tasks.push({ taskId, pid: 0, viaHelper, rusage, peakRssKiB: 0, peakVmKiB: 0 });
    this.tasks.push({ taskId, pid, viaHelper, rusage, peakRssKiB: 0, peakVmKiB: 0 });
  }

  /**
   * Samples `firstAfterMs` from now (capped at the gather period; 0: at once), then every gather
   * period. Every sample walks /proc for the tasks' descendants (one scan, shared by the samples
   * of the moment): the callers take the first a second into the tasks, not as they start,
   * when a task (a batch script above all) may already have started children.
   */
  start(firstAfterMs = 0): void {
    if (this.frequencySeconds <= 0) return;
    const periodMs = this.frequencySeconds * 1000;
    const every = (): void => {
      this.timer = setInterval(() => this.sampleSoon(), periodMs);
      this.timer.unref();
    };
    const firstMs = Math.min(firstAfterMs, periodMs);
    if (firstMs <= 0) {
      this.sampleSoon();
      return every();
    }
    this.timer = setTimeout(() => (this.sampleSoon(), every()), firstMs);
    this.timer.unref();
  }

  private sampleSoon(): void {
    this.sampling = this.sampling.then(() => this.sample()).catch(() => {});
  }

  private async sample(): Promise<void> {
    // The scan is synchronous (proc-tree.ts): 4-12 ms for 150 processes on the loaded build
    // machine, which is why no sample is taken the moment the tasks start, while short tasks end.
    const children = parentsOf();
    await Promise.all(
      this.tasks.map(async (task) => {
        if (task.pid === 0) return;
        const now = await sampleTree(task.pid, children, task.viaHelper);
        if (!now) return;
        task.last = now;
        task.peakRssKiB = Math.max(task.peakRssKiB, now.rssKiB);
        task.peakVmKiB = Math.max(task.peakVmKiB, now.vmSizeKiB);
      }),
    );
    this.report?.({ node: this.node, tasks: this.tasks.map((t) => liveFigure(t)) });
  }

  /**
   * The step cgroup's own counters: read before the container is destroyed. Synchronously: a
   * cgroup file is the kernel's, and a trip through the thread pool would cost a wake-up.
   */
  async readCgroup(dir: string | undefined): Promise<void> {
    if (dir === undefined) return;
    const cpu = readKernelFile(path.join(dir, 'cpu.stat'));
    if (cpu === undefined) return;
    const field = (name: string): number => Number(new RegExp(`^${name} (\\d+)$`, 'm').exec(cpu)?.[1] ?? 0);
    const peak = readKernelFile(path.join(dir, 'memory.peak'));
    const peakBytes = peak === undefined ? Number.NaN : Number(peak.trim());
    this.cgroupFigures = {
      userCpuUsec: field('user_usec'),
      systemCpuUsec: field('system_usec'),
      ...(Number.isFinite(peakBytes) && { memPeakKiB: Math.round(peakBytes / 1024) }),
    };
  }

  /** The node's final figures, once every task has ended (their rusage is in). */
  async finish(): Promise<NodeUsage> {
    if (this.timer) clearInterval(this.timer);
    await this.sampling;
    const tasks = await Promise.all(this.tasks.map(async (t) => finalFigure(t, await t.rusage)));
    return { node: this.node, tasks, ...(this.cgroupFigures && { cgroup: this.cgroupFigures }) };
  }
}

function liveFigure(t: Tracked): TaskUsage {
  const last = t.last;
  return {
    taskId: t.taskId,
    rssKiB: t.peakRssKiB,
    vmSizeKiB: t.peakVmKiB,
    userCpuUsec: last?.userCpuUsec ?? 0,
    systemCpuUsec: last?.systemCpuUsec ?? 0,
    ...(last?.readBytes !== undefined && { readBytes: last.readBytes }),
    ...(last?.writeBytes !== undefined && { writeBytes: last.writeBytes }),
  };
}

// The kernel's final word where the helper gave it; the last sample otherwise.
function finalFigure(t: Tracked, rusage: Rusage | undefined): TaskUsage {
  const live = liveFigure(t);
  if (!rusage) return live;
  const read = Math.max(live.readBytes ?? 0, rusage.inBlocks * 512);
  const written = Math.max(live.writeBytes ?? 0, rusage.outBlocks * 512);
  return {
    ...live,
    rssKiB: Math.max(live.rssKiB, rusage.maxRssKiB),
    userCpuUsec: rusage.userCpuUsec,
    systemCpuUsec: rusage.systemCpuUsec,
    readBytes: read,
    writeBytes: written,
  };
}

function readKernelFile(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}
