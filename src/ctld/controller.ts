// The controller (slurmctld): the job table, its journal, the scheduling loop through the sched
// and select plugins, batch jobs started through their step daemons, time limits, and the
// answers to the commands' requests. Everything that changes a job is journaled before it is
// acknowledged (state/state-store.ts).
import { DiagStats } from './diag-stats.js';
import { UserError } from '../core/errors.js';
import type { Logger } from '../core/log.js';
import { isFinished } from '../core/job-state.js';
import type { ClusterConfig } from '../config/types.js';
import type { PluginRegistry } from '../plugin-host/registry.js';
import { Select } from '../interfaces/select.js';
import type { SelectOps } from '../interfaces/select-defaults.js';
import { SchedFacade } from '../interfaces/sched.js';
import type { JobcompFacade } from '../interfaces/jobcomp.js';
import { JOB_PENDING, JOB_RUNNING, JOB_STATE_BASE, JOB_SUSPENDED, type job_record_t } from '../plugin-api/records.js';
import type { JobDescriptor } from '../protocol/job-desc.js';
import { NodeTable } from './node-table.js';
import { NodeStates } from './node-states.js';
import { newJob, type CtldJob } from './job.js';
import { jobRecordFromDesc } from './job-from-desc.js';
import { StateStore } from './state/state-store.js';
import { applyProgress, progressOf, storedJobOf, type StoredJob } from './state/stored-job.js';
import type { JobLookup } from './dependencies.js';
import { Reservations } from './reservations.js';
import { restorePartitions } from './partition-updates.js';
import type { AccountingSink } from './accounting/sink.js';

export interface ControllerOptions {
  config: ClusterConfig;
  stateDir: string;
  registry: PluginRegistry;
  log: Logger;
  /** Seconds one minute of time limit lasts (60; tests shorten it). */
  minuteSeconds: number;
  /** Seconds between SIGTERM and SIGKILL when a job is ended (KillWait). */
  killWaitSeconds: number;
  /** Seconds a finished job stays visible (MinJobAge). */
  minJobAge: number;
  /** Now, Unix seconds; the wall clock when not given (`tsctld --simulate` runs a virtual one). */
  clock?: () => number;
  /** Keep the job table in memory only: no journal, no snapshot (simulation, benchmarks). */
  volatileState?: boolean;
}

/** The plugins' facades a controller is built with (`Controller.open` loads them). */
interface ControllerParts {
  select: Select;
  sched: SchedFacade;
  jobcomp: JobcompFacade | undefined;
}

/** What the daemon adds to a controller: job completion logging and the accounting store. */
export interface ControllerExtras {
  jobcomp?: JobcompFacade;
  /** Opens the accounting store once the journal is recovered; undefined when it cannot be. */
  openAccounting?: (ctl: Controller) => Promise<AccountingSink | undefined>;
}

/**
 * The cluster as if its file listed the nodes in rank order (lower first, ties in file order),
 * partitions' node lists too: slurmctld orders its node table by select_p_node_ranking.
 */
function rankedConfig(config: ClusterConfig, ranks: readonly number[], log: Logger): ClusterConfig {
  const order = config.nodes.map((_, i) => i).sort((a, b) => ranks[a]! - ranks[b]! || a - b);
  const nodes = order.map((i) => config.nodes[i]!);
  const position = new Map(nodes.map((node, i) => [node.name, i]));
  const partitions = config.partitions.map((p) => ({ ...p, nodes: [...p.nodes].sort((a, b) => position.get(a)! - position.get(b)!) }));
  log.info(`select: nodes ranked: ${nodes.map((n) => n.name).join(',')}`);
  return Object.freeze({ ...config, nodes, partitions });
}

