// tsrun's jobs on the controller (slurmctld's job_allocate for srun: a job without a batch
// script, BatchFlag=0). The request is checked as a submission is, journaled and scheduled
// with the batch jobs; no step daemon starts: the tsrun that asked holds the allocation over
// its connection and runs the steps itself. The job ends when tsrun reports its end
// (`complete`), or when its connection closes without that — a lost srun, which Slurm ends
// as CANCELLED with ExitCode=0:0 (observed on Slurm 22.05 for a SIGKILLed srun). tscancel,
// scancel -s and the time limit reach tsrun as answers to its `watch` request, or as a signal
// to its pid while it is not connected (after a controller restart, until it attaches again).
// tsalloc (salloc) holds its job the same way; salloc --no-shell's job is detached: nobody
// holds it, and it ends only when cancelled or timed out.
import { readFileSync } from 'node:fs';
import { UserError } from '../core/errors.js';
import { slurm_strerror } from '../core/errno.js';
import { INFINITE } from '../core/slurm-constants.js';
import { isFinished } from '../core/job-state.js';
import { JOB_COMPLETING, JOB_PENDING, JOB_RUNNING, JOB_STATE_BASE } from '../plugin-api/records.js';
import type { JobDescriptor } from '../protocol/job-desc.js';
import { cancelPendingJob, endReason, endState, stateFor } from './job-end.js';
import type { Controller } from './controller.js';
import type { Scheduler } from './scheduler.js';
import type { CtldJob, KillCause } from './job.js';
import type { RpcConnection } from '../net/rpc-server.js';
import type { CtldHandlers } from './ctld-handlers.js';
import { checkSubmission, newJob, nextPriority, submitJob } from './submit-job.js';
import type { AllocateAnswer, Grant, JobOrder } from '../protocol/ctld-answers.js';
import { recordStepUsage } from './step-usage.js';
import { isAdministrator } from './administrators.js';

interface Holder {
  pid: number;
  connection: RpcConnection | undefined;
  orders: JobOrder[];
  deliver: ((order: JobOrder) => void) | undefined;
  started: Array<() => void>;
}

const now = (): number => Math.floor(Date.now() / 1000);

export class InteractiveJobs {
  private readonly holders = new Map<number, Holder>();

  constructor(
    private readonly ctl: Controller,
    private readonly scheduler: Scheduler,
  ) {}

  owns(job: CtldJob): boolean {
    return job.desc.interactive !== undefined;
  }

  /** A new tsrun job, answered once a scheduling pass has seen it: started, or pending. */
  async allocate(desc: JobDescriptor, testOnly: boolean, connection: RpcConnection): Promise<AllocateAnswer> {
    if (desc.interactive === undefined || desc.script !== '') throw new UserError('an allocation names the tsrun that holds it and no script');
    if (testOnly) {
      const answer = await submitJob(this.ctl, desc, true);
      return { jobId: answer.jobId, pending: false, willRun: answer.willRun };
    }
    const { partition } = await checkSubmission(this.ctl, desc);
    // As tsrun without a controller: a partition that takes no jobs is refused, not waited for.
    if (partition.state === 'DOWN') throw UserError.fromErrno('ESLURM_PARTITION_DOWN');
    if (partition.state !== 'UP') throw UserError.fromErrno('ESLURM_PARTITION_NOT_AVAIL');
    this.ctl.store.checkWritable();
    const jobId = this.ctl.store.takeJobIds(1);
    const record = this.ctl.buildRecord(desc, jobId, partition.name, now());
    // srun -H and -d: held, or waiting on other jobs, as a batch job would.
    record.priority = desc.hold ? 0 : nextPriority(this.ctl, record);
    const job = newJob(record, desc, {
      dependency: desc.dependency,
      ...(desc.hold && { reason: 'JobHeldUser', held: 'user' as const }),
    });
    this.hold(job, connection);
    // The pass that may start it runs before its submit record is written, which then carries
    // the start: one disk flush before the answer rather than one for each.
    try {
      await this.ctl.addDecided(job, () => this.scheduler.settle());
    } catch (error) {
      this.holders.delete(jobId);
      this.scheduler.kick();
      throw error;
    }
    return this.state(job);
  }

