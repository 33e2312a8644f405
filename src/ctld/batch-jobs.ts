// Batch jobs from allocation to the end (slurmctld's launch_job and job_complete): the job's
// script and spec go to the step host of its first node — the node's tsstepd, or the embedded
// step host that serves every emulated node (local-step-host.ts) — which runs it, and reports
// its end ('batch-complete'); the controller asks it to end the job on cancel or time limit.
// A step host that went away without a result (killed, or its node lost) is a node failure:
// the job is requeued, or ends NODE_FAIL with --no-requeue, as Slurm does.
import { constants } from 'node:os';
import { INFINITE } from '../core/slurm-constants.js';
import { UserError } from '../core/errors.js';
import { ControllerError } from '../client/ctld-client.js';
import { isFinished } from '../core/job-state.js';
import { compressHostlist } from '../core/hostlist.js';
import { batchOutputPath } from '../core/io-pattern.js';
import { JOB_COMPLETING, JOB_FAILED, JOB_PENDING, JOB_RUNNING, JOB_STATE_BASE, JOB_SUSPENDED } from '../plugin-api/records.js';
import { readStoredResult, type BatchResult, type BatchSpec, type KillRequest } from '../stepd/batch-spec.js';
import type { LocalStepHost } from './local-step-host.js';
import { batchEnv } from './batch-env.js';
import { arrayTaskSpan, type ArrayTaskSpan } from '../core/slurm-env.js';
import { workingCluster } from '../config/working-cluster.js';
import type { Controller } from './controller.js';
import type { CtldJob, KillCause } from './job.js';
import type { Launcher } from './schedule.js';
import type { NodeDaemons } from './node-daemons.js';
import type { InteractiveJobs } from './interactive-jobs.js';
import { cancelPendingJob, endReason, endState, stateFor } from './job-end.js';
import { recordStepUsage } from './step-usage.js';
import { confTaskScripts } from '../config/task-scripts.js';
import { acctGatherSeconds } from '../config/acct-gather.js';

const { SIGKILL } = constants.signals;

/** How many times in a row an order the step host could not take is logged. */
const KILL_RETRY_LOGGED = 1;

export class BatchJobs implements Launcher {
  /** Launches on the local step host not yet journaled: their end waits for them. */
  private readonly launching = new Map<number, Promise<void>>();
  /**
   * Kill orders that did not reach the batch step's host (it could not be reached, or it
   * failed to answer) while that host still runs: sent again every tick until one is taken or
   * the job ends otherwise (slurmctld's agent retries its kill RPCs the same way).
   */
  private readonly unsentKills = new Map<number, { job: CtldJob; request: KillRequest; tries: number; sending?: boolean }>();
  /** Signals (tscancel -s, --signal) that did not reach the batch step's host yet, in order. */
  private readonly unsentSignals = new Map<number, { job: CtldJob; orders: Array<{ signal: number; shellOnly: boolean }>; sending?: boolean }>();

  constructor(
    private readonly ctl: Controller,
    /** tsrun's jobs (no batch script): started, ended and signalled through their tsrun. */
    private readonly interactive: InteractiveJobs,
    /** The node daemons that run the batch steps of nodes served by a tsstepd. */
    private readonly daemons: NodeDaemons,
    /** The step host that runs the batch steps of emulated nodes. */
    private readonly local: LocalStepHost,
    /** Called when resources were freed or a job ended: something else may start. */
    private readonly onEnd: () => void,
  ) {}

