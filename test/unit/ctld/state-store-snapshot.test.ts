// A snapshot is written off the controller's loop (state-store.ts): the loop goes on while its
// file is fsynced, and a kill at any step of the writing loses no acknowledged change, whether
// the next start reads job_state or falls back to job_state.old. Each step of the writing goes
// through node:fs/promises, which this test wraps to hold it: while a step is held, the state
// directory is exactly what a kill -9 at that moment would leave (the page cache survives a
// killed process), and a copy of it is recovered as the next controller would.
import { describe, expect, it, vi } from 'vitest';
import { appendFileSync, cpSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { StateStore } from '../../../src/ctld/state/state-store.js';
import type { StoredJob } from '../../../src/ctld/state/stored-job.js';
import { simDescriptor } from '../../../src/ctld/simulate/sim-host.js';

/** Called before each node:fs/promises step (`open`, `rename`, `handle.sync`, ...), when set. */
const steps = vi.hoisted(() => ({ before: undefined as undefined | ((step: string) => Promise<void> | void) }));

vi.mock('node:fs/promises', async (importOriginal) => {
  const real = await importOriginal<typeof import('node:fs/promises')>();
  const held = async (step: string) => {
    await steps.before?.(step);
  };
  const handleOf = (handle: import('node:fs/promises').FileHandle) =>
    new Proxy(handle, {
      get(target, key) {
        const value = Reflect.get(target, key) as unknown;
        if (typeof value !== 'function') return value;
        return async (...args: unknown[]) => {
          await held(`handle.${String(key)}`);
          return (value as (...a: unknown[]) => unknown).apply(target, args);
        };
      },
    });
  return {
    ...real,
    open: async (...args: Parameters<typeof real.open>) => {
      await held('open');
      return handleOf(await real.open(...args));
    },
    rename: async (...args: Parameters<typeof real.rename>) => {
      await held('rename');
      return real.rename(...args);
    },
  };
});

function job(id: number, state = 0): StoredJob {
  return {
    id, submit: 1000 + id, desc: simDescriptor({ name: `job${id}`, userId: 1000 }), arrayJobId: 0, arrayTaskId: null,
    arrayMaxRunning: null, state, reason: 'None', priority: 1, timeLimit: 10, partition: 'debug', start: 0, end: 0, eligible: 0,
    dependency: null, held: null, exitStatus: 0, stepdPid: null, killCause: null, requeueCount: 0, nodes: null, resources: null,
  };
}

function freshStore(): StateStore {
  const store = new StateStore(mkdtempSync(path.join(tmpdir(), 'tslurm-state-')));
  store.open({ seq: store.recover().seq, jobs: [], nodes: [] });
  return store;
}

/** A copy of the store's state directory as it is now: what a kill -9 now would leave. */
function crashImage(store: StateStore): string {
  return copyOf(path.dirname(store.dir));
}

function copyOf(stateDir: string): string {
  const copy = path.join(mkdtempSync(path.join(tmpdir(), 'tslurm-crash-')), 'state');
  cpSync(stateDir, copy, { recursive: true });
  return copy;
}

/** A job table and its store, as the controller keeps them: a change is acknowledged once journaled. */
class Table {
  readonly jobs = new Map<number, StoredJob>();
  readonly acknowledged = new Map<number, number>();
  constructor(readonly store: StateStore) {}
  async submit(id: number): Promise<void> {
    this.jobs.set(id, job(id));
    await this.store.append({ t: 'submit', job: job(id) });
    this.acknowledged.set(id, 0);
  }
  async finish(id: number): Promise<void> {
    this.jobs.set(id, job(id, 3));
    await this.store.append({ t: 'progress', id, p: job(id, 3) });
    this.acknowledged.set(id, 3);
  }
  snapshot(): Promise<void> {
    return this.store.snapshot(() => ({ jobs: [...this.jobs.values()], nodes: [] }));
  }
}

describe('a snapshot written off the loop', () => {
  it('lets the loop run while its file is fsynced, and is in place only after', async () => {
    const table = new Table(freshStore());
    await table.submit(1);
    const order: string[] = [];
    let timerRan: () => void = () => {};
    const timer = new Promise<void>((resolve) => (timerRan = resolve));
    setTimeout(() => {
      order.push('a timer');
      timerRan();
    }, 0);
    let synced = false;
    steps.before = async (step) => {
      // The first fsync is the new file's (the directory's comes after the renames).
      if (step !== 'handle.sync' || synced) return;
      synced = true;
      // A synchronous fsync would hold the loop: no timer could run before the snapshot is saved.
      await timer;
      order.push(`fsync (job_state ${existsSync(table.store.snapshotFile) ? 'holds the previous snapshot' : 'missing'})`);
    };
    try {
      await table.snapshot().then(() => order.push('saved'));
    } finally {
      steps.before = undefined;
    }
    expect(order).toEqual(['a timer', 'fsync (job_state holds the previous snapshot)', 'saved']);
    expect(readFileSync(table.store.snapshotFile, 'utf8')).toContain('"id":1,');
  });

  it('loses no acknowledged change whatever step a kill interrupts, from job_state or from job_state.old', async () => {
    const table = new Table(freshStore());
    for (let id = 1; id <= 4; id++) await table.submit(id);
    const images: Array<{ dir: string; step: string; acknowledged: Map<number, number> }> = [];
    let next = 100;
    steps.before = async (step) => {
      images.push({ dir: crashImage(table.store), step, acknowledged: new Map(table.acknowledged) });
      // Changes go on, and are acknowledged, while the snapshot is being written.
      await table.submit(next++);
      await table.finish(1 + (images.length % 4));
    };
    try {
      // Two rounds: the second replaces a snapshot that the first wrote the same way.
      await table.snapshot();
      await table.snapshot();
    } finally {
      steps.before = undefined;
    }
    images.push({ dir: crashImage(table.store), step: 'done', acknowledged: new Map(table.acknowledged) });
    expect(images.length).toBeGreaterThan(10);
    for (const image of images) {
      for (const fallBack of [false, true]) {
        const dir = copyOf(image.dir);
        const snapshot = path.join(dir, 'ctld', 'job_state');
        // A damaged job_state: the next start falls back to job_state.old.
        if (fallBack && existsSync(snapshot)) writeFileSync(snapshot, readFileSync(snapshot, 'utf8').split('\n').slice(0, -2).join('\n'));
        const recovered = new StateStore(dir).recover();
        const states = new Map([...recovered.jobs].map(([id, stored]) => [id, stored.state]));
        const lost = [...image.acknowledged].filter(([id, state]) => states.get(id) !== state);
        expect({ step: image.step, fallBack, lost }).toEqual({ step: image.step, fallBack, lost: [] });
      }
    }
  });

  it('starts after a kill in the middle of one with no damage reported, past a last journal line cut short', async () => {
    const table = new Table(freshStore());
    await table.submit(1);
    let image: string | undefined;
    steps.before = (step) => {
      // Killed once the new file is written, before it takes job_state's place.
      if (step === 'rename' && image === undefined) image = crashImage(table.store);
    };
    try {
      await table.submit(2);
      await table.snapshot();
      await table.submit(3);
    } finally {
      steps.before = undefined;
    }
    expect(existsSync(path.join(image!, 'ctld', 'journal.saving'))).toBe(true);
    appendFileSync(path.join(image!, 'ctld', 'journal'), '{"seq":99,"t":"submit","job":{"id":');
    const next = new StateStore(image!);
    const recovered = next.recover();
    expect([...recovered.jobs.keys()].sort()).toEqual([1, 2]);
    next.open({ seq: recovered.seq, jobs: [...recovered.jobs.values()], nodes: [] });
    await new Table(next).submit(4);
    const again = new StateStore(image!).recover();
    expect([...again.jobs.keys()].sort()).toEqual([1, 2, 4]);
    expect(again.problems).toEqual([]);
  });
});
