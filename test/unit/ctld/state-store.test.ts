// The controller's state on disk: journal records survive without a snapshot, a snapshot
// plus later records come back, a torn last journal line is ignored, a damaged or foreign
// snapshot falls back to .old (with journal.old replayed), and a newer format is refused.
import { describe, expect, it } from 'vitest';
import { appendFileSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { StateStore } from '../../../src/ctld/state/state-store.js';
import type { StoredJob } from '../../../src/ctld/state/stored-job.js';
import { readSnapshot, writeSnapshot } from '../../../src/ctld/state/snapshot.js';
import { simDescriptor } from '../../../src/ctld/simulate/sim-host.js';

function job(id: number, state = 0): StoredJob {
  return {
    id,
    submit: 1000 + id,
    desc: simDescriptor({ name: `job${id}`, userId: 1000 }),
    arrayJobId: 0,
    arrayTaskId: null,
    arrayMaxRunning: null,
    state,
    reason: 'None',
    priority: 100 - id,
    timeLimit: 10,
    partition: 'debug',
    start: 0,
    end: 0,
    eligible: 0,
    dependency: null,
    held: null,
    exitStatus: 0,
    stepdPid: null,
    killCause: null,
    requeueCount: 0,
    nodes: null,
    resources: null,
  };
}

function freshStore(): StateStore {
  const store = new StateStore(mkdtempSync(path.join(tmpdir(), 'tslurm-state-')));
  const recovered = store.recover();
  store.open({ seq: recovered.seq, jobs: [], nodes: [] });
  return store;
}

describe('state store', () => {
  it('brings back journaled jobs and their progress without any later snapshot', async () => {
    const store = freshStore();
    await store.append({ t: 'submit', job: job(1) });
    await store.append({ t: 'submit', job: job(2) });
    await store.append({ t: 'progress', id: 1, p: { ...job(1), state: 3, exitStatus: 256 } });
    await store.append({ t: 'purge', id: 2 });
    // No close(): as after kill -9.
    const again = new StateStore(path.dirname(store.dir)).recover();
    expect([...again.jobs.keys()]).toEqual([1]);
    expect(again.jobs.get(1)).toMatchObject({ state: 3, exitStatus: 256, desc: { name: 'job1' } });
    expect(again.seq).toBe(4);
    expect(again.problems).toEqual([]);
  });

  it("brings back an array's tasks from its one record, and not again once a snapshot holds them", async () => {
    const store = freshStore();
    await store.append({ t: 'submit', job: job(1) });
    const first = { ...job(2), arrayJobId: 2, arrayTaskId: 5 };
    await store.append({ t: 'submit_array', job: first, tasks: [[5, 90], [7, 89], [9, 88]] });
    // Progress carries no array fields (progressOf): the task keeps its array's.
    const { id: _id, submit: _submit, desc: _desc, arrayJobId: _a, arrayTaskId: _t, arrayMaxRunning: _m, ...progress } = job(3);
    await store.append({ t: 'progress', id: 3, p: { ...progress, priority: 89, state: 3 } });
    await store.append({ t: 'submit', job: job(5) });
    const again = new StateStore(path.dirname(store.dir)).recover();
    expect([...again.jobs.keys()]).toEqual([1, 2, 3, 4, 5]);
    expect([2, 3, 4].map((id) => again.jobs.get(id)).map((j) => [j?.arrayJobId, j?.arrayTaskId, j?.priority, j?.state])).toEqual([
      [2, 5, 90, 0],
      [2, 7, 89, 3],
      [2, 9, 88, 0],
    ]);
    expect(again.seq).toBe(4);
    expect(again.problems).toEqual([]);
    // A snapshot taken at the array's record holds what it did: its tasks are not added again.
    writeSnapshot(store.snapshotFile, { seq: 2, nextJobId: 5, savedAt: 0, jobs: [job(1)], nodes: [] });
    const after = new StateStore(path.dirname(store.dir)).recover();
    expect([...after.jobs.keys()]).toEqual([1, 5]);
    expect(after.problems).toEqual([]);
  });

  it('replays only the records after the snapshot, and ignores a last line cut short', async () => {
    const store = freshStore();
    await store.append({ t: 'submit', job: job(1) });
    await store.snapshot(() => ({ jobs: [job(1, 1)], nodes: [] }));
    await store.append({ t: 'submit', job: job(2) });
    appendFileSync(store.journalFile, '{"seq":3,"t":"submit","job":{"id":3');
    const again = new StateStore(path.dirname(store.dir)).recover();
    expect([...again.jobs.keys()].sort()).toEqual([1, 2]);
    expect(again.jobs.get(1)!.state).toBe(1);
    expect(again.problems).toEqual([]);
  });

  it('falls back to job_state.old and journal.old when the snapshot is damaged', async () => {
    const store = freshStore();
    await store.append({ t: 'submit', job: job(1) });
    await store.snapshot(() => ({ jobs: [job(1)], nodes: [] }));
    await store.append({ t: 'submit', job: job(2) });
    await store.snapshot(() => ({ jobs: [job(1), job(2)], nodes: [] }));
    await store.append({ t: 'submit', job: job(3) });
    // Cut short after the last job, before the line that counts the records.
    const lines = readFileSync(store.snapshotFile, 'utf8').split('\n');
    writeFileSync(store.snapshotFile, lines.slice(0, -2).join('\n'));
    const again = new StateStore(path.dirname(store.dir)).recover();
    expect([...again.jobs.keys()].sort()).toEqual([1, 2, 3]);
    expect(again.problems).toEqual([
      `${store.snapshotFile}: the file is incomplete (cut short while being written?); trying the previous state`,
      // No id counter here to count from; the damaged file is moved out of the way of the next snapshot.
      expect.stringMatching(new RegExp(`^damaged controller state in ${store.dir}: the number of jobs lost is not known; job_state kept as ${store.snapshotFile}\\.damaged-\\d{8}T\\d{6}$`)),
    ]);
    expect(existsSync(store.snapshotFile)).toBe(false);
  });

  it('refuses a foreign file and a newer format with a clear reason', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'tslurm-state-'));
    const file = path.join(dir, 'job_state');
    writeFileSync(file, 'PK\u0003\u0004 not ours\n');
    expect(() => readSnapshot(file)).toThrow('not a tslurm controller state file');
    writeSnapshot(file, { seq: 0, nextJobId: 0, savedAt: 0, jobs: [], nodes: [] });
    const lines = readFileSync(file, 'utf8').split('\n');
    lines[0] = lines[0]!.replace(/"version":\d+/, `"version":${(9 << 8) | 0}`);
    writeFileSync(file, lines.join('\n'));
    expect(() => readSnapshot(file)).toThrow('state file version 9.0 is not one this build reads');
  });

  it('quarantines a recovered job that a submission would not pass, from the journal or the snapshot', async () => {
    const store = freshStore();
    const snapshotted = { ...job(1), desc: { ...job(1).desc, ntasks: -5 } };
    await store.snapshot(() => ({ jobs: [snapshotted, job(2)], nodes: [] }));
    await store.append({ t: 'submit', job: { ...job(3), desc: { ...job(3).desc, dependency: { x: 1 } } } as unknown as StoredJob });
    await store.append({ t: 'submit', job: job(4) });
    // NaN as JSON is null: what a build that let NaN through journaled.
    await store.append({ t: 'progress', id: 4, p: { ...job(4), timeLimit: Number.NaN } });
    const again = new StateStore(path.dirname(store.dir)).recover();
    expect([...again.jobs.keys()]).toEqual([2]);
    const file = path.join(store.dir, 'quarantine');
    expect(again.problems).toEqual([
      `job 1: invalid record quarantined to ${file} (desc.ntasks: must be at least 1, got -5)`,
      `job 3: invalid record quarantined to ${file} (desc.dependency.combine: missing)`,
      `job 4: invalid record quarantined to ${file} (timeLimit: expected number, got null)`,
    ]);
    const kept = readFileSync(file, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as { why: string; job: StoredJob });
    expect(kept.map((entry) => entry.job.id)).toEqual([1, 3, 4]);
  });

  // Job ids ride in the journal (id-counters.ts): the counter file is a mark written without
  // fsync, which a power cut may lose; the ids must come back from the journal alone.
  describe('job ids', () => {
    const markFile = (store: StateStore) => path.join(path.dirname(store.dir), 'next_job_id');

    it('go on past every journaled id after a crash, with the counter file lost', async () => {
      const store = freshStore();
      const first = store.takeJobIds(3);
      for (let k = 0; k < 3; k++) await store.append({ t: 'submit', job: job(first + k) });
      // --test-only's id: used up without a job, and never given again.
      const probe = store.takeJobIds(1);
      await store.append({ t: 'next_job_id', next: probe + 1 });
      expect([first, probe]).toEqual([1, 4]);
      expect(readFileSync(markFile(store), 'utf8')).toBe('5 5\n');
      // No close(), and the mark gone: as after a power cut that kept only what was fsynced.
      rmSync(markFile(store));
      const again = new StateStore(path.dirname(store.dir));
      again.recover();
      expect(again.takeJobIds(1)).toBe(5);
    });

    it('go on past a snapshot whose jobs were purged, and past the journal of the previous snapshot', async () => {
      const store = freshStore();
      for (let k = 0; k < 7; k++) await store.append({ t: 'submit', job: job(store.takeJobIds(1)) });
      await store.snapshot(() => ({ jobs: [], nodes: [] }));
      rmSync(markFile(store));
      const again = new StateStore(path.dirname(store.dir));
      again.recover();
      expect(again.nextJobId).toBe(8);
    });

    it('take over an older build\'s counter file, which then holds the mark alone', () => {
      const dir = mkdtempSync(path.join(tmpdir(), 'tslurm-state-'));
      // An older build's counter: the next id, then the controller's own next (tsrun took the rest).
      writeFileSync(path.join(dir, 'next_job_id'), '57 40\n');
      const store = new StateStore(dir);
      store.recover();
      expect(readFileSync(path.join(dir, 'next_job_id'), 'utf8')).toBe('57 57\n');
      expect(store.takeJobIds(2)).toBe(57);
      expect(readFileSync(path.join(dir, 'next_job_id'), 'utf8')).toBe('59 59\n');
    });

    it('stay in memory for a simulation', () => {
      const dir = mkdtempSync(path.join(tmpdir(), 'tslurm-state-'));
      const store = new StateStore(dir, true);
      store.recover();
      expect(store.takeJobIds(1)).toBe(1);
      expect(existsSync(path.join(dir, 'next_job_id'))).toBe(false);
    });
  });
});