  async launch(job: CtldJob): Promise<void> {
    if (this.interactive.owns(job)) return this.interactive.launch(job);
    const { ctl } = this;
    const record = job.record;
    const now = Math.floor(Date.now() / 1000);
    record.job_state = JOB_RUNNING;
    record.start_time = now;
    record.end_time = record.time_limit === INFINITE ? INFINITE : now + record.time_limit * 60;
    job.reason = 'None';
    const spec = this.batchSpec(job);
    const remote = this.daemons.served(ctl.table.indexOf(spec.nodeName)!) ? this.daemons : undefined;
    if (remote) {
      // The node's tsstepd runs the batch step and reports its end ('batch-complete').
      job.batchNode = spec.nodeName;
      job.stepdPid = undefined;
      await ctl.sched.newalloc(record);
      await ctl.journalProgress(job);
      const sent = await remote.send(spec.nodeName, 'batch-launch', { spec, script: job.desc.script, gen: job.requeueCount }).then(
        () => true,
        (error: Error) => (ctl.log.error(`job ${record.job_id}: batch launch on ${spec.nodeName} failed: ${error.message}`), false),
      );
      // Slurm requeues a job whose launch failed, and the node is looked at.
      if (!sent) {
        void remote.reportUnreachable(spec.nodeName);
        if (this.ctl.jobs.get(record.job_id) === job && job.batchNode === spec.nodeName) await this.ended(job, undefined);
      }
      return;
    }
    // Not waited for: the scheduling pass goes on to the next job while this one's launch
    // travels to the step host and its journal record joins the others' in one disk flush
    // (announced now, so that the flush waits for the pass's other starts). What must come
    // after the launch (its end, a kill, a signal) waits for it here.
    const recorded = ctl.store.expectGrouped();
    const launched = this.launchLocal(job, spec, recorded)
      .catch((error: Error) => ctl.log.error(`job ${record.job_id}: launch: ${error.message}`))
      .finally(() => {
        recorded();
        if (this.launching.get(record.job_id) === launched) this.launching.delete(record.job_id);
      });
    this.launching.set(record.job_id, launched);
  }

  /** Launches still on their way (a stopping controller lets them finish). */
  async launched(): Promise<void> {
    while (this.launching.size > 0) await Promise.all(this.launching.values());
  }

  /** On the embedded step host (started when none serves); a failure to reach it fails the job's launch. */
  private async launchLocal(job: CtldJob, spec: BatchSpec, recorded: () => void): Promise<void> {
    const { ctl } = this;
    const record = job.record;
    job.batchNode = spec.nodeName;
    job.stepdPid = undefined;
    let failure: string | undefined;
    try {
      job.stepdPid = (await this.local.send('batch-launch', { spec, script: job.desc.script, gen: job.requeueCount })).pid;
    } catch (error) {
      // Logged once, by finish() below.
      failure = `batch step could not start: ${(error as Error).message}`;
    }
    await ctl.sched.newalloc(record);
    const durable = ctl.journalProgress(job, true);
    recorded();
    await durable;
    if (failure !== undefined) await this.finish(job, { status: 1 << 8, cause: null, failure });
  }

  /** A tsstepd reports the end of a batch step it ran (`gen`: which launch of a requeued job). */
  async remoteEnded(node: string, jobId: number, gen: number, result: BatchResult | null): Promise<void> {
    // A quick script may end before its launch is journaled: its end comes after.
    await this.launching.get(jobId);
    const job = this.ctl.jobs.get(jobId);
    if (!job || job.batchNode !== node || job.requeueCount !== gen) return;
    // Ended already (a COMPLETING job, asked to end, is still waiting for this report).
    if (isFinished(job.record.job_state) && (job.record.job_state & JOB_COMPLETING) === 0) return;
    if ((job.record.job_state & JOB_STATE_BASE) === JOB_PENDING) return;
    await this.ended(job, result ?? undefined);
  }

