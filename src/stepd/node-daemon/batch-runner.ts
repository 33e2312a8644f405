// The batch steps of a step host (slurmd's REQUEST_BATCH_JOB_LAUNCH with slurmstepd's work done
// in-process): the controller sends a job's script and spec; the host writes the script into a
// job directory under its spool and runs it as its own child (batch-step.ts). The script's
// result is reported with `batch-complete`, retried until the controller has it; one the
// controller cannot take at once (none listens) is first written to that directory
// atomically, and is delivered to the next controller, or the next host. Kill and signal orders go to the running step. A host started
// after another was killed finds that one's directories: results it had not delivered are
// delivered, steps it was running (killed with it by its guard) are reported lost.
import { readdirSync, readFileSync, writeFileSync, chmodSync, chownSync } from 'node:fs';
import path from 'node:path';
import type { StepdBody } from '../../protocol/stepd-messages.js';
import type { Logger } from '../../core/log.js';
import { writeFileAtomic } from '../../os/atomic-write.js';
import { LIVE_USAGE_FILE } from '../usage/batch-usage.js';
import { jobDirFiles, makeJobDir, readStoredResult, removeJobDir, type BatchResult, type KillRequest, type LaunchRecord } from '../batch-spec.js';
import { startBatchStep, type HostGuard, type RunningBatchStep } from '../batch-step.js';
import type { ContainerPlugins } from '../step-container.js';
import type { PluginSettings } from '../../plugin-host/create.js';
import { runAsFor, type RunAs } from '../run-as.js';
import { UserError } from '../../core/errors.js';
import { slurm_strerror } from '../../core/errno.js';

const RETRY_MS = 1000;
/** How long a launch waits for file descriptors to be freed: 20 tries, 100 ms apart. */
const OUT_OF_FDS_TRIES = 20;
const OUT_OF_FDS_WAIT_MS = 100;

/** The controller's `batch-launch`: the spec, the script, and which launch of the job this is (its requeue count). */
export type BatchLaunch = StepdBody<'batch-launch'>;

/** What the host tells the controller when a batch step ended (`result` null: lost). */
export interface BatchReport {
  node: string;
  jobId: number;
  gen: number;
  result: BatchResult | null;
}

export interface BatchRunnerOptions {
  /** Where the job directories go (`jobs/<id>` under it). */
  spool: string;
  /** The job's container plugins for the cluster settings the controller sent. */
  plugins: (settings: PluginSettings) => Promise<ContainerPlugins>;
  /** The host's guard: what it is told about dies with the host. */
  guard: HostGuard;
  /** Sends a result to the controller; rejects when it cannot be reached. */
  report: (body: BatchReport) => Promise<unknown>;
  /** Run scripts as the job's user (a root node daemon), with the groups this node gives them. */
  switchUser: boolean;
  log: Logger;
}

export class BatchRunner {
  private readonly steps = new Map<number, { launch: LaunchRecord; step: RunningBatchStep }>();
  /** Jobs whose result the controller has not taken yet (`kept`: it is on disk). */
  private readonly undelivered = new Map<number, { launch: LaunchRecord; result: BatchResult | null; kept: boolean }>();
  private readonly timers = new Set<NodeJS.Timeout>();
  /** Job directories being removed (a delivered result): a new launch of the job waits for it. */
  private readonly removing = new Map<number, Promise<void>>();
  private stopped = false;

  constructor(private readonly options: BatchRunnerOptions) {}

