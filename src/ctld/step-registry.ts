// The steps tsrun runs inside a job (slurmctld's step records, kept in memory only): a tsrun
// in a batch script registers its step over its connection (`step-start`) and reports its end
// (`step-end`). A step also ends when that connection closes or its job ends; a controller
// restart forgets them. `tscancel N.S` reaches the step's tsrun as an answer to its
// `step-watch` request, as the orders for tsrun's own job do; so does the end of its job
// (tscancel N, the time limit, a revoked allocation): its tsrun ends the step as slurmstepd ends
// the steps of a killed job (SIGTERM, SIGKILL after KillWait), with Slurm's lines. The select plugin sees each step:
// select_p_step_pick_nodes when it is registered (its pick is the answer to `step-start`),
// select_p_step_finish(killing_step=true) when tscancel ends it, and (false) once it has ended.
// The registry also shares the job's CPUs among its steps (step-resources.ts): a step that does
// not fit beside the running ones is answered `busy`, and asked again with `wait` it is held
// until steps that end make room (srun's "step creation temporarily disabled").
import { UserError } from '../core/errors.js';
import { isFinished } from '../core/job-state.js';
import { INFINITE } from '../core/slurm-constants.js';
import { JOB_COMPLETING, JOB_RUNNING, JOB_STATE_BASE, type step_record_t } from '../plugin-api/records.js';
import type { Controller } from './controller.js';
import type { CtldJob } from './job.js';
import { jobView } from './job-view.js';
import type { RpcConnection } from '../net/rpc-server.js';
import type { StepGrant, StepStart } from '../protocol/step-messages.js';
import type { StepOrder, StepView } from '../protocol/ctld-answers.js';
import { fitStep, type StepAsk, type StepFit } from './step-resources.js';
import type { CtldHandlers } from './ctld-handlers.js';
import { isAdministrator } from './administrators.js';
import { stepRecordOf, type StepFacts } from './accounting/step-record.js';
import type { StepUsage } from '../protocol/step-usage.js';
import { recordStepUsage, stepStats } from './step-usage.js';

interface Entry {
  start: StepStart;
  /** Where it runs and the CPUs it holds there: the controller's placement, else tsrun's. */
  nodes: string;
  nodeCount: number;
  cpus: number;
  /** Node indices in the job's order and CPUs per node; absent when tsrun placed the step. */
  held?: { nodes: number[]; cpus: number[]; overlap: boolean };
  /** The step as the select plugin sees it. */
  record: step_record_t;
  startTime: number;
  orders: StepOrder[];
  deliver: ((order: StepOrder) => void) | undefined;
  /** Its tsrun was told that the job ends. */
  toldEnd?: boolean;
  /** Resolves once its tsrun has taken that order (it asks for the next) or the step is gone. */
  endTaken?: () => void;
  /** What its tsrun reported at its end (step-end), for the accounting record. */
  ended?: { exitStatus: number; usage: StepUsage | undefined };
  /** tscancel N.S by this user. */
  cancelledBy?: number;
  /** What its tasks used: the latest sample, then the figures its end brought. */
  usage?: StepUsage;
}

const now = (): number => Math.floor(Date.now() / 1000);
/** How often a waiting step looks again without a step having ended (its job may have). */
const RECHECK_MS = 2000;
const keyOf = (jobId: number, stepId: number): string => `${jobId}.${stepId}`;

export class StepRegistry {
  private readonly entries = new Map<string, Entry>();

  /** Orders to steps dropped before their tsrun asked again: given once to the next `step-watch`. */
  private readonly lastOrders = new Map<string, StepOrder>();

  constructor(private readonly ctl: Controller) {
    // A job being killed (tscancel, time limit, ...) is announced; one that ended otherwise (its
    // batch script exited, its node failed) is journaled, which is a change: its steps end.
    ctl.onJobEnding((job) => this.endStepsOf(job.record.job_id));
    ctl.onChange(() => void this.endStepsOf(undefined));
  }

  /** Steps waiting for CPUs held by others; woken (in arrival order) whenever a step ends. */
  private waiting: Array<() => void> = [];
  /** Placements are decided one at a time: a pick is awaited between fitting and holding. */
  private placing: Promise<unknown> = Promise.resolve();