  private batchSpec(job: CtldJob): BatchSpec {
    const { ctl } = this;
    const { config, stateDir, killWaitSeconds } = ctl.options;
    const record = job.record;
    const names = ctl.table.namesFromBitmap(record.node_bitmap!);
    const arrayTasks = job.arrayJobId !== 0 ? arrayTasksOf(ctl.arrays.get(job.arrayJobId) ?? []) : undefined;
    const env = batchEnv(job, {
      clusterName: config.clusterName,
      clusterFile: config.source.startsWith('/') ? config.source : undefined,
      confFile: config.source.startsWith('/') ? config.source : undefined,
      workingCluster: workingCluster(config),
      stateDir,
      nodeNames: names,
      nodelist: compressHostlist(names),
      cpusPerNode: record.job_resrcs?.cpus ?? names.map(() => 1),
      userName: job.desc.userName,
      arrayTasks,
    });
    const patternFacts = {
      jobId: record.job_id,
      arrayJobId: job.arrayJobId !== 0 ? job.arrayJobId : undefined,
      arrayTaskId: job.arrayTaskId,
      jobName: record.name,
      nodeName: names[0]!,
      user: job.desc.userName,
      workDir: job.desc.workDir,
    };
    const stdout = batchOutputPath(job.desc.output, patternFacts);
    const spec: BatchSpec = {
      jobId: record.job_id,
      nodeName: names[0]!,
      plugins: { clusterName: config.clusterName, plugins: config.plugins, options: config.options },
      script: 'script',
      argv: job.desc.argv,
      workDir: job.desc.workDir,
      env,
      stdout,
      stderr: job.desc.error === undefined ? stdout : batchOutputPath(job.desc.error, patternFacts),
      stdin: job.desc.input === undefined ? '/dev/null' : batchOutputPath(job.desc.input, patternFacts),
      openMode: job.desc.openMode ?? (job.requeueCount > 0 ? 'append' : 'truncate'),
      killWaitSeconds,
      acctGatherFrequency: acctGatherSeconds(config),
      memLimitMb: job.desc.memPerNode ?? (job.desc.memPerCpu ?? 0) * (record.job_resrcs?.cpus[0] ?? 1),
      user: { uid: job.desc.userId, gid: job.desc.groupId },
      ...(job.desc.umask !== undefined && { umask: job.desc.umask }),
      ...(job.desc.rlimits !== undefined && { rlimits: job.desc.rlimits }),
      ...confTaskScripts(config),
    };
    return spec;
  }

  /** Cancels a job: a pending one ends at once, a running one is asked to end. */
  async cancel(job: CtldJob, cause: KillCause = 'CANCELLED'): Promise<void> {
    const base = job.record.job_state & JOB_STATE_BASE;
    if (base === JOB_PENDING) return this.cancelPending(job, 'None');
    if (isFinished(job.record.job_state) || job.killCause !== undefined) return;
    if (this.interactive.owns(job)) return this.interactive.cancel(job, cause);
    // A launch under way is finished first: the kill then goes where it went.
    await this.launching.get(job.record.job_id);
    if (isFinished(job.record.job_state) || job.killCause !== undefined) return;
    const now = Math.floor(Date.now() / 1000);
    job.killCause = cause;
    job.record.job_state = stateFor(cause) | JOB_COMPLETING;
    if (cause === 'TIMEOUT') job.reason = 'TimeLimit';
    // The job is killed as a whole: select_g_job_signal(SIGKILL), for plugins that launch
    // outside tslurm, before its step daemon is asked to end it.
    await this.selectSignal(job, SIGKILL);
    const request: KillRequest = { cause, at: now };
    await this.ctl.journalProgress(job);
    // The steps its script started end as the batch step does (slurmctld kills every step): their
    // tsruns are told first, so that they end their tasks (with srun's lines) before the batch
    // step's SIGTERM reaches them; a tsrun that does not answer is not waited for long.
    await this.ctl.jobEnding(job, Math.max(2, this.ctl.options.killWaitSeconds) * 1000);
    await this.sendKill(job, request);
  }

  /** The kill order to where the batch step runs; one that does not get there is sent again (tick). */
  private async sendKill(job: CtldJob, request: KillRequest): Promise<void> {
    const taken = job.stepdPid !== undefined ? await this.killLocal(job, request) : job.batchNode !== undefined ? await this.killRemote(job, job.batchNode, request) : true;
    const id = job.record.job_id;
    if (taken) return void this.unsentKills.delete(id);
    const tries = (this.unsentKills.get(id)?.tries ?? 0) + 1;
    if (tries <= KILL_RETRY_LOGGED) this.ctl.log.error(`job ${id}: the kill order did not reach its batch step's host; sending it again until it does`);
    const unsent = this.unsentKills.get(id);
    if (unsent) unsent.tries = tries;
    else this.unsentKills.set(id, { job, request, tries });
  }

