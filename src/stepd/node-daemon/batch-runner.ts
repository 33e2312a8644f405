// Batch steps on a node daemon (slurmd's REQUEST_BATCH_JOB_LAUNCH): the controller sends the
// job's script and spec; the daemon starts the same detached batch step daemon the controller
// starts for emulated nodes, in a job directory under its spool, and reports the result with
// `batch-complete`, retrying until the controller has it. Kill and signal requests go to the
// batch step as the controller's own do. A daemon restarted while batch steps ran picks them
// up again from the spool: those still running are watched, those that ended are reported.
import { readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import type { StepdBody } from '../../protocol/stepd-messages.js';
import type { Logger } from '../../core/log.js';
import { jobDirFiles, type BatchResult, type BatchSpec, type KillRequest } from '../batch-spec.js';
import { isBatchStepd, killBatchStepd, readBatchResult, signalBatchStepd, spawnBatchStepd } from '../batch-spawn.js';
import { readFileSync, writeFileSync } from 'node:fs';
import { runAsFor } from '../run-as.js';

const POLL_MS = 1000;
const RETRY_MS = 1000;

/** The controller's `batch-launch`: the spec, the script, and which launch of the job this is (its requeue count). */
export type BatchLaunch = StepdBody<'batch-launch'>;

export class BatchRunner {
  private readonly pids = new Map<number, number>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private stopped = false;

  constructor(
    private readonly spool: string,
    private readonly nodeName: string,
    private readonly report: (body: { node: string; jobId: number; gen: number; result: BatchResult | null }) => Promise<unknown>,
    private readonly log: Logger,
  ) {}

  launch(request: BatchLaunch): void {
    // A root daemon runs the script as the job's user, with the groups this node gives them.
    const runAs = runAsFor(request.spec.user);
    const spec = { ...request.spec, ...(runAs && { runAs }) };
    const files = jobDirFiles(this.spool, spec.jobId);
    rmSync(files.dir, { recursive: true, force: true });
    const pid = spawnBatchStepd(files, spec, request.script, () => this.ended(spec.jobId, request.gen));
    writeFileSync(path.join(files.dir, 'launch.json'), JSON.stringify({ pid, gen: request.gen }));
    this.pids.set(spec.jobId, pid);
    this.log.verbose(`job ${spec.jobId}: batch step started (pid ${pid})`);
  }

  /** The batch steps running here, for the registration. */
  running(): Array<{ jobId: number; gen: number }> {
    return [...this.pids.keys()].map((jobId) => ({ jobId, gen: this.genOf(jobId) ?? 0 }));
  }

  /** Ends a batch step; `report`: tell the controller when none runs (it waits for an end). */
  kill(jobId: number, request: KillRequest, report = true): void {
    const pid = this.pids.get(jobId);
    if (!killBatchStepd(jobDirFiles(this.spool, jobId), pid, request) && pid === undefined && report) {
      // Not running here (already reported or never launched): say so, so the job can end.
      void this.deliver(jobId, this.genOf(jobId) ?? 0, null);
    }
  }

  signal(jobId: number, signal: number, shellOnly = false): void {
    signalBatchStepd(jobDirFiles(this.spool, jobId), this.pids.get(jobId), signal, shellOnly);
  }

  /** After a restart: batch steps left in the spool by the previous daemon. */
  recover(): void {
    let ids: string[];
    try {
      ids = readdirSync(path.join(this.spool, 'jobs'));
    } catch {
      return;
    }
    for (const id of ids) {
      const jobId = Number(id);
      const launch = this.launchOf(jobId);
      if (!Number.isSafeInteger(jobId) || !launch) continue;
      if (isBatchStepd(launch.pid)) {
        this.log.info(`job ${jobId}: batch step still running (pid ${launch.pid}), recovered`);
        this.pids.set(jobId, launch.pid);
        this.watch(jobId, launch.pid, launch.gen);
      } else {
        this.ended(jobId, launch.gen);
      }
    }
  }

  stop(): void {
    this.stopped = true;
    for (const timer of this.timers) clearTimeout(timer);
  }

  private watch(jobId: number, pid: number, gen: number): void {
    const timer = setInterval(() => {
      if (isBatchStepd(pid)) return;
      clearInterval(timer);
      this.timers.delete(timer);
      this.ended(jobId, gen);
    }, POLL_MS);
    this.timers.add(timer);
  }

  private ended(jobId: number, gen: number): void {
    this.pids.delete(jobId);
    void this.deliver(jobId, gen, readBatchResult(jobDirFiles(this.spool, jobId)) ?? null);
  }

  /** Reports until the controller has it, then forgets the job's directory. */
  private async deliver(jobId: number, gen: number, result: BatchResult | null): Promise<void> {
    while (!this.stopped) {
      try {
        await this.report({ node: this.nodeName, jobId, gen, result });
        rmSync(jobDirFiles(this.spool, jobId).dir, { recursive: true, force: true });
        return;
      } catch {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(() => (this.timers.delete(timer), resolve()), RETRY_MS);
          this.timers.add(timer);
        });
      }
    }
  }

  private launchOf(jobId: number): { pid: number; gen: number } | undefined {
    try {
      return JSON.parse(readFileSync(path.join(jobDirFiles(this.spool, jobId).dir, 'launch.json'), 'utf8')) as { pid: number; gen: number };
    } catch {
      return undefined;
    }
  }

  private genOf(jobId: number): number | undefined {
    return this.launchOf(jobId)?.gen;
  }
}
