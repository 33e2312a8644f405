import { describe, expect, it } from 'vitest';
import { JobsFeed, sameJson } from '../../../src/ctld/jobs-feed.js';
import type { JobView } from '../../../src/protocol/job-view.js';

// The fields the feed looks at are all of them; a few make the point.
const view = (jobId: number, extra: Partial<JobView> = {}): JobView => ({ jobId, name: `j${jobId}`, state: 0, reason: 'None', options: { environment: ['A=1'] }, ...extra }) as unknown as JobView;
const ids = (views: readonly JobView[]) => views.map((v) => v.jobId);

describe('the job feed (jobs_since)', () => {
  it('sends the whole list to a new client, then only what changed and what went', () => {
    const feed = new JobsFeed();
    const first = feed.changes([view(1), view(2), view(3)], '', 0);
    expect([first.full, ids(first.jobs), first.removed]).toEqual([true, [1, 2, 3], []]);

    const quiet = feed.changes([view(1), view(2), view(3)], first.feed, first.cursor);
    expect([quiet.full, quiet.jobs, quiet.removed, quiet.cursor]).toEqual([false, [], [], first.cursor]);

    const next = feed.changes([view(1), view(2, { reason: 'Priority' }), view(4)], first.feed, first.cursor);
    expect([next.full, ids(next.jobs), next.removed]).toEqual([false, [2, 4], [3]]);
    expect(next.jobs[0]!.reason).toBe('Priority');
    expect(next.cursor).toBeGreaterThan(first.cursor);

    // A client that missed the last answer gets it again with its old cursor; one up to date gets nothing.
    expect(ids(feed.changes([view(1), view(2, { reason: 'Priority' }), view(4)], first.feed, first.cursor).jobs)).toEqual([2, 4]);
    expect(feed.changes([view(1), view(2, { reason: 'Priority' }), view(4)], next.feed, next.cursor).jobs).toEqual([]);
  });

  it('sees a change made in place in what a view shares with its job', () => {
    const feed = new JobsFeed();
    const shared = { environment: ['A=1'] };
    const first = feed.changes([view(1, { options: shared } as Partial<JobView>)], '', 0);
    shared.environment.push('B=2');
    const after = feed.changes([view(1, { options: shared } as Partial<JobView>)], first.feed, first.cursor);
    expect(ids(after.jobs)).toEqual([1]);
  });

  it('sends the whole list for a cursor of another controller', () => {
    const feed = new JobsFeed();
    const first = feed.changes([view(1)], '', 0);
    const other = new JobsFeed().changes([view(1)], '', 0);
    const answer = feed.changes([view(1), view(2)], other.feed, first.cursor);
    expect([answer.full, ids(answer.jobs), answer.feed]).toEqual([true, [1, 2], first.feed]);
  });
});

describe('sameJson', () => {
  it('compares as JSON would write the values', () => {
    expect(sameJson({ a: 1, b: [1, { c: null }] }, { b: [1, { c: null }], a: 1 })).toBe(true);
    expect(sameJson({ a: 1, b: undefined }, { a: 1 })).toBe(true);
    expect(sameJson({ a: 1 }, { a: 1, b: 2 })).toBe(false);
    expect(sameJson({ a: [1, 2] }, { a: [1, 2, 3] })).toBe(false);
    expect(sameJson({ a: null }, { a: 0 })).toBe(false);
    expect(sameJson([], {})).toBe(false);
  });
});