  /**
   * The embedded step host is asked to end the batch step; one that has gone ended it already.
   * False when a host that still runs could not be told (sent again later).
   */
  private async killLocal(job: CtldJob, request: KillRequest): Promise<boolean> {
    const pid = job.stepdPid;
    const reached = await this.local.sendIfRunning('batch-kill', { jobId: job.record.job_id, request }).then(
      (sent) => sent.pid === pid,
      () => false,
    );
    if (reached) return true;
    await this.hostLost(job, pid);
    return job.stepdPid !== pid || pid === undefined || !this.local.alive(pid);
  }

  /**
   * The node's daemon is asked to end the batch step; one whose node is not up ended it with
   * it. False when an up node's daemon did not take the order (sent again later, until it
   * does or the node is found down).
   */
  private async killRemote(job: CtldJob, node: string, request: KillRequest): Promise<boolean> {
    const daemons = this.daemons;
    if (!daemons.isUp(node)) {
      if (job.batchNode === node) await this.ended(job, undefined);
      return true;
    }
    return daemons.send(node, 'batch-kill', { jobId: job.record.job_id, request }).then(
      () => true,
      () => job.batchNode !== node,
    );
  }

  /**
   * Kill orders not taken yet, sent again; dropped once their job has ended some other way. Not
   * waited for: a host that takes long to answer holds up its own order, not the tick.
   */
  private resendKills(): void {
    for (const [id, unsent] of this.unsentKills) {
      const { job, request } = unsent;
      const current = this.ctl.jobs.get(id) === job && job.killCause !== undefined && (job.record.job_state & JOB_COMPLETING) !== 0;
      if (!current || (job.stepdPid === undefined && job.batchNode === undefined)) {
        this.unsentKills.delete(id);
        continue;
      }
      if (unsent.sending) continue;
      unsent.sending = true;
      void this.sendKill(job, request)
        .catch((error: Error) => this.ctl.log.error(`job ${id}: kill: ${error.message}`))
        .finally(() => (unsent.sending = false));
    }
  }

  /** Whether the job can run again after it ends (a batch job that allows requeue). */
  requeueable(job: CtldJob): boolean {
    return !this.interactive.owns(job) && job.desc.requeue !== false;
  }

  /**
   * Sends a signal to a running job: a job tsrun holds gets it in its step's tasks; a batch
   * job in its batch step, `batch` saying where: everything the script started (`all`), the
   * batch shell alone (`shell`, scancel -b), or nothing (`none`: the caller signals the steps).
   */
  async signal(job: CtldJob, signal: number, throughSelect = true, batch: 'all' | 'shell' | 'none' = 'all'): Promise<void> {
    if ((job.record.job_state & JOB_STATE_BASE) === JOB_PENDING) throw UserError.fromErrno('ESLURM_JOB_PENDING');
    if (this.interactive.owns(job)) return this.interactive.signal(job, signal);
    if (throughSelect) await this.selectSignal(job, signal);
    if (batch === 'none') return;
    await this.launching.get(job.record.job_id);
    const order = { signal, shellOnly: batch === 'shell' };
    const unsent = this.unsentSignals.get(job.record.job_id);
    // Behind an order still waiting, this one waits too: signals arrive in the order sent.
    if (unsent && unsent.job === job) return void unsent.orders.push(order);
    if (await this.sendSignal(job, order)) return;
    this.ctl.log.error(`job ${job.record.job_id}: signal ${signal} did not reach its batch step's host; sending it again until it does`);
    this.unsentSignals.set(job.record.job_id, { job, orders: [order] });
  }