export class Controller implements JobLookup {
  readonly jobs = new Map<number, CtldJob>();
  /** sdiag's job figures since this controller started. */
  readonly diag = new DiagStats();
  /** Array job id → its tasks, in task order. */
  readonly arrays = new Map<number, CtldJob[]>();
  /** Pending jobs that carry an expected start (see expected-start.ts). */
  readonly estimated = new Set<CtldJob>();
  /** The nodes, in the order the select plugin ranked them (select_p_node_ranking). */
  readonly table: NodeTable;
  /** The nodes' live states (drain, down, allocated, ...), kept on the table's records. */
  readonly nodeStates: NodeStates;
  readonly store: StateStore;
  /** Advance reservations (tscontrol create reservation), saved beside the jobs. */
  readonly reservations: Reservations;
  readonly select: Select;
  readonly sched: SchedFacade;
  /** The job completion logging plugin (jobcomp-log.ts), when the controller logs job ends. */
  readonly jobcomp: JobcompFacade | undefined;
  /** The accounting store's writer (tsacct's records): opened by `open` once the journal is recovered. */
  private accountingSink: AccountingSink | undefined;
  /**
   * The un-niced priority the last submitted job got; priority/basic counts down from slurmctld's
   * TOP_PRIORITY (observed on 22.05: the first job gets 4294901759).
   */
  lastPriority = 0xffff0000;
  private readonly finishedWaiters = new Map<number, Array<() => void>>();
  private readonly changeListeners = new Set<() => void>();
  private readonly finishedListeners = new Set<(job: CtldJob) => void>();
  private readonly endingListeners = new Set<(job: CtldJob) => Promise<void>>();
  /** The snapshot being saved (saveSnapshot), or the last one. */
  private saving: Promise<void> = Promise.resolve();
  /** Something changed since select_p_select_nodeinfo_set_all last ran. */
  private nodeinfoStale = true;

  /** Use `Controller.open`, which loads the plugins this takes and recovers the saved state. */
  private constructor(
    readonly options: ControllerOptions,
    parts: ControllerParts,
  ) {
    this.select = parts.select;
    this.sched = parts.sched;
    this.jobcomp = parts.jobcomp;
    this.table = NodeTable.fromConfig(options.config);
    this.nodeStates = new NodeStates(this.table, options.config);
    this.store = new StateStore(options.stateDir, options.volatileState === true);
    this.store.onHealth = (message, failing) => (failing ? options.log.error(message) : options.log.info(message));
    this.reservations = new Reservations(this.store.dir, this.table);
  }

  /**
   * A controller ready to serve, and what its recovery found wrong (for the log): the select
   * plugin first (select_p_node_ranking orders the node table everything else is built on),
   * then the sched plugin, the saved state (state_restore → select_p_job_init), and last the
   * accounting store, which is brought to agree with the recovered jobs.
   */
  static async open(options: ControllerOptions, extras: ControllerExtras = {}): Promise<{ ctl: Controller; problems: string[] }> {
    const { registry, log } = options;
    const selectPlugin = await registry.get('select', options.config.plugins.select);
    // The plugin's state file goes beside the controller's own (state/ctld), where an embedded
    // tsrun, which restores from its own state directory, never reads it.
    const select = new Select(selectPlugin.module as unknown as SelectOps, {
      pluginType: selectPlugin.type,
      stateDir: StateStore.dirIn(options.stateDir),
      hookTimeoutMs: registry.timeoutMs,
    });
    const ranks = await select.nodeRanking(NodeTable.fromConfig(options.config).nodes);
    const config = ranks === null ? options.config : rankedConfig(options.config, ranks, log);
    const sched = new SchedFacade(await registry.get('sched', config.plugins.sched), registry.timeoutMs, log);
    const ctl = new Controller({ ...options, config }, { select, sched, jobcomp: extras.jobcomp });
    const { problems, seq } = ctl.recover();
    const rc = await select.init(
      ctl.table.nodes,
      [...ctl.jobs.values()].map((job) => job.record),
      ranks,
    );
    if (rc !== 0) throw new UserError(`${selectPlugin.type}: could not take over the running jobs (rc ${rc})`);
    const dims = await select.baGetDims();
    if (dims !== null) log.info(`${selectPlugin.type}: system dimensions ${dims.join('x')}`);
    ctl.store.open({ seq, jobs: ctl.storedJobs(), nodes: ctl.nodeStates.stored() });
    ctl.accountingSink = await extras.openAccounting?.(ctl);
    return { ctl, problems };
  }

  /** The accounting store's writer, when one is open. */
  get accounting(): AccountingSink | undefined {
    return this.accountingSink;
  }

  get log(): Logger {
    return this.options.log;
  }

  /** Now, Unix seconds: the scheduler's clock (virtual under `tsctld --simulate`). */
  now(): number {
    return this.options.clock ? this.options.clock() : Math.floor(Date.now() / 1000);
  }