  /** Starts the batch step; resolves once its launch is on disk. */
  async launch(request: BatchLaunch): Promise<void> {
    const { spool, switchUser } = this.options;
    const runAs = switchUser ? runAsFor(request.spec.user) : undefined;
    const jobId = request.spec.jobId;
    // A launch of a job still here (a requeue the old launch has not seen end) ends the old one.
    this.steps.get(jobId)?.step.kill({ cause: 'REQUEUE', at: Math.floor(Date.now() / 1000) });
    await this.removing.get(jobId);
    const files = jobDirFiles(spool, jobId);
    const launch: LaunchRecord = { node: request.spec.nodeName, gen: request.gen };
    await this.writeJobFiles(jobId, request.script, launch, runAs);
    const spec = { ...request.spec, script: files.script, ...(runAs && { runAs }) };
    const step = startBatchStep(spec, () => this.options.plugins(spec.plugins), this.options.guard);
    this.steps.set(jobId, { launch, step });
    this.undelivered.delete(jobId);
    this.options.log.verbose(`job ${jobId}: batch step started on ${launch.node}`);
    void step.done.then(
      (result) => this.ended(jobId, step, launch, result),
      (error: Error) => this.ended(jobId, step, launch, { status: 1 << 8, cause: null, failure: `batch step failed: ${error.message}` }),
    );
  }

  /**
   * The job's directory, its script and its launch record. A host out of file descriptors
   * (EMFILE, ENFILE: its running steps hold them) waits a little for some to be freed; any
   * other failure, or one that lasts, refuses the launch with what went wrong, which the job's
   * end then says, rather than the "Slurm internal error" of a defect.
   */
  private async writeJobFiles(jobId: number, script: string, launch: LaunchRecord, runAs: RunAs | undefined): Promise<void> {
    const { spool } = this.options;
    const files = jobDirFiles(spool, jobId);
    for (let attempt = 1; ; attempt++) {
      try {
        makeJobDir(spool, jobId);
        writeFileSync(files.script, script, { mode: 0o700 });
        if (runAs) {
          // The script runs as the job's user, who must reach it: the script is theirs (0700), the
          // directories above it may be passed through but not listed, and what the host keeps
          // beside it stays root's (the user cannot forge a result).
          chmodSync(path.dirname(path.dirname(files.dir)), 0o711);
          chmodSync(path.dirname(files.dir), 0o711);
          chmodSync(files.dir, 0o711);
          chownSync(files.script, runAs.uid, runAs.gid);
        }
        writeFileSync(files.launch, JSON.stringify(launch), { mode: 0o600 });
        return;
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        const why = systemText(error as Error);
        if ((code === 'EMFILE' || code === 'ENFILE') && attempt < OUT_OF_FDS_TRIES) {
          if (attempt === 1) this.options.log.error(`job ${jobId}: cannot write its batch script now (${why}); trying again`);
          await new Promise((resolve) => setTimeout(resolve, OUT_OF_FDS_WAIT_MS));
          continue;
        }
        throw new UserError(`cannot write the batch script of job ${jobId} into ${files.dir}: ${why}`);
      }
    }
  }

  /** The batch steps running here, for the registration and the controller's re-attach. */
  running(): Array<{ jobId: number; gen: number }> {
    return [...this.steps].map(([jobId, { launch }]) => ({ jobId, gen: launch.gen }));
  }

  /** The ended ones whose result the controller has not taken yet. */
  finished(): Array<{ jobId: number; gen: number }> {
    return [...this.undelivered].map(([jobId, { launch }]) => ({ jobId, gen: launch.gen }));
  }

  /** Ends a batch step; `report`: tell the controller when none runs (it waits for an end). */
  kill(jobId: number, request: KillRequest, report = true): void {
    const running = this.steps.get(jobId);
    if (running) return running.step.kill(request);
    // Ended already: its result is on its way.
    if (this.undelivered.has(jobId) || !report) return;
    // Not here (already reported, or never launched): say so, so the job can end.
    const launch = this.launchOf(jobId);
    void this.deliver(jobId, { node: launch?.node ?? '', gen: launch?.gen ?? 0 }, null);
  }

  signal(jobId: number, signal: number, shellOnly = false): void {
    this.steps.get(jobId)?.step.signal(signal, shellOnly);
  }