  /**
   * A signal to where the batch step runs. True when it was taken, or has nowhere to go any
   * more (the host or node that ran the step is gone: the job is lost with it); false when a
   * host that still runs could not be reached (sent again every tick, as slurmctld's agent
   * retries a signal to a node until it answers or is set DOWN).
   */
  private async sendSignal(job: CtldJob, order: { signal: number; shellOnly: boolean }): Promise<boolean> {
    const body = { jobId: job.record.job_id, ...order };
    // A refusal is an answer: the host has the order and said no.
    const answered = (error: unknown) => error instanceof ControllerError;
    const pid = job.stepdPid;
    if (pid !== undefined) {
      return this.local.sendIfRunning('batch-signal', body).then(
        (sent) => sent.pid === pid || !this.local.alive(pid),
        (error: unknown) => answered(error) || !this.local.alive(pid),
      );
    }
    const node = job.batchNode;
    if (node !== undefined) {
      if (!this.daemons.isUp(node)) return true;
      return this.daemons.send(node, 'batch-signal', body).then(
        () => true,
        (error: unknown) => answered(error) || job.batchNode !== node,
      );
    }
    return true;
  }

  /** Signals not taken yet, sent again in order; dropped once their job no longer runs. */
  private resendSignals(): void {
    for (const [id, unsent] of this.unsentSignals) {
      const { job } = unsent;
      const running = this.ctl.jobs.get(id) === job && job.killCause === undefined && !isFinished(job.record.job_state);
      if (!running) {
        this.unsentSignals.delete(id);
        continue;
      }
      if (unsent.sending) continue;
      unsent.sending = true;
      void (async () => {
        while (unsent.orders.length > 0 && (await this.sendSignal(job, unsent.orders[0]!))) unsent.orders.shift();
        if (unsent.orders.length === 0 && this.unsentSignals.get(id) === unsent) this.unsentSignals.delete(id);
      })()
        .catch((error: Error) => this.ctl.log.error(`job ${id}: signal: ${error.message}`))
        .finally(() => (unsent.sending = false));
    }
  }

  /** A job tsrun holds (no batch script): its one step is all there is to signal. */
  holdsNoScript(job: CtldJob): boolean {
    return this.interactive.owns(job);
  }

  // select_p_job_signal; a failure is logged, and the signal still goes to the batch step.
  private async selectSignal(job: CtldJob, signal: number): Promise<void> {
    const rc = await this.ctl.select.jobSignal(job.record, signal);
    if (rc !== 0) this.ctl.log.error(`job ${job.record.job_id}: select_p_job_signal(${signal}) failed (rc ${rc})`);
  }

  async cancelPending(job: CtldJob, reason: string): Promise<void> {
    await cancelPendingJob(this.ctl, job, reason);
    this.onEnd();
  }

  /**
   * After a restart: what became of the jobs that were running. A node daemon's batch step is
   * reported by that daemon (or its node is found lost); those of the embedded step host are
   * re-attached when it still runs them (or holds their result), else they were lost with it.
   * What the host runs that this controller does not expect there is ended.
   */
  async recover(): Promise<void> {
    const local = this.ctl.runningJobs().concat(this.completing()).filter((job) => !this.interactive.owns(job) && job.stepdPid !== undefined);
    const host = await this.local.attach();
    const held = (list: Array<{ jobId: number; gen: number }> | undefined, job: CtldJob) => list?.some((j) => j.jobId === job.record.job_id && j.gen === job.requeueCount) === true;
    for (const job of local) {
      if (host && host.pid === job.stepdPid && (held(host.running, job) || held(host.finished, job))) {
        this.ctl.log.info(`job ${job.record.job_id}: batch step still on the step host (pid ${host.pid}), recovered`);
        // Asked to end before the restart: the order may not have left the last controller.
        if (job.killCause !== undefined && held(host.running, job)) await this.sendKill(job, { cause: job.killCause, at: Math.floor(Date.now() / 1000) });
      } else {
        await this.hostLost(job, job.stepdPid);
        // A host that runs but did not answer: an order it was given may be lost, so again.
        if (job.killCause !== undefined && job.stepdPid !== undefined) await this.sendKill(job, { cause: job.killCause, at: Math.floor(Date.now() / 1000) });
      }
    }
    for (const stray of host?.running ?? []) {
      const job = this.ctl.jobs.get(stray.jobId);
      if (job && job.stepdPid === host!.pid && job.requeueCount === stray.gen) continue;
      this.ctl.log.info(`job ${stray.jobId}: its batch step is no longer expected on the step host; killing it`);
      const request: KillRequest = { cause: 'NODE_FAIL', at: Math.floor(Date.now() / 1000) };
      await this.local.sendIfRunning('batch-kill', { jobId: stray.jobId, request }).catch(() => {});
    }
    await this.interactive.recover();
  }