  // The journal and snapshot read back into the table: reservations, partition changes, jobs
  // and node states, and priority/basic's count going on from the lowest priority given.
  private recover(): { problems: string[]; seq: number } {
    const recovered = this.store.recover();
    this.reservations.load((problem) => recovered.problems.push(problem));
    restorePartitions(this, (problem) => recovered.problems.push(problem));
    for (const stored of [...recovered.jobs.values()].sort((a, b) => a.id - b.id)) this.restoreJob(stored);
    this.nodeStates.restore(recovered.nodes.values());
    this.nodeStates.refresh(this.jobs.values());
    for (const job of this.jobs.values()) {
      // The count goes on from the lowest un-niced priority (a --nice moves only its own job).
      const unniced = job.record.priority + (job.record.details.nice ?? 0);
      if (job.record.priority > 0 && unniced > 0 && unniced < this.lastPriority) this.lastPriority = unniced;
    }
    return { problems: recovered.problems, seq: recovered.seq };
  }

  /** Before node information goes out: select_p_select_nodeinfo_set_all, when anything changed. */
  async nodeinfoSetAll(): Promise<void> {
    if (!this.nodeinfoStale) return;
    this.nodeinfoStale = false;
    const rc = await this.select.nodeinfoSetAll();
    if (rc !== 0) this.log.error(`select_p_select_nodeinfo_set_all failed (rc ${rc})`);
  }

  /** Node states changed (not through a job): node information must be refreshed. */
  nodesChanged(): void {
    this.nodeinfoStale = true;
  }

  // ---- the job table ----

  byId(id: number): readonly CtldJob[] {
    const tasks = this.arrays.get(id);
    if (tasks) return tasks;
    const job = this.jobs.get(id);
    return job ? [job] : [];
  }

  byName(userId: number, name: string): readonly CtldJob[] {
    return [...this.jobs.values()].filter((job) => job.record.user_id === userId && job.record.name === name);
  }

  /** Adds a job to the table (on submit and on recovery). */
  addJob(job: CtldJob): void {
    this.jobs.set(job.record.job_id, job);
    if (job.arrayJobId !== 0) {
      const tasks = this.arrays.get(job.arrayJobId) ?? [];
      tasks.push(job);
      this.arrays.set(job.arrayJobId, tasks);
    }
  }

  removeJob(job: CtldJob): void {
    if (this.jobs.delete(job.record.job_id)) this.diag.notePurged(job.record);
    if (job.arrayJobId !== 0) {
      const left = (this.arrays.get(job.arrayJobId) ?? []).filter((t) => t !== job);
      if (left.length === 0) this.arrays.delete(job.arrayJobId);
      else this.arrays.set(job.arrayJobId, left);
    }
  }

  pendingJobs(): CtldJob[] {
    return [...this.jobs.values()].filter((job) => (job.record.job_state & JOB_STATE_BASE) === JOB_PENDING);
  }

  runningJobs(): CtldJob[] {
    return [...this.jobs.values()].filter((job) => {
      const base = job.record.job_state & JOB_STATE_BASE;
      return base === JOB_RUNNING || base === JOB_SUSPENDED;
    });
  }

  /** Jobs still pending or running, or still being cleaned up. */
  get activeCount(): number {
    let n = 0;
    for (const job of this.jobs.values()) if (!isFinished(job.record.job_state) || job.stepdPid !== undefined) n++;
    return n;
  }

  /** A new job record built from a submission (the partition looked up by name). */
  buildRecord(desc: JobDescriptor, jobId: number, partitionName: string, submitTime: number): CtldJob['record'] {
    const partition = this.options.config.partitions.find((p) => p.name === partitionName)!;
    return jobRecordFromDesc(desc, jobId, partition, this.table, submitTime);
  }

  // ---- persistence ----

  /**
   * Adds new jobs and journals them; resolves once they are on disk. They are in the table
   * meanwhile (a snapshot taken then must hold them) but not scheduled; if the journal
   * cannot take them they are taken out again and the submission is refused.
   */
  async addJournaled(jobs: readonly CtldJob[]): Promise<void> {
    for (const job of jobs) {
      job.unjournaled = true;
      this.addJob(job);
    }
    try {
      await this.journalSubmitted(jobs);
    } catch (error) {
      for (const job of jobs) this.removeJob(job);
      throw error;
    } finally {
      for (const job of jobs) job.unjournaled = undefined;
    }
  }

