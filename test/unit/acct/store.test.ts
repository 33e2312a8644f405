// The store itself: migrations from an older schema, sacct's window and state selection, the
// step order, retention, and what a full store does to a write.
import { mkdtempSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { MIGRATIONS, SCHEMA_VERSION, migrate } from '../../../src/acct/migrations.js';
import { openStoreForReading, openStoreForWriting } from '../../../src/acct/open-store.js';
import { queryJobs } from '../../../src/acct/query.js';
import { BATCH_STEP_ID, type AcctJob, type AcctStep } from '../../../src/acct/records.js';
import { StoreWriter } from '../../../src/acct/store-writer.js';
import { JOB_COMPLETE, JOB_FAILED, JOB_PENDING, JOB_RUNNING } from '../../../src/plugin-api/records.js';

const Database = createRequire(import.meta.url)('better-sqlite3') as typeof import('better-sqlite3');
const file = () => path.join(mkdtempSync(path.join(tmpdir(), 'tslurm-acct-')), 'accounting.db');

function job(jobId: number, fields: Partial<AcctJob> = {}): Omit<AcctJob, 'steps'> {
  return {
    jobId, arrayJobId: 0, arrayTaskId: null, hetJobId: 0, hetJobOffset: null, name: `j${jobId}`, partition: 'debug', account: '',
    user: 'u', uid: 1000, group: 'g', gid: 1000, cluster: 'c', submit: 100, eligible: 100, start: 110, end: 200, timelimit: 10,
    state: JOB_COMPLETE, cancelledBy: null, exitCode: 0, derivedExitCode: 0, nnodes: 1, ncpus: 1, ntasks: null, nodeList: 'n1',
    reqMem: null, reqTres: '', allocTres: '', workDir: '/w', submitLine: '', reason: 'None', priority: 1, restarts: 0, qos: '',
    ...fields,
  };
}

function step(jobId: number, stepId: number, fields: Partial<AcctStep> = {}): AcctStep {
  return { jobId, stepId, name: 's', start: 110, end: 200, state: JOB_COMPLETE, cancelledBy: null, exitCode: 0, nnodes: 1, ncpus: 1, ntasks: 1, nodeList: 'n1', allocTres: '', usage: null, ...fields };
}

const ids = (jobs: AcctJob[]) => jobs.map((j) => j.jobId);

describe('the accounting store', () => {
  it('brings a version 1 store forward, keeping its records, and refuses one from a newer tslurm', async () => {
    const where = file();
    const old = new Database(where);
    migrate(old, 1);
    expect(old.pragma('user_version', { simple: true })).toBe(1);
    old.prepare("INSERT INTO jobs (job_id, name, partition, user, uid, grp, gid, cluster, submit, end, timelimit, state, nnodes, ncpus) VALUES (7, 'old', 'p', 'u', 1, 'g', 1, 'c', 10, 20, 5, 3, 1, 1)").run();
    old.prepare("INSERT INTO jobs (job_id, name, partition, user, uid, grp, gid, cluster, submit, end, timelimit, state, nnodes, ncpus) VALUES (8, 'running', 'p', 'u', 1, 'g', 1, 'c', 10, 0, 5, 1, 1, 1)").run();
    old.close();
    const { db, migrated } = await openStoreForWriting(where);
    expect(migrated.map((m) => m.version)).toEqual([2]);
    expect(db.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    // The new column was filled from the old rows: a running job is active until the end of time.
    expect(db.prepare('SELECT job_id, active_until FROM jobs ORDER BY job_id').all()).toEqual([{ job_id: 7, active_until: 20 }, { job_id: 8, active_until: 0xffffffff }]);
    expect(queryJobs(db, { start: 15, end: 30 }).map((j) => [j.jobId, j.name])).toEqual([[7, 'old'], [8, 'running']]);
    db.pragma(`user_version = ${SCHEMA_VERSION + 1}`);
    db.close();
    await expect(openStoreForWriting(where)).rejects.toThrow(`schema version ${SCHEMA_VERSION + 1} is newer than this tslurm's (${SCHEMA_VERSION})`);
    expect(MIGRATIONS.map((m) => m.version)).toEqual(MIGRATIONS.map((_, i) => i + 1));
  });

  it("selects by sacct's window and states, and lists steps batch first", async () => {
    const { db } = await openStoreForWriting(file());
    const w = new StoreWriter(db);
    w.writeJob(job(1, { submit: 100, start: 110, end: 200 })); // ended at 200
    w.writeJob(job(2, { submit: 300, start: 310, end: 0, state: JOB_RUNNING }));
    w.writeJob(job(3, { submit: 400, start: 0, end: 0, state: JOB_PENDING }));
    w.writeJob(job(4, { submit: 100, start: 120, end: 500, state: JOB_FAILED, uid: 5 }));
    for (const s of [step(1, 1), step(1, 0), step(1, BATCH_STEP_ID)]) w.writeStep(s);
    expect(ids(queryJobs(db, { start: 250, end: 1000 }))).toEqual([2, 3, 4]);
    expect(ids(queryJobs(db, { start: 0, end: 150 }))).toEqual([1, 4]);
    expect(ids(queryJobs(db, { states: [JOB_COMPLETE], start: 150, end: 250 }))).toEqual([1]);
    expect(ids(queryJobs(db, { states: [JOB_COMPLETE], start: 250, end: 1000 }))).toEqual([]);
    // Running at some time in the window, whatever it ended as later.
    expect(ids(queryJobs(db, { states: [JOB_RUNNING], start: 350, end: 360 }))).toEqual([2, 4]);
    expect(ids(queryJobs(db, { states: [JOB_PENDING], start: 450, end: 460 }))).toEqual([3]);
    expect(ids(queryJobs(db, { uids: [5] }))).toEqual([4]);
    expect(ids(queryJobs(db, { jobIds: [{ jobId: 3 }, { jobId: 1 }] }))).toEqual([1, 3]);
    const [one] = queryJobs(db, { jobIds: [{ jobId: 1 }] });
    expect(one!.steps.map((s) => s.stepId)).toEqual([BATCH_STEP_ID, 0, 1]);
    expect(queryJobs(db, { jobIds: [{ jobId: 1 }], noSteps: true })[0]!.steps).toEqual([]);
    db.close();
  });

  it('keeps usage as written, and none when a step had none', async () => {
    const { db } = await openStoreForWriting(file());
    const w = new StoreWriter(db);
    const usage = { maxRssKiB: 2048, maxRssTask: 1, maxRssNode: 'n2', aveRssKiB: 1024, maxVmSizeKiB: 4096, maxVmSizeTask: 0, maxVmSizeNode: 'n1', aveVmSizeKiB: 3000, userCpuUsec: 1_500_000, systemCpuUsec: 250_000, sampledAt: 200 };
    w.writeJob(job(1));
    w.writeStep(step(1, 0, { usage }));
    w.writeStep(step(1, 1));
    const [read] = queryJobs(db, { jobIds: [{ jobId: 1 }] });
    expect(read!.steps.map((s) => s.usage)).toEqual([usage, null]);
    db.close();
  });

  it('purges jobs that ended before the cutoff, with their steps, never a running one', async () => {
    const where = file();
    const { db } = await openStoreForWriting(where);
    const w = new StoreWriter(db);
    w.writeJob(job(1, { end: 100 }));
    w.writeStep(step(1, 0));
    w.writeJob(job(2, { end: 300 }));
    w.writeJob(job(3, { end: 0, state: JOB_RUNNING }));
    expect(w.purgeEndedBefore(200)).toBe(1);
    expect(ids(queryJobs(db, {}))).toEqual([2, 3]);
    expect(db.prepare('SELECT count(*) AS n FROM steps').get()).toEqual({ n: 0 });
    db.close();
    // A reader opens the same store read-only; none at all is undefined.
    const reader = (await openStoreForReading(where))!;
    expect(ids(queryJobs(reader, {}))).toEqual([2, 3]);
    expect(() => reader.prepare('DELETE FROM jobs').run()).toThrow(/readonly/);
    reader.close();
    expect(await openStoreForReading(path.join(path.dirname(where), 'none.db'))).toBeUndefined();
  });

  it('throws SQLITE_FULL from a write when the store is full, and writes again once there is room', async () => {
    const { db } = await openStoreForWriting(file());
    const w = new StoreWriter(db);
    const pages = db.pragma('page_count', { simple: true }) as number;
    db.pragma(`max_page_count = ${pages}`);
    let failure: unknown;
    try {
      for (let i = 1; i < 10_000; i++) w.writeJob(job(i, { workDir: 'x'.repeat(500) }));
    } catch (error) {
      failure = error;
    }
    expect((failure as { code?: string }).code).toBe('SQLITE_FULL');
    db.pragma('max_page_count = 1000000');
    w.writeJob(job(20_000));
    expect(ids(queryJobs(db, { jobIds: [{ jobId: 20_000 }] }))).toEqual([20_000]);
    db.close();
  });
});
