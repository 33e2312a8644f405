// The journal on a full disk (a 128 KB tmpfs: root only, skipped otherwise): a submission the
// disk cannot take is refused with the C library's text and leaves no half record behind,
// later changes wait in memory, and once there is room again one snapshot holds them all and
// the journal takes submissions again; nothing acknowledged is lost on the way.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execa } from 'execa';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { StateStore } from '../../../src/ctld/state/state-store.js';
import { simDescriptor } from '../../../src/ctld/simulate/sim-host.js';
import type { StoredJob } from '../../../src/ctld/state/stored-job.js';

const isRoot = process.geteuid?.() === 0;

function job(id: number): StoredJob {
  return {
    id, submit: 1000 + id, desc: simDescriptor({ name: `job${id}`, userId: 1000, script: 'x'.repeat(1500) }), arrayJobId: 0, arrayTaskId: null,
    arrayMaxRunning: null, state: 0, reason: 'None', priority: 1, timeLimit: 10, partition: 'debug', start: 0, end: 0, eligible: 0,
    dependency: null, held: null, exitStatus: 0, stepdPid: null, killCause: null, requeueCount: 0, nodes: null, resources: null,
  };
}

describe.skipIf(!isRoot)('the state store on a full disk (needs root to mount a tmpfs)', () => {
  const mount = mkdtempSync(path.join(tmpdir(), 'tslurm-store-full-'));
  beforeAll(() => execa('mount', ['-t', 'tmpfs', '-o', 'size=128k', 'tmpfs', mount]));
  afterAll(async () => {
    await execa('umount', ['-l', mount], { reject: false });
    rmSync(mount, { recursive: true, force: true });
  });

  it('refuses, keeps whole records only, and recovers by itself', async () => {
    const store = new StateStore(path.join(mount, 'state'));
    const health: string[] = [];
    store.onHealth = (message) => health.push(message);
    store.open({ seq: store.recover().seq, jobs: [], nodes: [] });
    const acked: number[] = [];
    let refusal: Error | undefined;
    for (let id = 1; id < 200 && refusal === undefined; id++) {
      await store.append({ t: 'submit', job: job(id) }).then(() => acked.push(id), (error: Error) => (refusal = error));
    }
    expect(refusal?.message).toBe('No space left on device');
    expect(store.failing).toBe(true);
    expect(health).toEqual([expect.stringMatching(/^cannot write the journal .*: No space left on device; submissions are refused until it can be written again$/)]);
    expect(readFileSync(store.journalFile, 'utf8').endsWith('\n')).toBe(true);
    expect(() => store.checkWritable()).toThrow('No space left on device');
    // A change that is not a submission stays in memory meanwhile.
    await expect(store.append({ t: 'purge', id: 1 })).resolves.toBeUndefined();
    const kept = acked.slice(1).map(job);
    // Room again: the journal's own lines go with the rotation the retry's snapshot makes.
    writeFileSync(store.journalFile, '');
    await new Promise((resolve) => setTimeout(resolve, 2100));
    await store.retry(() => ({ jobs: kept, nodes: [] }));
    expect(store.failing).toBe(false);
    expect(health[1]).toBe('the journal can be written again; taking submissions');
    await store.append({ t: 'submit', job: job(500) });
    const again = new StateStore(path.join(mount, 'state')).recover();
    expect([...again.jobs.keys()].sort((a, b) => a - b)).toEqual([...acked.slice(1), 500]);
    expect(again.problems).toEqual([]);
  });
});