  /** Resolves once a pending job was given its nodes; refused if it ended first (tscancel). */
  async allocation(jobId: number): Promise<Grant> {
    const job = this.find(jobId);
    const holder = this.holders.get(jobId);
    if (holder && (job.record.job_state & JOB_STATE_BASE) === JOB_PENDING) {
      await Promise.race([new Promise<void>((resolve) => holder.started.push(resolve)), this.ctl.whenFinished([job])]);
    }
    if (isFinished(job.record.job_state)) throw UserError.fromErrno('ESLURM_ALREADY_DONE');
    return grantOf(this.ctl, job);
  }

  /** tsrun comes back (after a controller restart) to the job it holds. */
  async attach(jobId: number, connection: RpcConnection): Promise<AllocateAnswer> {
    const job = this.find(jobId);
    if (!this.holders.has(jobId)) throw UserError.fromErrno('ESLURM_ALREADY_DONE');
    this.hold(job, connection);
    return this.state(job);
  }

  /** Answers with the next order for the job's tsrun (tsrun asks again after each). */
  watch(jobId: number): Promise<JobOrder> {
    const holder = this.holders.get(jobId);
    if (!holder) return Promise.resolve({});
    const queued = holder.orders.shift();
    if (queued) return Promise.resolve(queued);
    return new Promise((resolve) => (holder.deliver = resolve));
  }

  /** The job record, for what its step used (recorded as it completes). */
  job(jobId: number): CtldJob | undefined {
    return this.ctl.jobs.get(jobId);
  }

  /** tsrun's step ended with this wait status: the job ends (slurm_complete_job). */
  async complete(jobId: number, status: number): Promise<void> {
    const job = this.find(jobId);
    if (this.holders.has(jobId)) await this.finish(job, status);
  }

  launch(job: CtldJob): Promise<void> {
    const record = job.record;
    record.job_state = JOB_RUNNING;
    record.start_time = now();
    record.end_time = record.time_limit === INFINITE ? INFINITE : record.start_time + record.time_limit * 60;
    job.reason = 'None';
    const started = this.holders.get(record.job_id)?.started.splice(0) ?? [];
    return (async () => {
      await this.ctl.sched.newalloc(record);
      // Not waited for by the pass, whose other starts join this record's disk flush; a tsrun
      // waiting for its pending job hears of the start once it is on disk.
      void this.ctl
        .journalProgress(job)
        .catch((error: Error) => this.ctl.log.error(`job ${record.job_id}: ${error.message}`))
        .finally(() => started.forEach((resolve) => resolve()));
    })();
  }

  /** tscancel or the time limit of a running job: tsrun is told to end its step. */
  async cancel(job: CtldJob, cause: KillCause): Promise<void> {
    if (isFinished(job.record.job_state) || job.killCause !== undefined) return;
    job.killCause = cause;
    job.record.job_state = stateFor(cause) | JOB_COMPLETING;
    if (cause === 'TIMEOUT') job.reason = 'TimeLimit';
    await this.ctl.journalProgress(job);
    this.order(job, { cause: cause === 'TIMEOUT' ? 'TIMEOUT' : 'CANCELLED' });
    // After the holder's order: salloc says the allocation is revoked before its steps end.
    void this.ctl.jobEnding(job);
  }

  /**
   * A node of the running job failed under its step (the embedded step host was lost): the job
   * ends NODE_FAIL. tsrun's own job is being ended by the tsrun that saw it (its `complete`
   * follows); an allocation held by tsalloc is revoked as on any node failure.
   */
  async nodeFailed(job: CtldJob): Promise<void> {
    if (isFinished(job.record.job_state) || job.killCause !== undefined) return;
    if (job.desc.interactive?.ownStep !== true || !this.holders.has(job.record.job_id)) return this.cancel(job, 'NODE_FAIL');
    job.killCause = 'NODE_FAIL';
    job.record.job_state = stateFor('NODE_FAIL') | JOB_COMPLETING;
    await this.ctl.journalProgress(job);
    void this.ctl.jobEnding(job);
  }

  /** scancel -s: the signal goes to the step's tasks through tsrun. */
  signal(job: CtldJob, signal: number): void {
    if ((job.record.job_state & JOB_STATE_BASE) === JOB_PENDING) throw UserError.fromErrno('ESLURM_JOB_PENDING');
    this.order(job, { signal });
  }