  /**
   * A step of a job the controller does not run is refused: tsrun then runs it unregistered.
   * Answers where the step runs and the CPUs it holds, or `busy` when other steps hold what it
   * needs (with `wait`, the answer waits until they do not); a step the job can never hold is
   * refused with srun's errno.
   */
  async start(body: StepStart, connection: RpcConnection): Promise<StepGrant> {
    let closed = false;
    connection.onClose(() => (closed = true));
    for (let waited = false; ; waited = true) {
      const placed = await this.serially(() => this.place(body, connection, waited));
      if (placed !== 'busy') return placed;
      if (!body.wait || closed) return { busy: true };
      // A job that ends has no step ending to wake its waiters: they look again now and then.
      await new Promise<void>((resolve) => {
        this.waiting.push(resolve);
        connection.onClose(resolve);
        setTimeout(resolve, RECHECK_MS).unref();
      });
      if (closed) return { busy: true };
    }
  }

  private serially<T>(work: () => Promise<T>): Promise<T> {
    const next = this.placing.then(work);
    this.placing = next.catch(() => {});
    return next;
  }

  private async place(body: StepStart, connection: RpcConnection, waited: boolean): Promise<StepGrant | 'busy'> {
    this.prune();
    const job = this.ctl.jobs.get(body.jobId);
    // A job that ended while its step waited: srun's refusal (tsrun then runs nothing).
    if (waited && (!job || isFinished(job.record.job_state))) throw UserError.fromErrno('ESLURM_ALREADY_DONE', `Unable to create step for job ${body.jobId}`);
    if (!job || isFinished(job.record.job_state)) throw UserError.fromErrno('ESLURM_INVALID_JOB_ID');
    const res = job.record.job_resrcs;
    let held: Entry['held'];
    let nodes = body.nodes;
    let cpus = body.cpus;
    if (body.ask && res) {
      const names = this.ctl.table.namesFromBitmap(res.node_bitmap);
      let fit = fitStep(this.useOf(job, names), this.askOf(body, names));
      if (fit.kind === 'granted') fit = await this.withPick(job, names, body, fit);
      if (fit.kind === 'busy') return 'busy';
      if (fit.kind === 'never') throw UserError.fromErrno(fit.code, `Unable to create step for job ${body.jobId}`);
      held = { nodes: fit.nodes, cpus: fit.cpus, overlap: body.ask.overlap };
      nodes = this.ctl.table.hostlistFromBitmap(this.ctl.table.bitmapFromHostlist(fit.nodes.map((i) => names[i]!).join(',')));
      cpus = fit.cpus.reduce((a, b) => a + b, 0);
    }
    const key = keyOf(body.jobId, body.stepId);
    const nodeCount = held ? held.nodes.length : body.nodeCount;
    const entry: Entry = { start: body, nodes, nodeCount, cpus, ...(held && { held }), record: this.stepRecord(job, body, nodes, cpus), startTime: now(), orders: [], deliver: undefined };
    this.entries.set(key, entry);
    this.ctl.accounting?.stepChanged(stepRecordOf(job, factsOf(entry)));
    connection.onClose(() => {
      if (this.lastOrders.has(key) && !this.entries.has(key)) this.lastOrders.delete(key);
      if (this.entries.get(key) === entry) this.drop(key);
    });
    if (held) return { nodes, cpus: held.cpus };
    // Without a placement of its own the select plugin's pick (if it makes one) is the answer.
    const picked = job.record.node_bitmap ? await this.ctl.select.stepPickNodes(job.record, body.nodeCount) : null;
    return picked ? { nodes: this.ctl.table.hostlistFromBitmap(picked) } : {};
  }

  /** select_p_step_pick_nodes has its say over the node count placement chose; null leaves it. */
  private async withPick(job: CtldJob, names: string[], body: StepStart, fit: Extract<StepFit, { kind: 'granted' }>): Promise<StepFit> {
    if (!job.record.node_bitmap) return fit;
    const picked = await this.ctl.select.stepPickNodes(job.record, fit.nodes.length);
    if (!picked) return fit;
    const pickedNames = new Set(this.ctl.table.namesFromBitmap(picked));
    const nodes = names.flatMap((name, i) => (pickedNames.has(name) ? [i] : []));
    return fitStep(this.useOf(job, names), { ...this.askOf(body, names), nodes });
  }