  /** At start: job directories a previous host left (it was killed, or stopped). */
  recover(): void {
    let ids: string[];
    try {
      ids = readdirSync(path.join(this.options.spool, 'jobs'));
    } catch {
      return;
    }
    for (const id of ids) {
      const jobId = Number(id);
      if (!Number.isSafeInteger(jobId) || this.steps.has(jobId)) continue;
      const stored = readStoredResult(this.options.spool, jobId);
      const launch = stored ?? this.launchOf(jobId);
      if (!launch) continue;
      if (!stored) this.options.log.info(`job ${jobId}: its batch step ended with the previous step host; reporting it lost`);
      this.undelivered.set(jobId, { launch, result: stored?.result ?? null, kept: true });
      void this.deliver(jobId, launch, stored?.result ?? null);
    }
  }

  stop(): void {
    this.stopped = true;
    // What the controller has not taken yet stays for the next host.
    for (const [jobId, pending] of this.undelivered) if (!pending.kept && pending.result) this.keep(jobId, pending.launch, pending.result);
    for (const timer of this.timers) clearTimeout(timer);
    for (const { step } of this.steps.values()) step.kill({ cause: 'NODE_FAIL', at: Math.floor(Date.now() / 1000) });
  }

  /** How many steps still run (a stopping host waits for them to end). */
  async drain(): Promise<void> {
    await Promise.all([...this.steps.values()].map(({ step }) => step.done.catch(() => {})));
  }

  // The place a batch script's end reaches the host: reported at once; kept on disk when the
  // controller cannot take it now, and reported again until it does.
  private ended(jobId: number, step: RunningBatchStep, launch: LaunchRecord, result: BatchResult): void {
    if (this.steps.get(jobId)?.step !== step) return; // a newer launch of the job owns its directory
    this.steps.delete(jobId);
    // Ended by the host's own stop: the next host reports it lost (from its launch record).
    if (this.stopped) return;
    this.undelivered.set(jobId, { launch, result, kept: false });
    void this.deliver(jobId, launch, result);
  }

  /**
   * Reports until the controller has it, then forgets the job's directory. The first failure
   * writes the result into the directory (atomically), for the next controller or host: the
   * common case, a controller that answers, costs no write and no fsync.
   */
  private async deliver(jobId: number, launch: LaunchRecord, result: BatchResult | null): Promise<void> {
    while (!this.stopped) {
      try {
        await this.options.report({ node: launch.node, jobId, gen: launch.gen, result });
        // A newer launch of the job may have taken its directory meanwhile.
        if (this.steps.has(jobId)) return;
        this.undelivered.delete(jobId);
        const removed = removeJobDir(this.options.spool, jobId, [LIVE_USAGE_FILE])
          .catch((error: Error) => this.options.log.error(`job ${jobId}: cannot remove its directory: ${error.message}`))
          .finally(() => {
          if (this.removing.get(jobId) === removed) this.removing.delete(jobId);
        });
        this.removing.set(jobId, removed);
        return;
      } catch {
        const pending = this.undelivered.get(jobId);
        if (pending && !pending.kept && pending.result) pending.kept = this.keep(jobId, launch, pending.result);
        await new Promise<void>((resolve) => {
          const timer = setTimeout(() => (this.timers.delete(timer), resolve()), RETRY_MS);
          this.timers.add(timer);
        });
      }
    }
  }

  /** Writes the result beside the launch record; false when it cannot (a full disk: tried again). */
  private keep(jobId: number, launch: LaunchRecord, result: BatchResult): boolean {
    if (this.steps.has(jobId)) return true;
    try {
      writeFileAtomic(jobDirFiles(this.options.spool, jobId).result, JSON.stringify({ ...launch, result }), { mode: 0o600 });
      return true;
    } catch (error) {
      this.options.log.error(`job ${jobId}: cannot keep the batch result: ${(error as Error).message}`);
      return false;
    }
  }

  private launchOf(jobId: number): LaunchRecord | undefined {
    try {
      return JSON.parse(readFileSync(jobDirFiles(this.options.spool, jobId).launch, 'utf8')) as LaunchRecord;
    } catch {
      return undefined;
    }
  }
}

// The C library's text for a system error (what Slurm prints for it), else the message.
function systemText(error: Error): string {
  const errno = (error as NodeJS.ErrnoException).errno;
  return typeof errno === 'number' ? slurm_strerror(Math.abs(errno)) : error.message;
}