  /** After a restart: a job whose tsrun still runs waits for it to attach; others are lost. */
  async recover(): Promise<void> {
    for (const job of this.ctl.jobs.values()) {
      if (!this.owns(job) || (isFinished(job.record.job_state) && (job.record.job_state & JOB_COMPLETING) === 0)) continue;
      const pid = job.desc.interactive!.pid;
      this.holders.set(job.record.job_id, { pid, connection: undefined, orders: [], deliver: undefined, started: [] });
      if (isDetached(job)) continue;
      if (isTsrun(pid)) this.ctl.log.info(`job ${job.record.job_id}: tsrun still running (pid ${pid}), recovered`);
      else await this.lost(job);
    }
  }

  /** Every second: a tsrun that is not connected and has gone loses its job. */
  async tick(): Promise<void> {
    for (const [jobId, holder] of [...this.holders]) {
      const job = this.ctl.jobs.get(jobId);
      if (job && holder.connection === undefined && !isDetached(job) && !isTsrun(holder.pid)) await this.lost(job);
    }
  }

  private hold(job: CtldJob, connection: RpcConnection): void {
    const id = job.record.job_id;
    const holder = this.holders.get(id) ?? { pid: job.desc.interactive!.pid, connection, orders: [], deliver: undefined, started: [] };
    holder.connection = connection;
    this.holders.set(id, holder);
    connection.onClose(() => {
      if (this.holders.get(id) !== holder || holder.connection !== connection) return;
      holder.connection = undefined;
      holder.deliver = undefined;
      // A detached allocation outlives its tsalloc once granted (and one cancelled meanwhile ends).
      const granted = (job.record.job_state & JOB_STATE_BASE) !== JOB_PENDING;
      if (isDetached(job) && granted && job.killCause === undefined) return;
      void this.lost(job).catch((error: Error) => this.ctl.log.error(`job ${id}: ${error.message}`));
    });
  }

  private order(job: CtldJob, order: JobOrder): void {
    const holder = this.holders.get(job.record.job_id);
    if (!holder) return;
    if (holder.connection === undefined && isDetached(job)) {
      // Nobody to tell: a detached allocation ends at once; a signal has no step to reach.
      if (order.cause !== undefined) void this.finish(job, 0).catch((error: Error) => this.ctl.log.error(`job ${job.record.job_id}: ${error.message}`));
      return;
    }
    if (holder.connection === undefined) {
      // Not connected (a restart): SIGTERM ends the step as it ends srun's, else the signal.
      signalPid(holder.pid, order.cause !== undefined ? 'SIGTERM' : order.signal!);
      return;
    }
    const deliver = holder.deliver;
    holder.deliver = undefined;
    if (deliver) deliver(order);
    else holder.orders.push(order);
  }

  private state(job: CtldJob): AllocateAnswer {
    const jobId = job.record.job_id;
    const base = job.record.job_state & JOB_STATE_BASE;
    if (base === JOB_PENDING) {
      return job.reason.startsWith('ReqNodeNotAvail') ? { jobId, pending: true, notice: slurm_strerror('ESLURM_NODE_NOT_AVAIL') } : { jobId, pending: true };
    }
    if (isFinished(job.record.job_state)) throw UserError.fromErrno('ESLURM_ALREADY_DONE');
    return { jobId, pending: false, grant: grantOf(this.ctl, job) };
  }

  /** The tsrun went without a word: a pending job is cancelled, a running one ends CANCELLED. */
  private async lost(job: CtldJob): Promise<void> {
    if (!this.holders.has(job.record.job_id)) return;
    if ((job.record.job_state & JOB_STATE_BASE) === JOB_PENDING) {
      this.holders.delete(job.record.job_id);
      await cancelPendingJob(this.ctl, job, 'None');
      this.scheduler.kick();
      return;
    }
    job.killCause ??= 'CANCELLED';
    await this.finish(job, 0);
  }