  private askOf(body: StepStart, names: string[]): StepAsk {
    const ask = body.ask!;
    const wanted = ask.nodelist === undefined ? undefined : this.ctl.table.namesFromBitmap(this.ctl.table.bitmapFromHostlist(ask.nodelist));
    return {
      ntasks: body.ntasks,
      cpusPerTask: ask.cpusPerTask,
      exact: ask.exact,
      overlap: ask.overlap,
      overcommit: ask.overcommit,
      ...(ask.nodeCount !== undefined && { nodeCount: ask.nodeCount }),
      ...(wanted && { nodes: wanted.map((name) => names.indexOf(name)) }),
    };
  }

  /** The CPUs each of the job's nodes has, those its placed steps hold (--overlap ones aside), and its steps there. */
  private useOf(job: CtldJob, names: string[]): { cpus: number[]; used: number[]; steps: number[] } {
    const cpus = [...job.record.job_resrcs!.cpus];
    const used = names.map(() => 0);
    const steps = names.map(() => 0);
    for (const entry of this.entries.values()) {
      if (entry.start.jobId !== job.record.job_id || !entry.held) continue;
      entry.held.nodes.forEach((i, k) => {
        steps[i]! += 1;
        if (!entry.held!.overlap) used[i]! += entry.held!.cpus[k]!;
      });
    }
    return { cpus, used, steps };
  }

  private stepRecord(job: CtldJob, body: StepStart, hostlist: string, cpus: number): step_record_t {
    let nodes = job.record.node_bitmap?.copy() ?? this.ctl.table.emptyBitmap();
    try {
      nodes = this.ctl.table.bitmapFromHostlist(hostlist);
    } catch {
      // a step on nodes this controller does not know: the job's nodes stand for them
    }
    const perTask = body.ask?.cpusPerTask ?? (body.ntasks > 0 ? Math.max(1, Math.floor(cpus / body.ntasks)) : 1);
    return { step_id: body.stepId, job_ptr: job.record, step_node_bitmap: nodes, ntasks: body.ntasks, cpus_per_task: perTask, cpu_count: cpus, pn_min_memory: 0, mem_per_cpu: 0 };
  }

  // select_p_step_finish; its failure is only logged, as slurmctld does.
  private finish(entry: Entry, killing: boolean): void {
    void this.ctl.select.finishStep(entry.record, killing).then(
      (rc) => rc !== 0 && this.ctl.log.error(`step ${entry.start.jobId}.${entry.start.stepId}: select_p_step_finish failed (rc ${rc})`),
      (error: Error) => this.ctl.log.error(error.message),
    );
  }

  /** Its tsrun reports the end, with the wait status and (when gathered) what the step used. */
  end(jobId: number, stepId: number, exitStatus: number, usage?: StepUsage): void {
    const entry = this.entries.get(keyOf(jobId, stepId));
    if (entry) entry.ended = { exitStatus, usage };
    if (entry && usage) entry.usage = usage;
    this.drop(keyOf(jobId, stepId));
  }

  /** A running step's latest sample. */
  sampled(jobId: number, stepId: number, usage: StepUsage): void {
    const entry = this.entries.get(keyOf(jobId, stepId));
    if (entry) entry.usage = usage;
  }

  /** The next order for the step's tsrun; `{}` once the step has ended. */
  watch(jobId: number, stepId: number): Promise<StepOrder> {
    const key = keyOf(jobId, stepId);
    const entry = this.entries.get(key);
    const last = this.lastOrders.get(key);
    this.lastOrders.delete(key);
    if (!entry) return Promise.resolve(last ?? {});
    // Asking again, its tsrun has carried out what it was told before.
    if (entry.toldEnd && entry.orders.length === 0) entry.endTaken?.();
    const queued = entry.orders.shift();
    if (queued) return Promise.resolve(queued);
    return new Promise((resolve) => (entry.deliver = resolve));
  }

