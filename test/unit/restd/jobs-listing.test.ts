// tsrestd's copy of the job list and GET /jobs written from it, against the controller's real
// feed (ctld/jobs-feed.ts) standing in for the controller: the listing is always what writing
// the whole list afresh gives, while only changed jobs travel and are written again.
import { describe, expect, it } from 'vitest';
import { JobsFeed } from '../../../src/ctld/jobs-feed.js';
import { buildRecords } from '../../../src/cli/format/squeue-records.js';
import { jobToData } from '../../../src/cli/format/job-data.js';
import type { JobView } from '../../../src/protocol/job-view.js';
import type { JobsChanges } from '../../../src/protocol/jobs-changes.js';
import { JobsMirror, jobsMirror } from '../../../src/restd/jobs-mirror.js';
import { jobsListing } from '../../../src/restd/jobs-listing.js';
import type { RestContext } from '../../../src/restd/context.js';
import type { ControllerLink } from '../../../src/restd/controller-link.js';

const INFINITE = 0xffffffff;
const START = 1795315771;

function view(over: Partial<JobView>): JobView {
  return {
    jobId: 1, arrayJobId: 0, arrayTaskId: null, arrayMaxRunning: null, defaultNodeMemory: null, name: 'wrap', userId: 0, userName: 'root', groupId: 0,
    partition: 'debug', state: 0, reason: 'None', priority: 1, timeLimit: INFINITE, submitTime: START, eligibleTime: START, startTime: 0, endTime: 0,
    nodes: null, numNodes: 1, numCpus: 1, numTasks: null, cpusPerTask: null, minNodes: null, memPerNode: null, memPerCpu: null, features: null, gres: null,
    exitStatus: 0, dependency: null, held: null, requeue: true, restartCount: 0, workDir: '/tmp/x', command: '', stdout: 'slurm-%j.out', stderr: 'slurm-%j.out',
    stdin: '/dev/null', batchHost: null, comment: null, active: false, ntasksPerNode: null, maxNodes: null, reqNodes: null, excNodes: null, contiguous: false,
    exclusive: false, gpus: null, outputGiven: false, errorGiven: false, allocNode: 'localhost',
    ...over,
  };
}

/** A controller whose job list the test sets; it answers jobs_since through a real feed, counting the jobs sent. */
function fakeController() {
  let feed = new JobsFeed();
  const state = { jobs: [] as JobView[], sent: 0, calls: 0, asked: [] as string[], restart: () => (feed = new JobsFeed()) };
  const answer = async <T>(how: string, op: string, body: { feed: string; cursor: number }): Promise<T> => {
    expect(op).toBe('jobs_since');
    state.calls++;
    state.asked.push(how);
    // Through JSON, as the socket carries it: the answer's views are new objects.
    const changes = JSON.parse(JSON.stringify(feed.changes(state.jobs.map((j) => structuredClone(j)), body.feed, body.cursor))) as JobsChanges;
    state.sent += changes.jobs.length;
    return changes as T;
  };
  const controller = {
    call: <T>(op: string, body: { feed: string; cursor: number }) => answer<T>('call', op, body),
    watch: <T>(op: string, body: { feed: string; cursor: number }) => answer<T>('watch', op, body),
  };
  return { state, controller: controller as unknown as ControllerLink };
}

const afresh = (jobs: JobView[]) => JSON.parse(JSON.stringify({ jobs: buildRecords(jobs).map((rec) => jobToData(rec, 'c1')) })).jobs;

describe("tsrestd's copy of the job list", () => {
  it('follows additions, changes and removals, keeping the controller\'s order, with only the changes sent', async () => {
    const { state, controller } = fakeController();
    const mirror = new JobsMirror(controller);
    state.jobs = [1, 2, 3].map((id) => view({ jobId: id }));
    const first = await mirror.jobs();
    expect([first.views.map((v) => v.jobId), state.sent]).toEqual([[1, 2, 3], 3]);

    const quiet = await mirror.jobs();
    expect([quiet.version, quiet.views, state.sent]).toEqual([first.version, first.views, 3]);

    state.jobs = [view({ jobId: 1 }), view({ jobId: 2, reason: 'Priority' }), view({ jobId: 4 })];
    const next = await mirror.jobs();
    expect(next.views.map((v) => [v.jobId, v.reason])).toEqual([[1, 'None'], [2, 'Priority'], [4, 'None']]);
    expect(next.version).not.toBe(first.version);
    expect(state.sent).toBe(5);
    // An unchanged job is the same object as before (what the listing keeps its text by).
    expect(next.views[0]).toBe(first.views[0]);

    // A restarted controller: the whole list again, in its order.
    state.restart();
    state.jobs = [view({ jobId: 4 }), view({ jobId: 1 })];
    expect((await mirror.jobs()).views.map((v) => v.jobId)).toEqual([4, 1]);
  });

  it('asks once for callers that come while an answer is awaited, and again for those after', async () => {
    const { state, controller } = fakeController();
    const mirror = new JobsMirror(controller);
    state.jobs = [view({ jobId: 1 })];
    const together = await Promise.all([mirror.jobs('watch'), mirror.jobs('watch'), mirror.jobs(), mirror.jobs('watch')]);
    // The first asks (as a watcher); the three that came during it share one more question,
    // asked as a user's request since one of them is.
    expect(state.asked).toEqual(['watch', 'call']);
    expect(together.every((t) => t.views.length === 1)).toBe(true);
  });
});

describe('GET /jobs written from the copy', () => {
  it('is the whole list written afresh, after every kind of change, array tasks kept together included', async () => {
    const { state, controller } = fakeController();
    const ctx = { controller, clusterName: 'c1' } as RestContext;
    const listing = async () => JSON.parse((await jobsListing(ctx)).toString());
    const tasks = [11, 12, 13].map((id, i) => view({ jobId: id, arrayJobId: 11, arrayTaskId: i, reason: 'Priority' }));
    state.jobs = [view({ jobId: 1 }), ...tasks, view({ jobId: 20, name: 'last' })];
    const first = await listing();
    expect(first).toMatchObject({ errors: [], meta: expect.any(Object) });
    expect(first.jobs).toEqual(afresh(state.jobs));

    // The array's last task starts: it leaves the array's record (whose first task is unchanged);
    // another job's name changes; one goes.
    state.jobs = [view({ jobId: 1, name: 'renamed' }), tasks[0]!, tasks[1]!, { ...tasks[2]!, state: 1, startTime: START, reason: 'None' }];
    expect((await listing()).jobs).toEqual(afresh(state.jobs));
    expect(jobsMirror(controller)).toBeInstanceOf(JobsMirror);
  });

  it('sends the same bytes again while nothing changed', async () => {
    const { state, controller } = fakeController();
    const ctx = { controller, clusterName: 'c1' } as RestContext;
    state.jobs = [view({ jobId: 1 })];
    const a = await jobsListing(ctx);
    expect(await jobsListing(ctx)).toBe(a);
    state.jobs = [view({ jobId: 1, comment: 'now' })];
    const b = await jobsListing(ctx);
    expect(b).not.toBe(a);
    expect(JSON.parse(b.toString()).jobs[0].comment).toBe('now');
  });
});
