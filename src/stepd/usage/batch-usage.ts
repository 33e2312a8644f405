// What a batch script used (the `batch` step of its job): gathered as a step's task is, the
// script being its one task. The batch step starts it with the script's pid and the rusage the
// task exec helper reports, and calls `finish` where the script has ended (before its
// container goes); the figures go into the batch result (`usage`). Live samples are written to
// `usage.json` beside the result, where the controller reads them for tssstat.
import path from 'node:path';
import { foldStepUsage } from '../../core/step-usage-fold.js';
import { writeFileAtomic } from '../../os/atomic-write.js';
import type { StepUsage } from '../../protocol/step-usage.js';
import { NodeUsageGatherer } from './node-gatherer.js';
import type { Rusage } from './task-rusage.js';

export interface BatchUsage {
  /** The script has ended: its figures, with the cgroup's when the batch step had one. */
  finish(cgroupDir: string | undefined): Promise<StepUsage | undefined>;
}

/** The name of the live sample file in a job's directory. */
export const LIVE_USAGE_FILE = 'usage.json';

export function gatherBatchUsage(opts: {
  nodeName: string;
  pid: number | undefined;
  rusage: Promise<Rusage | undefined>;
  viaHelper: boolean;
  frequencySeconds: number;
  jobDir: string;
}): BatchUsage {
  const liveFile = path.join(opts.jobDir, LIVE_USAGE_FILE);
  const gatherer = new NodeUsageGatherer(opts.nodeName, opts.frequencySeconds, (usage) => {
    const step = foldStepUsage([usage], Math.floor(Date.now() / 1000));
    if (!step) return;
    try {
      writeFileAtomic(liveFile, JSON.stringify(step), { mode: 0o644 });
    } catch {
      // a full or gone directory: the next sample tries again
    }
  });
  gatherer.add(0, opts.pid, opts.rusage, opts.viaHelper);
  gatherer.start();
  return {
    finish: async (cgroupDir) => {
      await gatherer.readCgroup(cgroupDir).catch(() => {});
      return foldStepUsage([await gatherer.finish()], Math.floor(Date.now() / 1000));
    },
  };
}
