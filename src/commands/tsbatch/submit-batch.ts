// tsbatch's conversation with the controller: submit (starting a tsctld on demand), print
// sbatch's answer, and with --wait stay until the job (every task of an array) has ended.
import { formatSlurmDate } from '../../core/time-string.js';
import { UserError } from '../../core/errors.js';
import { createLogger, levelFromVerbosity } from '../../core/log.js';
import { loadCluster } from '../../config/load.js';
import { resolveStateDir } from '../../config/state-dir.js';
import { ConnectionLost, connectController } from '../../client/ctld-client.js';
import { stopController } from '../../client/stop-controller.js';
import { ignoredKnobs } from '../../config/controller-knobs.js';
import type { ParsedTsbatch } from './request.js';
import type { JobView } from '../../protocol/job-view.js';


interface SubmitAnswer {
  jobId: number;
  willRun?: { start: number; nodes: string; cpus: number; partition: string };
}

export async function submitBatch(parsed: ParsedTsbatch, ctx: { bin: string }): Promise<number> {
  const log = createLogger(ctx.bin, levelFromVerbosity(parsed.verbose, parsed.quiet));
  const config = await loadCluster({ file: parsed.cluster });
  const stateDir = resolveStateDir(config);
  const connect = (autostart = true) =>
    connectController({
      config,
      stateDir,
      clusterFile: config.source.startsWith('/') ? config.source : undefined,
      autostart,
    });
  // --test-only asks a running controller; with none, one is started for the answer and stopped
  // after it, so that nothing is left running (as sbatch --test-only leaves nothing behind).
  let startedHere = false;
  let client = await connect(false).catch(() => {
    startedHere = true;
    return connect();
  });
  // A controller that was running already keeps its own runtime settings for this job (said
  // with -v only: the file is read only then).
  if (!startedHere && parsed.verbose > 0 && !parsed.quiet) for (const message of ignoredKnobs(stateDir)) log.verbose(message);
  // --test-only does not leave the controller it started.
  if (!parsed.testOnly) startedHere = false;
  try {
    let answer: SubmitAnswer;
    try {
      answer = await client.call<SubmitAnswer>('submit', { desc: parsed.desc, testOnly: parsed.testOnly });
    } catch (error) {
      if (error instanceof UserError) throw new UserError(`Batch job submission failed: ${error.message}`, { code: error.code });
      throw error;
    }
    if (answer.willRun) {
      const w = answer.willRun;
      log.info(`Job ${answer.jobId} to start at ${formatSlurmDate(w.start)} using ${w.cpus} processors on nodes ${w.nodes} in partition ${w.partition}`);
      return 0;
    }
    // -Q silences even the --parsable id (observed on Slurm 22.05).
    if (!parsed.quiet) process.stdout.write(parsed.parsable ? `${answer.jobId}\n` : `Submitted batch job ${answer.jobId}\n`);
    if (!parsed.wait) return 0;
    // sbatch --wait polls, so it outlives a controller restart; here the wait is one request,
    // sent again to the next controller (started on demand) when the connection drops.
    for (;;) {
      try {
        return waitExitCode(await client.call<JobView[]>('wait', { ids: [String(answer.jobId)] }));
      } catch (error) {
        if (!(error instanceof ConnectionLost)) throw error;
        client.close();
        await new Promise((resolve) => setTimeout(resolve, 200));
        client = await connect();
      }
    }
  } finally {
    client.close();
    if (startedHere) await stopController(stateDir);
  }
}

/**
 * sbatch --wait's exit status (its _job_wait): per job, the script's exit code, or 1 when it
 * was killed by a signal (cancelled, timed out); for an array the highest over its tasks
 * (observed on Slurm 22.05: tasks exiting 0, 2, 5 give 5; `exit 300` gives 44).
 */
export function waitExitCode(views: readonly JobView[]): number {
  let code = 0;
  for (const view of views) {
    const status = view.exitStatus;
    code = Math.max(code, (status & 0x7f) !== 0 ? 1 : (status >> 8) & 0xff);
  }
  return code;
}