  /** scancel N.S (SIGKILL to the step, as scancel asks) or scancel -s SIG N.S. */
  order(id: string, userId: number, signal: number | undefined): void {
    const { jobId, stepId } = parseStepId(id);
    this.prune();
    const entry = typeof stepId === 'number' ? this.entries.get(keyOf(jobId, stepId)) : undefined;
    const job = this.ctl.jobs.get(jobId);
    if (!entry || !job) throw UserError.fromErrno('ESLURM_INVALID_JOB_ID');
    // Another user's step: only an administrator (root or SlurmUser), as for the rest of the controller.
    if (!isAdministrator(userId) && job.record.user_id !== userId) throw UserError.fromErrno('ESLURM_ACCESS_DENIED');
    const order: StepOrder = signal === undefined ? { cancel: true } : { signal };
    if (order.cancel) {
      entry.cancelledBy = userId;
      this.finish(entry, true);
    }
    this.send(entry, order);
  }

  private send(entry: Entry, order: StepOrder): void {
    const deliver = entry.deliver;
    entry.deliver = undefined;
    if (deliver) deliver(order);
    else entry.orders.push(order);
  }

  /**
   * slurmctld's kill of a job reaches every step of it: each step's tsrun is told once that the
   * job ends (tscancel N, the time limit, a revoked allocation, a node failure) and why:
   * `jobId` a job being killed, or every job that has ended.
   */
  private endStepsOf(jobId: number | undefined): Promise<void> {
    const taken: Array<Promise<void>> = [];
    for (const entry of this.entries.values()) {
      if (entry.toldEnd || (jobId !== undefined && entry.start.jobId !== jobId)) continue;
      const job = this.ctl.jobs.get(entry.start.jobId);
      // A job being killed is announced once its holder or batch step was told (salloc's line first).
      if (job && jobId === undefined && (!isFinished(job.record.job_state) || (job.killCause !== undefined && (job.record.job_state & JOB_COMPLETING) !== 0))) continue;
      entry.toldEnd = true;
      taken.push(new Promise((resolve) => (entry.endTaken = resolve)));
      this.send(entry, { end: job?.killCause === 'TIMEOUT' ? 'TIMEOUT' : 'CANCELLED' });
    }
    return Promise.all(taken).then(() => {});
  }

  /** Every step, or a job's, or one (`12`, `12.0`, `12.batch`); an unknown job is refused. */
  list(id: string | undefined): StepView[] {
    this.prune();
    const wanted = id === undefined ? undefined : parseStepId(id);
    if (wanted && !this.ctl.jobs.has(wanted.jobId)) throw UserError.fromErrno('ESLURM_INVALID_JOB_ID');
    const jobs = [...this.ctl.jobs.values()]
      .filter((job) => (job.record.job_state & JOB_STATE_BASE) === JOB_RUNNING)
      .filter((job) => wanted === undefined || job.record.job_id === wanted.jobId)
      .sort((a, b) => a.record.job_id - b.record.job_id);
    const steps = jobs.flatMap((job) => this.stepsOf(job));
    return wanted?.stepId === undefined ? steps : steps.filter((step) => step.stepId === wanted.stepId);
  }

  private stepsOf(job: CtldJob): StepView[] {
    const view = jobView(this.ctl, job);
    const common = { jobId: view.jobId, userId: view.userId, userName: view.userName, partition: view.partition };
    const steps: StepView[] = [];
    // slurmctld lists a running batch job's batch step first: one task on the batch host, no CPUs.
    if (view.batch !== false && view.batchHost) {
      steps.push({ ...common, stepId: 'batch', name: 'batch', startTime: view.startTime, timeLimit: INFINITE, nodes: view.batchHost, nodeCount: 1, ntasks: 1, cpus: 0 });
    }
    const own = [...this.entries.values()].filter((e) => e.start.jobId === view.jobId).sort((a, b) => a.start.stepId - b.start.stepId);
    for (const { start, startTime, nodes, nodeCount, cpus, usage } of own) {
      const { name, ntasks, timeLimit, dist, host, pid } = start;
      steps.push({ ...common, stepId: start.stepId, name, startTime, timeLimit, nodes, nodeCount, ntasks, cpus, dist, host, pid, ...(usage && { usage }) });
    }
    return steps;
  }

  /** Steps of jobs that have ended end with them. */
  private prune(): void {
    for (const [key, entry] of [...this.entries]) {
      const job = this.ctl.jobs.get(entry.start.jobId);
      if (!job || isFinished(job.record.job_state)) this.drop(key, true);
    }
  }