  /**
   * Adds a new allocation (tsrun, tsalloc), lets `decide` (a scheduling pass) start it if it
   * can, then journals its submit record as the job then stands; resolves once that is on
   * disk. One disk flush so makes the job and its start durable before the answer goes out,
   * where a submit record and then a start record took two. What changes on the job before its
   * record is written is carried by the record, not journaled on its own (journalProgress). If
   * the journal cannot take it, the job is taken out again, with its resources, and the
   * submission refused.
   */
  async addDecided(job: CtldJob, decide: () => Promise<void>): Promise<void> {
    job.submitAfterPass = true;
    this.addJob(job);
    try {
      await decide();
    } catch (error) {
      job.submitAfterPass = undefined;
      await this.withdraw(job);
      throw error;
    }
    // From here on the job's changes follow its submit record in the journal.
    job.submitAfterPass = undefined;
    try {
      await this.journalSubmit(job);
    } catch (error) {
      await this.withdraw(job);
      throw error;
    }
  }

  // A new job the journal did not take: out of the table, its resources given back.
  private async withdraw(job: CtldJob): Promise<void> {
    const record = job.record;
    if (record.node_bitmap !== null && !isFinished(record.job_state)) {
      await this.select.release(record);
      await this.sched.freealloc(record);
    }
    record.node_bitmap = null;
    this.removeJob(job);
    this.changed();
  }

  /**
   * Journals new jobs; resolves once they are on disk. An array's tasks go as one record (its
   * first task, then each task's index and priority): one JSON text for the whole array where
   * a record per task made a 1,000-task submission hold the loop ~50 ms (measured: 50 us per
   * task's JSON.stringify), and the array is on disk whole or not at all.
   */
  private async journalSubmitted(jobs: readonly CtldJob[]): Promise<void> {
    const [first] = jobs;
    const consecutive = jobs.every((job, k) => job.arrayJobId === first!.record.job_id && job.record.job_id === first!.record.job_id + k);
    if (jobs.length < 2 || !consecutive) {
      await Promise.all(jobs.map((job) => this.journalSubmit(job)));
      return;
    }
    const tasks = jobs.map((job): [number, number] => [job.arrayTaskId!, job.record.priority]);
    await this.store.append({ t: 'submit_array', job: storedJobOf(first!, this.table), tasks });
    for (const job of jobs) this.accounting?.jobChanged(job);
  }

  /** Journals a new job; resolves once it is on disk. */
  async journalSubmit(job: CtldJob): Promise<void> {
    await this.store.append({ t: 'submit', job: storedJobOf(job, this.table) });
    this.accounting?.jobChanged(job);
  }

  /**
   * Journals what changed on a job; resolves once it is on disk. `grouped`: a start, flushed
   * with the other starts of its pass announced with store.expectGrouped. `written`: resolves
   * once the record is in the journal file, before its flush to the disk (journalEnd).
   */
  async journalProgress(job: CtldJob, grouped = false, written = false): Promise<void> {
    this.changed();
    // Its submit record, still to be written, will carry this change.
    if (job.submitAfterPass === true) return;
    const record = { t: 'progress', id: job.record.job_id, p: progressOf(job, this.table) } as const;
    if (written) await new Promise<void>((resolve) => void this.store.append(record, grouped, resolve));
    else await this.store.append(record, grouped);
    this.accounting?.jobChanged(job);
    // Not awaited: the snapshot is written off the loop, and this change is on disk already. A
    // snapshot that fails (a full disk) has put the store in its failing state, which the log says.
    if (this.store.snapshotDue) this.saveSnapshot().catch(() => {});
  }

  /** While the journal cannot be written: tries again (a snapshot), at most every few seconds. */
  retryJournal(): Promise<void> {
    return this.store.retry(() => ({ jobs: this.storedJobs(), nodes: this.nodeStates.stored() }));
  }

  journalPurge(job: CtldJob): Promise<void> {
    return this.store.append({ t: 'purge', id: job.record.job_id });
  }

