// The dashboard's one reader of the controller: every few seconds it asks for the nodes and
// the jobs, keeps the last hour of load and the log of job ends, and hands each poll to the
// pages watching as one message. However many pages are open, the controller is asked once.
//
// It polls only while a page watches: with none open it asks the controller nothing (a poll of
// a large cluster is a node listing and a comparison of its whole job list, every few seconds,
// around the clock, for nobody). What a page shows on open is kept across the unwatched time:
// the last picture, taken afresh as the page opens (refresh); the hour's samples taken while
// pages watched, with the unwatched stretches left as gaps, which the chart draws as breaks
// rather than as lines across them (a sample made up for a time nobody polled would be
// invented); and the job-end log, which catches up at the first poll after the gap from the
// ended jobs the controller still lists (it keeps them MinJobAge, 300 s by default; the
// accounting store, tsacct, has every one).

import type { JobView } from '../../protocol/job-view.js';
import type { NodeInfo } from '../../protocol/node-info.js';
import { LoadHistory, loadSample, type LoadSample } from './history.js';
import { JobEndLog, type JobEnd } from './job-ends.js';
import { dashJob, dashNode, type DashJob, type DashNode } from './view.js';

/** Where the sampler reads the cluster: the controller, through tsrestd's client. */
export interface ClusterReader {
  nodes(): Promise<NodeInfo[]>;
  jobs(): Promise<readonly JobView[]>;
}

/** One poll as the page receives it. */
export interface DashState {
  /** Unix milliseconds on the server (the page measures elapsed times against it, not its own clock). */
  now: number;
  nodes: DashNode[];
  /** The queue: pending, running, suspended and completing jobs. */
  jobs: DashJob[];
  sample: LoadSample;
  /** Job ends found by this poll, newest first. */
  ends: JobEnd[];
  /** Why the controller could not be read, or null. */
  error: string | null;
}

/** What a page is sent when it connects: the last poll, the hour so far and the log. */
export interface DashWelcome {
  state: DashState | null;
  history: readonly LoadSample[];
  ends: readonly JobEnd[];
  intervalMs: number;
}

export type StateListener = (state: DashState) => void;

export class DashboardSampler {
  private readonly history = new LoadHistory();
  private readonly endLog = new JobEndLog();
  private readonly listeners = new Set<StateListener>();
  /** A job unchanged since the last poll is the same view object (jobs-mirror.ts). */
  private readonly dashJobs = new WeakMap<JobView, DashJob>();
  private last: DashState | null = null;
  private timer: NodeJS.Timeout | undefined;
  private polling: Promise<void> | undefined;
  /** Polls are being made at the interval (a page watches, or did at the last poll). */
  private ticking = false;
  private stopped = false;

  constructor(
    private readonly reader: ClusterReader,
    readonly intervalMs: number,
    private readonly clock: () => number = Date.now,
  ) {}

  /** Stops polling for good and waits for a poll in flight. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.polling;
  }

  /** A page watches from now on: polls go on at the interval until the last one leaves. */
  subscribe(listener: StateListener): () => void {
    this.listeners.add(listener);
    if (!this.ticking && !this.stopped) {
      this.ticking = true;
      const due = (this.last?.now ?? -Infinity) + this.intervalMs - this.clock();
      this.timer = setTimeout(() => void this.tick(), Math.max(0, due)).unref();
    }
    return () => {
      this.listeners.delete(listener);
      // The last page gone between two polls: the next is not made.
      if (this.listeners.size === 0 && this.ticking && this.polling === undefined) {
        clearTimeout(this.timer);
        this.ticking = false;
      }
    };
  }

  /** Whether polls are being made (a page watches). */
  get sampling(): boolean {
    return this.ticking;
  }

  /** Polls now unless the last poll is recent (within the interval): a page opening gets a fresh picture. */
  async refresh(): Promise<void> {
    if (this.polling) return this.polling;
    if (this.last !== null && this.clock() - this.last.now < this.intervalMs) return;
    await this.poll().catch(() => {});
  }

  welcome(): DashWelcome {
    return { state: this.last, history: this.history.list(), ends: this.endLog.list(), intervalMs: this.intervalMs };
  }

  /** Polls once now (the timer's work; tests call it to step the sampler). */
  async poll(): Promise<DashState> {
    const now = this.clock();
    // After a stretch nobody watched: the job ends of that stretch are caught up with.
    if (this.last !== null && now - this.last.now > 2 * this.intervalMs) this.endLog.catchUp();
    let state: DashState;
    try {
      const [nodes, jobs] = await Promise.all([this.reader.nodes(), this.reader.jobs()]);
      const dashNodes = nodes.map(dashNode);
      const dashJobs = jobs.map((view) => this.dashJobOf(view));
      const ends = this.endLog.observe(dashJobs, Math.floor(now / 1000));
      const queue = dashJobs.filter((job) => !job.ended);
      const sample = loadSample(now, dashNodes, queue);
      this.history.add(sample);
      state = { now, nodes: dashNodes, jobs: queue, sample, ends, error: null };
    } catch (error) {
      // A controller that is away (restarting) is shown on the page; the last picture stays.
      const previous = this.last;
      const sample = { ...(previous?.sample ?? loadSample(now, [], [])), t: now };
      state = { now, nodes: previous?.nodes ?? [], jobs: previous?.jobs ?? [], sample, ends: [], error: (error as Error).message };
    }
    this.last = state;
    for (const listener of this.listeners) listener(state);
    return state;
  }

  private dashJobOf(view: JobView): DashJob {
    let job = this.dashJobs.get(view);
    if (!job) this.dashJobs.set(view, (job = dashJob(view)));
    return job;
  }

  private async tick(): Promise<void> {
    this.polling = this.poll().then(
      () => undefined,
      () => undefined,
    );
    await this.polling;
    this.polling = undefined;
    // No page left: no more polls until one opens (subscribe).
    if (this.stopped || this.listeners.size === 0) {
      this.ticking = false;
      return;
    }
    // Unreferenced: the sampler never keeps tsrestd alive once its listeners have closed.
    this.timer = setTimeout(() => void this.tick(), this.intervalMs).unref();
  }
}