  private async finish(job: CtldJob, status: number): Promise<void> {
    const { ctl } = this;
    const record = job.record;
    // Taken first, so a close arriving while this runs does not end the job twice; a watch
    // still open is answered with no order, which tells tsrun the job is over.
    this.holders.get(record.job_id)?.deliver?.({});
    this.holders.delete(record.job_id);
    const state = job.killCause ? stateFor(job.killCause) : endState(status);
    record.job_state = state;
    record.end_time = now();
    job.exitStatus = status;
    job.reason = endReason(state, status);
    await ctl.select.release(record);
    await ctl.sched.freealloc(record);
    // tsrun's `complete` is answered once the end is in the journal file, not after its flush
    // to the disk (1-3 ms idle, far more under load, on the way to every tsrun's exit): a
    // controller killed (-9) after the answer finds the record in the file, as the page cache
    // outlives the process. Only a power loss could lose it, and then the job comes back
    // RUNNING with its tsrun gone, which recover() ends (CANCELLED, its resources freed): a
    // wrong final state, never a lost job or a task left running. The next acknowledged
    // change (a submission, fsynced before its answer) flushes this record with its own.
    // A submission is still answered only once it is on the disk (journalSubmit).
    await ctl.journalProgress(job, false, true);
    ctl.notifyFinished(job);
    this.scheduler.kick();
  }

  private find(jobId: number): CtldJob {
    const job = this.ctl.jobs.get(jobId);
    if (!job || !this.owns(job)) throw UserError.fromErrno('ESLURM_INVALID_JOB_ID');
    return job;
  }
}

function grantOf(ctl: Controller, job: CtldJob): Grant {
  const record = job.record;
  const res = record.job_resrcs;
  const nodeNames = ctl.table.namesFromBitmap(record.node_bitmap!);
  return {
    jobId: record.job_id,
    name: record.name,
    partition: record.partition,
    nodeNames,
    cpusPerNode: res?.cpus ?? nodeNames.map((name) => ctl.table.nodes[ctl.table.indexOf(name)!]!.cpus),
    gpusPerNode: nodeNames.map((_, i) => (res?.gres_allocated[i] ?? []).filter((s) => s.name === 'gpu').flatMap((s) => [...(s.indices ?? [])])),
    timeLimit: record.time_limit,
  };
}

function signalPid(pid: number, signal: NodeJS.Signals | number): void {
  try {
    process.kill(pid, signal);
  } catch {
    // gone already: the next tick ends its job
  }
}

function isDetached(job: CtldJob): boolean {
  return job.desc.interactive?.detached === true;
}

/** Whether `pid` is alive and still a tsrun or tsalloc, under either name (not a recycled pid). */
function isTsrun(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    // A zombie has an empty command line: it has ended.
    return /tsrun|tsalloc|slurm-name/.test(readFileSync(`/proc/${pid}/cmdline`, 'utf8'));
  } catch {
    return true;
  }
}

/**
 * The requests tsrun sends (registered in controllerHandlers). Over TCP the credential names the
 * sender: only the job's owner or an administrator may take the job back (`attach`), read its
 * orders (`watch`) or end it (`complete`), as slurmctld's job_complete refuses another user's
 * REQUEST_COMPLETE_JOB_ALLOCATION (ESLURM_USER_ID_MISSING) and step creation another user's
 * job (ESLURM_ACCESS_DENIED). On the Unix socket the peer is the controller's user already.
 */
export function interactiveHandlers(jobs: InteractiveJobs): Pick<CtldHandlers, 'allocate' | 'allocation' | 'attach' | 'watch' | 'complete'> {
  return {
    allocate: async (body, connection) => jobs.allocate(body.desc, body.testOnly === true, connection),
    allocation: async (body) => jobs.allocation(body.jobId),
    attach: async (body, connection) => {
      checkHolder(jobs, body.jobId, connection, 'ESLURM_ACCESS_DENIED');
      return jobs.attach(body.jobId, connection);
    },
    watch: async (body, connection) => {
      checkHolder(jobs, body.jobId, connection, 'ESLURM_ACCESS_DENIED');
      return jobs.watch(body.jobId);
    },
    complete: async (body, connection) => {
      checkHolder(jobs, body.jobId, connection, 'ESLURM_USER_ID_MISSING');
      recordStepUsage(jobs.job(body.jobId), 0, body.usage);
      await jobs.complete(body.jobId, body.status);
      return {};
    },
  };
}

/** Refuses with `errno` an authenticated sender who neither owns the job nor administers. */
function checkHolder(jobs: InteractiveJobs, jobId: number, connection: RpcConnection | undefined, errno: 'ESLURM_ACCESS_DENIED' | 'ESLURM_USER_ID_MISSING'): void {
  const uid = connection?.identity?.uid;
  const owner = jobs.job(jobId)?.record.user_id;
  if (uid === undefined || owner === undefined || uid === owner || isAdministrator(uid)) return;
  throw UserError.fromErrno(errno);
}
