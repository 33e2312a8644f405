// The job list for a client that keeps its own copy (tsrestd): only the jobs whose view changed
// since the client's cursor, and the ids of the jobs gone since, as slurm_load_jobs(update_time)
// spares slurmrestd the jobs it has. Changes are found by comparing each job's view with the
// one last taken, so nothing has to be kept in step with the many places that change jobs;
// comparing 10,000 views costs a few milliseconds, encoding them for the wire is what costs.
import { randomUUID } from 'node:crypto';
import type { JobView } from '../protocol/job-view.js';
import type { JobsChanges } from '../protocol/jobs-changes.js';

/** Removals remembered for clients behind; a client further behind is sent the whole list. */
const MAX_REMOVALS = 100_000;

interface Known {
  /** A copy: a view shares arrays and objects with the job, which may change in place. */
  view: JobView;
  version: number;
  pass: number;
}

export class JobsFeed {
  /** New with each controller: a cursor from another one means nothing here. */
  readonly id = randomUUID();
  private version = 0;
  private pass = 0;
  private readonly known = new Map<number, Known>();
  private readonly removedAt = new Map<number, number>();
  /** Removals at or before this version are forgotten. */
  private horizon = 0;

  /**
   * Takes in the current views (in the controller's order) and answers what changed after
   * `cursor` of feed `feed`; the whole list (`full`) for a cursor of another feed or one too old.
   */
  changes(views: Iterable<JobView>, feed: string, cursor: number): JobsChanges {
    const next = this.version + 1;
    const pass = ++this.pass;
    let touched = false;
    const current: Known[] = [];
    for (const view of views) {
      const before = this.known.get(view.jobId);
      if (before && sameJson(before.view, view)) {
        before.pass = pass;
        current.push(before);
        continue;
      }
      const entry = { view: structuredClone(view), version: next, pass };
      this.known.set(view.jobId, entry);
      this.removedAt.delete(view.jobId);
      current.push(entry);
      touched = true;
    }
    for (const [id, entry] of this.known) {
      if (entry.pass === pass) continue;
      this.known.delete(id);
      this.removedAt.set(id, next);
      touched = true;
    }
    if (touched) this.version = next;
    this.forgetOldRemovals();
    const full = feed !== this.id || cursor > this.version || cursor < this.horizon;
    const since = full ? -1 : cursor;
    const removed: number[] = [];
    if (!full) for (const [id, at] of this.removedAt) if (at > since) removed.push(id);
    return { feed: this.id, cursor: this.version, full, jobs: current.filter((e) => e.version > since).map((e) => e.view), removed };
  }

  private forgetOldRemovals(): void {
    if (this.removedAt.size <= MAX_REMOVALS) return;
    // Map order is removal order, so the first ones are the oldest.
    for (const [id, at] of this.removedAt) {
      if (this.removedAt.size <= MAX_REMOVALS) break;
      this.removedAt.delete(id);
      this.horizon = Math.max(this.horizon, at);
    }
  }
}

/** Whether two JSON values (views) are alike: what JSON.stringify would write the same. */
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!sameJson(a[i], b[i])) return false;
    return true;
  }
  if (Array.isArray(b)) return false;
  const ra = a as Record<string, unknown>;
  const rb = b as Record<string, unknown>;
  let count = 0;
  for (const key in ra) {
    if (ra[key] === undefined) continue;
    count++;
    if (!sameJson(ra[key], rb[key])) return false;
  }
  for (const key in rb) if (rb[key] !== undefined) count--;
  return count === 0;
}
