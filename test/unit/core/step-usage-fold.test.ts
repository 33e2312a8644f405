import { describe, expect, it } from 'vitest';
import { foldStepUsage } from '../../../src/core/step-usage-fold.js';
import type { TaskUsage } from '../../../src/protocol/step-usage.js';

const task = (taskId: number, rssKiB: number, cpu: number, extra: Partial<TaskUsage> = {}): TaskUsage => ({
  taskId,
  rssKiB,
  vmSizeKiB: rssKiB * 2,
  userCpuUsec: cpu,
  systemCpuUsec: 0,
  ...extra,
});

describe('foldStepUsage (jobacctinfo_aggregate)', () => {
  it('keeps the highest task with its node, means over the tasks, and sums CPU', () => {
    const usage = foldStepUsage(
      [
        { node: 'n1', tasks: [task(0, 100, 5), task(1, 300, 1, { readBytes: 10 })] },
        { node: 'n2', tasks: [task(2, 200, 3, { readBytes: 30, writeBytes: 7 })] },
      ],
      42,
    );
    expect(usage).toEqual({
      maxRssKiB: 300,
      maxRssTask: 1,
      maxRssNode: 'n1',
      aveRssKiB: 200,
      maxVmSizeKiB: 600,
      maxVmSizeTask: 1,
      maxVmSizeNode: 'n1',
      aveVmSizeKiB: 400,
      userCpuUsec: 9,
      systemCpuUsec: 0,
      ntasks: 3,
      minCpuUsec: 1,
      minCpuTask: 1,
      minCpuNode: 'n1',
      maxDiskReadBytes: 30,
      maxDiskReadTask: 2,
      maxDiskReadNode: 'n2',
      aveDiskReadBytes: 20,
      maxDiskWriteBytes: 7,
      maxDiskWriteTask: 2,
      maxDiskWriteNode: 'n2',
      aveDiskWriteBytes: 7,
      sampledAt: 42,
    });
  });

  it('takes a node\'s cgroup CPU when it counts more (processes the tasks never reaped), and its memory.peak for a lone task', () => {
    const usage = foldStepUsage([{ node: 'n1', tasks: [task(0, 100, 5)], cgroup: { userCpuUsec: 50, systemCpuUsec: 4, memPeakKiB: 900 } }], 1)!;
    expect(usage).toMatchObject({ userCpuUsec: 50, systemCpuUsec: 4, maxRssKiB: 900 });
    const two = foldStepUsage([{ node: 'n1', tasks: [task(0, 100, 5), task(1, 50, 5)], cgroup: { userCpuUsec: 1, systemCpuUsec: 0, memPeakKiB: 900 } }], 1)!;
    expect(two).toMatchObject({ userCpuUsec: 10, maxRssKiB: 100 });
  });

  it('is undefined without tasks, and a tie goes to the lowest task id', () => {
    expect(foldStepUsage([], 0)).toBeUndefined();
    expect(foldStepUsage([{ node: 'n2', tasks: [task(3, 10, 1)] }, { node: 'n1', tasks: [task(1, 10, 1)] }], 0)).toMatchObject({ maxRssTask: 1, maxRssNode: 'n1' });
  });
});