  /** Every second: time limits, orphaned step daemons, jobs old enough to forget. */
  async tick(): Promise<void> {
    const { ctl } = this;
    const now = Date.now() / 1000;
    for (const job of ctl.runningJobs()) {
      const r = job.record;
      // Time spent suspended does not count (slurmctld moves end_time on resume).
      if (job.killCause !== undefined || r.time_limit === INFINITE || r.start_time === 0) continue;
      if ((r.job_state & JOB_STATE_BASE) === JOB_SUSPENDED) continue;
      const end = r.start_time + (job.suspendedSeconds ?? 0) + r.time_limit * ctl.options.minuteSeconds;
      if (now >= end) await this.cancel(job, 'TIMEOUT');
      else await this.warnBeforeEnd(job, end, now);
    }
    // The embedded step host killed (or gone): its jobs are lost with it, as with a failed node.
    const alive = new Map<number, boolean>();
    for (const job of ctl.runningJobs().concat(this.completing())) {
      const pid = job.stepdPid;
      if (pid === undefined || this.interactive.owns(job)) continue;
      if (!alive.has(pid)) alive.set(pid, this.local.alive(pid));
      if (!alive.get(pid)) await this.hostLost(job, pid);
    }
    this.resendKills();
    this.resendSignals();
    await this.interactive.tick();
    await this.purgeOld(now);
  }

  /**
   * --signal=[B:]SIG@TIME: SIG once, TIME seconds (scaled as the minute is) before the time
   * limit. With B: only the batch shell gets it, as in Slurm; without, Slurm signals the
   * steps, tslurm the batch step and what it started (README: differences), or tsrun's tasks.
   */
  private async warnBeforeEnd(job: CtldJob, end: number, now: number): Promise<void> {
    const warning = job.desc.signal;
    if (warning === undefined || job.warningSent) return;
    if (now < end - (warning.seconds * this.ctl.options.minuteSeconds) / 60) return;
    job.warningSent = true;
    this.ctl.log.info(`job ${job.record.job_id}: --signal ${warning.signal} ${warning.seconds}s before its time limit`);
    await this.signal(job, warning.signal, true, warning.batchOnly ? 'shell' : 'all').catch((error: Error) => this.ctl.log.error(`job ${job.record.job_id}: --signal: ${error.message}`));
  }

  private completing(): CtldJob[] {
    return [...this.ctl.jobs.values()].filter((job) => (job.record.job_state & JOB_COMPLETING) !== 0);
  }

  /**
   * The embedded step host that ran the job is gone: the result it kept on disk, when it wrote
   * one before it went, is the job's end; without one the job was lost with the host.
   */
  private async hostLost(job: CtldJob, pid: number | undefined): Promise<void> {
    if (job.stepdPid !== pid || pid === undefined) return; // a later launch of a requeued job owns the job now
    if (this.local.alive(pid)) return;
    const stored = readStoredResult(this.local.spool, job.record.job_id);
    const result = stored && stored.gen === job.requeueCount ? stored.result : undefined;
    if (!result) this.ctl.log.error(`job ${job.record.job_id}: the step host (pid ${pid}) is gone`);
    await this.ended(job, result);
  }

  /** The batch step is over, with its result or without one (lost: requeue or NODE_FAIL). */
  private async ended(job: CtldJob, result: BatchResult | undefined): Promise<void> {
    if (job.killCause === 'REQUEUE') return this.requeue(job, 'scontrol requeue');
    if (job.killCause === 'PREEMPT_REQUEUE') return this.requeue(job, 'preemption');
    if (result === undefined && job.killCause === undefined && job.desc.requeue !== false) return this.requeue(job);
    await this.finish(job, result ?? { status: 0, cause: job.killCause ?? 'NODE_FAIL', failure: null });
  }

