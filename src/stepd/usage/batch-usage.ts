// What a batch script used (the `batch` step of its job): gathered as a step's task is, the
// script being its one task. The batch step starts it with the script's pid and the rusage the
// task exec helper reports, and calls `finish` where the script has ended (before its
// container goes); the figures go into the batch result (`usage`). Live samples are written to
// `usage.json` beside the result, where the controller reads them for tssstat.
//
// Sampling starts FIRST_SAMPLE_MS after the script did, not at its start: a sample walks all of
// /proc (a few hundred files) to find the script's descendants, and a short script (most of an
// array's) is over before anything could be shown; its figures come from the helper's rusage.
// The live file is a figure of the moment, replaced whole (a reader never sees half of it) but
// not fsynced: a crash loses nothing the final result does not carry.
import { renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { foldStepUsage } from '../../core/step-usage-fold.js';
import type { StepUsage } from '../../protocol/step-usage.js';
import { NodeUsageGatherer } from './node-gatherer.js';
import type { Rusage } from './task-rusage.js';

export interface BatchUsage {
  /** The script has ended: its figures, with the cgroup's when the batch step had one. */
  finish(cgroupDir: string | undefined): Promise<StepUsage | undefined>;
}

/** The name of the live sample file in a job's directory. */
export const LIVE_USAGE_FILE = 'usage.json';

/** How long a batch script runs before its first live sample. */
const FIRST_SAMPLE_MS = 1000;

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
      writeFileSync(`${liveFile}.new`, JSON.stringify(step), { mode: 0o644 });
      renameSync(`${liveFile}.new`, liveFile);
    } catch {
      // a full or gone directory: the next sample tries again
    }
  });
  gatherer.add(0, opts.pid, opts.rusage, opts.viaHelper);
  // A delayed first sample walks /proc for the script's descendants, as every later one does:
  // a script a second in may have started children (its first `sleep`, a memory user).
  gatherer.start(FIRST_SAMPLE_MS);
  return {
    finish: async (cgroupDir) => {
      await gatherer.readCgroup(cgroupDir).catch(() => {});
      return foldStepUsage([await gatherer.finish()], Math.floor(Date.now() / 1000));
    },
  };
}
