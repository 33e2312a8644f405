// tsrestd's copy of the controller's job list, brought up to date by asking only for what
// changed since the last answer (`jobs_since`, ctld/jobs-feed.ts): a queue of 10,000 jobs where
// one changed costs one job on the wire, not ten thousand. GET /jobs and the dashboard's
// sampler share the one copy. A changed job is a new object, so what was derived from the old
// one (jobs-listing.ts's JSON text) can be kept by object identity.
import type { JobView } from '../protocol/job-view.js';
import type { JobsChanges } from '../protocol/jobs-changes.js';
import type { ControllerLink } from './controller-link.js';

type How = 'call' | 'watch';

export class JobsMirror {
  private feed = '';
  private cursor = 0;
  private readonly byId = new Map<number, JobView>();
  private list: JobView[] = [];
  private version = 0;
  private running: Promise<void> | undefined;
  private queued: Promise<void> | undefined;
  /** The update queued asks as a user's request if any caller waiting for it is one. */
  private queuedAs: How = 'watch';

  constructor(private readonly controller: Pick<ControllerLink, 'call' | 'watch'>) {}

  /**
   * Brings the copy up to date and answers the jobs in the controller's order, and a number
   * that changes whenever the list does. `how`: a user's request (`call`, which starts the
   * controller when none runs) or a watcher's (the dashboard's polls, controller-link.ts). A
   * caller that comes while an update is under way waits for the next one (which sees what
   * changed before it came); callers that come together share it.
   */
  async jobs(how: How = 'call'): Promise<{ views: readonly JobView[]; version: number }> {
    await this.update(how);
    return { views: this.list, version: this.version };
  }

  private update(how: How): Promise<void> {
    if (!this.running) return this.start(how);
    if (how === 'call') this.queuedAs = 'call';
    this.queued ??= this.running.then(
      () => this.start(this.queuedAs),
      () => this.start(this.queuedAs),
    );
    return this.queued;
  }

  private start(how: How): Promise<void> {
    this.queued = undefined;
    this.queuedAs = 'watch';
    const run = this.fetch(how).finally(() => {
      if (this.running === run) this.running = undefined;
    });
    this.running = run;
    return run;
  }

  private async fetch(how: How): Promise<void> {
    const body = { feed: this.feed, cursor: this.cursor };
    const answer = how === 'call' ? await this.controller.call<JobsChanges>('jobs_since', body) : await this.controller.watch<JobsChanges>('jobs_since', body);
    this.take(answer);
  }

  /** Takes in one answer of the controller's. */
  take(answer: JobsChanges): void {
    const changed = answer.full || answer.jobs.length > 0 || answer.removed.length > 0;
    if (answer.full) this.byId.clear();
    for (const id of answer.removed) this.byId.delete(id);
    for (const view of answer.jobs) this.byId.set(view.jobId, view);
    this.feed = answer.feed;
    this.cursor = answer.cursor;
    if (!changed) return;
    this.version++;
    // A full answer is in the controller's order; new jobs come after the ones already here,
    // where the controller adds them too. An update in place keeps a job's place.
    this.list = [...this.byId.values()];
  }
}

const mirrors = new WeakMap<object, JobsMirror>();

/** The one mirror of a controller link's job list. */
export function jobsMirror(controller: ControllerLink): JobsMirror {
  let mirror = mirrors.get(controller);
  if (!mirror) mirrors.set(controller, (mirror = new JobsMirror(controller)));
  return mirror;
}