  /**
   * A snapshot of the job table, and select_p_state_save beside it; one at a time (a call while
   * one is under way waits for it, then writes its own).
   */
  saveSnapshot(): Promise<void> {
    // Asked of the store at once, so that snapshotDue turns false for the changes that follow.
    const stored = this.store.snapshot(() => ({ jobs: this.storedJobs(), nodes: this.nodeStates.stored() }));
    // Handled below, perhaps only after the previous save: not an unhandled rejection meanwhile.
    stored.catch(() => {});
    const saved = this.saving.then(async () => {
      await stored;
      const rc = await this.select.stateSave();
      if (rc !== 0) this.log.error(`select_p_state_save failed (rc ${rc})`);
    });
    this.saving = saved.catch(() => {});
    return saved;
  }

  private storedJobs(): StoredJob[] {
    return [...this.jobs.values()].map((job) => storedJobOf(job, this.table));
  }

  private restoreJob(stored: StoredJob): void {
    const partition = this.options.config.partitions.find((p) => p.name === stored.partition) ?? this.options.config.partitions[0]!;
    let record: CtldJob['record'];
    try {
      record = jobRecordFromDesc(stored.desc, stored.id, partition, this.table, stored.submit);
    } catch (error) {
      this.log.error(`job ${stored.id} could not be recovered: ${(error as Error).message}`);
      return;
    }
    const job = newJob(record, stored.desc, {
      arrayJobId: stored.arrayJobId,
      arrayTaskId: stored.arrayTaskId ?? undefined,
      arrayMaxRunning: stored.arrayMaxRunning ?? undefined,
    });
    applyProgress(job, stored, this.table);
    this.addJob(job);
  }

  // ---- waiting for jobs ----

  /** Resolves when every job given has finished (and its step daemon is gone). */
  whenFinished(jobs: readonly CtldJob[]): Promise<void> {
    return Promise.all(
      jobs.map(
        (job) =>
          new Promise<void>((resolve) => {
            if (this.isDone(job)) return resolve();
            const list = this.finishedWaiters.get(job.record.job_id) ?? [];
            list.push(resolve);
            this.finishedWaiters.set(job.record.job_id, list);
          }),
      ),
    ).then(() => {});
  }

  isDone(job: CtldJob): boolean {
    return isFinished(job.record.job_state) && job.stepdPid === undefined;
  }

  /** Call after a job finished (and its step daemon is gone). */
  notifyFinished(job: CtldJob): void {
    this.finishedListeners.forEach((listener) => listener(job));
    const list = this.finishedWaiters.get(job.record.job_id);
    if (!list || !this.isDone(job)) return;
    this.finishedWaiters.delete(job.record.job_id);
    list.forEach((resolve) => resolve());
  }

  /** Called once for each job that ends (its state and end time final), e.g. for jobcomp. */
  onJobFinished(listener: (job: CtldJob) => void): () => void {
    this.finishedListeners.add(listener);
    return () => this.finishedListeners.delete(listener);
  }

  onChange(listener: () => void): () => void {
    this.changeListeners.add(listener);
    return () => this.changeListeners.delete(listener);
  }

  /**
   * Called when a running job is being killed (tscancel, time limit, ...): its steps are ended;
   * the listener resolves once the steps' launchers have taken the order.
   */
  onJobEnding(listener: (job: CtldJob) => Promise<void>): () => void {
    this.endingListeners.add(listener);
    return () => this.endingListeners.delete(listener);
  }

  /**
   * A running job is being killed (slurmctld's job kill reaching its steps); resolves once its
   * steps' launchers have taken the order, or after `withinMs` whatever they did.
   */
  async jobEnding(job: CtldJob, withinMs = 0): Promise<void> {
    const taken = Promise.all([...this.endingListeners].map((listener) => listener(job)));
    if (withinMs <= 0) return;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([taken, new Promise<void>((resolve) => (timer = setTimeout(resolve, withinMs)))]);
    clearTimeout(timer);
  }

  private changed(): void {
    this.nodeinfoStale = true;
    for (const listener of this.changeListeners) listener();
  }

  /** The records plugins see, for a list of jobs. */
  static records(jobs: readonly CtldJob[]): job_record_t[] {
    return jobs.map((job) => job.record);
  }
}