  private recordEnd(entry: Entry): void {
    const job = this.ctl.jobs.get(entry.start.jobId);
    if (!job || !this.ctl.accounting) return;
    this.ctl.accounting.stepChanged(
      stepRecordOf(job, factsOf(entry), {
        end: now(),
        exitStatus: entry.ended?.exitStatus,
        stopped: entry.cancelledBy !== undefined || entry.toldEnd === true,
        cancelledBy: entry.cancelledBy,
        usage: entry.ended?.usage,
      }),
    );
  }

  /** `keepOrder`: the step's tsrun may still ask (its job ended, its connection did not). */
  private drop(key: string, keepOrder = false): void {
    const entry = this.entries.get(key);
    this.entries.delete(key);
    if (entry) this.finish(entry, false);
    if (entry) this.recordEnd(entry);
    entry?.endTaken?.();
    // An order its tsrun has not fetched yet (its job's end) still reaches it, once.
    const pending = entry?.orders.find((order) => order.end !== undefined);
    if (keepOrder && pending && !entry?.deliver) this.lastOrders.set(key, pending);
    entry?.deliver?.({});
    // The CPUs it held may be what a waiting step needs.
    if (entry?.held) this.waiting.splice(0).forEach((wake) => wake());
  }
}

function factsOf(entry: Entry): StepFacts {
  const { start } = entry;
  return { stepId: start.stepId, name: start.name, start: entry.startTime, nodes: entry.nodes, nodeCount: entry.nodeCount, cpus: entry.cpus, ntasks: start.ntasks };
}

function parseStepId(text: string): { jobId: number; stepId?: number | 'batch' } {
  const match = /^(\d+)(?:\.(\d+|batch)?)?$/.exec(String(text).trim());
  if (!match) throw UserError.fromErrno('ESLURM_INVALID_JOB_ID');
  const step = match[2];
  return { jobId: Number(match[1]), ...(step !== undefined && { stepId: step === 'batch' ? 'batch' : Number(step) }) };
}

/** The step requests (registered in controllerHandlers). */
export function stepHandlers(
  ctl: Controller,
): Pick<CtldHandlers, 'step-start' | 'step-end' | 'step-watch' | 'steps' | 'step-cancel' | 'step-usage' | 'step-stats' | 'job-usage'> {
  const registry = new StepRegistry(ctl);
  return {
    'step-start': async (body, connection) => registry.start(body, connection),
    'step-end': async (body) => {
      recordStepUsage(ctl.jobs.get(body.jobId), body.stepId, body.usage);
      registry.end(body.jobId, body.stepId, body.exitStatus, body.usage);
      // slurmctld keeps the highest step status as the job's derived exit code.
      const job = ctl.jobs.get(body.jobId);
      if (job && Number.isInteger(body.exitStatus) && body.exitStatus > (job.derivedExitStatus ?? 0)) job.derivedExitStatus = body.exitStatus;
      return {};
    },
    'step-watch': async (body) => registry.watch(body.jobId, body.stepId),
    'step-usage': async (body) => {
      recordStepUsage(ctl.jobs.get(body.jobId), body.stepId, body.usage);
      if (body.stepId !== 'batch') registry.sampled(body.jobId, body.stepId, body.usage);
      return {};
    },
    /** What each step of a job the controller still knows used (final figures once ended). */
    'job-usage': async (body) => ({ steps: ctl.jobs.get(Number.parseInt(body.id, 10))?.stepUsage ?? {} }),
    /** tssstat: a running job's steps with their latest figures (step-usage.ts). */
    'step-stats': async (body) => {
      const known = ctl.jobs.has(Number.parseInt(body.id, 10));
      const listed = known ? registry.list(body.id.split('.')[0]) : [];
      return { steps: stepStats(ctl, listed, body.id), known };
    },
    steps: async (body) => ({ steps: registry.list(body?.id) }),
    /** Answers per id, as the `cancel` request does. */
    'step-cancel': async (body) => {
      const results: Array<{ id: string; error?: { message: string; code?: string } }> = [];
      for (const id of body.ids) {
        try {
          registry.order(id, body.userId, body.signal);
          results.push({ id });
        } catch (error) {
          if (!(error instanceof UserError)) throw error;
          results.push({ id, error: { message: error.message, ...(error.code && { code: error.code }) } });
        }
      }
      return { results };
    },
  };
}
