// Whether a job's --dependency is met, as slurmctld's test_job_dependency decides it:
// each term is met, waiting, or can never be met; `,` needs every term, `?` any one.
// A job the controller no longer knows (purged after MinJobAge) lifts the term naming it.
import { JOB_COMPLETE, JOB_PENDING, JOB_STATE_BASE } from '../plugin-api/records.js';
import { isFinished } from '../core/job-state.js';
import type { DependencyTerm } from '../protocol/job-desc.js';
import type { CtldJob } from './job.js';

export type DependencyState = 'met' | 'waiting' | 'never';

export interface JobLookup {
  /** The job with this id, or every task of the array with this id. */
  byId(id: number): readonly CtldJob[];
  /** Jobs of this user with this name (for singleton). */
  byName(userId: number, name: string): readonly CtldJob[];
}

export function dependencyState(job: CtldJob, jobs: JobLookup, now: number): DependencyState {
  const spec = job.dependency;
  if (spec === undefined) return 'met';
  const states = spec.terms.map((term) => termState(job, term, jobs, now));
  if (spec.combine === 'any') {
    if (states.includes('met')) return 'met';
    return states.every((s) => s === 'never') ? 'never' : 'waiting';
  }
  if (states.includes('never')) return 'never';
  return states.every((s) => s === 'met') ? 'met' : 'waiting';
}

function termState(job: CtldJob, term: DependencyTerm, jobs: JobLookup, now: number): DependencyState {
  if (term.type === 'singleton') {
    const blocking = jobs
      .byName(job.record.user_id, job.record.name)
      .some((other) => other !== job && !isFinished(other.record.job_state) && (isStarted(other) || other.record.job_id < job.record.job_id));
    return blocking ? 'waiting' : 'met';
  }
  const perJob = term.jobs.map((ref) => {
    let targets = jobs.byId(ref.jobId);
    if (ref.arrayTaskId !== undefined) targets = targets.filter((t) => t.arrayTaskId === ref.arrayTaskId);
    if (term.type === 'aftercorr' && job.arrayTaskId !== undefined) {
      const same = targets.filter((t) => t.arrayTaskId === job.arrayTaskId);
      if (same.length > 0) targets = same;
    }
    return combineAll(targets.map((target) => targetState(term.type, target, ref.delayMinutes ?? 0, now)));
  });
  return combineAll(perJob);
}

function combineAll(states: DependencyState[]): DependencyState {
  if (states.includes('never')) return 'never';
  return states.every((s) => s === 'met') ? 'met' : 'waiting';
}

function targetState(type: DependencyTerm['type'], target: CtldJob, delayMinutes: number, now: number): DependencyState {
  const state = target.record.job_state;
  const finished = isFinished(state);
  const ok = (state & JOB_STATE_BASE) === JOB_COMPLETE && target.exitStatus === 0;
  switch (type) {
    case 'after':
      if (finished) return 'met';
      if (!isStarted(target)) return 'waiting';
      return now >= target.record.start_time + delayMinutes * 60 ? 'met' : 'waiting';
    case 'afterany':
    case 'afterburstbuffer':
      return finished ? 'met' : 'waiting';
    case 'afterok':
    case 'aftercorr':
      if (!finished) return 'waiting';
      return ok ? 'met' : 'never';
    case 'afternotok':
      if (!finished) return 'waiting';
      return ok ? 'never' : 'met';
    default:
      return 'waiting';
  }
}

function isStarted(job: CtldJob): boolean {
  return (job.record.job_state & JOB_STATE_BASE) !== JOB_PENDING;
}

/**
 * The Dependency= text Slurm shows: each term still in force with its state,
 * `afterok:12(unfulfilled),afterany:13(unfulfilled)`, `afterok:12(failed)`; met terms are
 * dropped (observed on Slurm 22.05), and nothing left shows as (null).
 */
export function dependencyDisplay(job: CtldJob, jobs: JobLookup, now: number): string | null {
  const spec = job.dependency;
  if (spec === undefined) return null;
  const parts: string[] = [];
  for (const term of spec.terms) {
    if (term.type === 'singleton') {
      const state = termState(job, term, jobs, now);
      if (state !== 'met') parts.push(`singleton(${state === 'never' ? 'failed' : 'unfulfilled'})`);
      continue;
    }
    for (const ref of term.jobs) {
      const state = termState(job, { type: term.type, jobs: [ref] }, jobs, now);
      if (state === 'met') continue;
      const id = `${ref.jobId}${ref.arrayTaskId !== undefined ? `_${ref.arrayTaskId}` : ''}${ref.delayMinutes ? `+${ref.delayMinutes}` : ''}`;
      parts.push(`${term.type}:${id}(${state === 'never' ? 'failed' : 'unfulfilled'})`);
    }
  }
  return parts.length === 0 ? null : parts.join(spec.combine === 'any' ? '?' : ',');
}