  private async finish(job: CtldJob, result: BatchResult): Promise<void> {
    const { ctl } = this;
    const record = job.record;
    const cause = job.killCause ?? result.cause;
    const state = cause ? stateFor(cause) : result.failure === null ? endState(result.status) : JOB_FAILED;
    record.job_state = state;
    record.end_time = Math.floor(Date.now() / 1000);
    job.exitStatus = result.status;
    job.reason = endReason(state, result.status);
    recordStepUsage(job, 'batch', result.usage);
    job.stepdPid = undefined;
    job.batchNode = undefined;
    if (result.failure) ctl.log.error(`job ${record.job_id}: ${result.failure}`);
    const nodes = record.node_bitmap ? ctl.table.namesFromBitmap(record.node_bitmap) : [];
    await ctl.select.release(record);
    await ctl.sched.freealloc(record);
    const durable = ctl.journalProgress(job);
    // The freed resources may go to the next job while this end is being flushed: that job's
    // launch record comes after this one in the journal, so it never reaches the disk without it.
    this.onEnd();
    await durable;
    ctl.notifyFinished(job);
    this.endOnDaemons(record.job_id, nodes);
  }

  /**
   * The job is over: every node daemon it ran on ends what is left of it there and deletes its
   * job container (slurmctld's REQUEST_TERMINATE_JOB). A node that cannot be reached is not
   * waited for; its daemon drops the container when it is next told, or at its restart.
   */
  private endOnDaemons(jobId: number, nodes: string[]): void {
    const daemons = this.daemons;
    for (const node of nodes) {
      if (!daemons.isUp(node)) continue;
      daemons.send(node, 'job-end', { jobId }).catch((error: Error) => this.ctl.log.verbose(`job ${jobId}: job-end on ${node}: ${error.message}`));
    }
  }

  private async requeue(job: CtldJob, why = 'node failure'): Promise<void> {
    const { ctl } = this;
    const record = job.record;
    if (why === 'node failure') ctl.log.error(`job ${record.job_id}: batch step lost without a result; requeued`);
    job.killCause = undefined;
    await ctl.select.release(record);
    record.job_state = JOB_PENDING;
    record.start_time = 0;
    record.end_time = 0;
    record.node_bitmap = null;
    record.nodes = null;
    record.job_resrcs = null;
    job.stepdPid = undefined;
    job.batchNode = undefined;
    job.requeueCount++;
    job.reason = 'None';
    Object.assign(job, { suspendedAt: undefined, suspendedSeconds: 0, preemptedBy: undefined });
    await ctl.sched.requeue(record, why);
    await ctl.journalProgress(job);
    this.onEnd();
  }

  private async purgeOld(now: number): Promise<void> {
    const { ctl } = this;
    const cutoff = now - ctl.options.minJobAge;
    for (const job of [...ctl.jobs.values()]) {
      if (!ctl.isDone(job) || job.record.end_time > cutoff) continue;
      // An array is forgotten as a whole, once its last task is old enough.
      if (job.arrayJobId !== 0 && (ctl.arrays.get(job.arrayJobId) ?? []).some((t) => !ctl.isDone(t) || t.record.end_time > cutoff)) continue;
      ctl.removeJob(job);
      await ctl.journalPurge(job);
    }
  }
}

// The task ids of an array summed up, kept while its task list stays the same (a task added
// or taken out changes its length): every task's start used to go through all the ids.
const spans = new WeakMap<readonly CtldJob[], { length: number; span: ArrayTaskSpan }>();

function arrayTasksOf(tasks: readonly CtldJob[]): ArrayTaskSpan {
  const known = spans.get(tasks);
  if (known !== undefined && known.length === tasks.length) return known.span;
  const span = arrayTaskSpan(tasks.map((t) => t.arrayTaskId ?? 0));
  spans.set(tasks, { length: tasks.length, span });
  return span;
}
