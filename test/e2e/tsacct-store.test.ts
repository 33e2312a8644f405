// The accounting store as the controller keeps it: a controller killed (-9) during a burst of
// job ends leaves a store that opens, passes SQLite's integrity check and, once the
// controller is back, agrees with the journal (also when the last writes were lost); a store
// that cannot be opened or written (a full file system) is said once in the log while jobs go
// on being scheduled, and written again once it can be.
import { execa } from 'execa';
import { closeSync, existsSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, symlinkSync, writeSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { fixture } from '../helpers/run-bin.js';
import { testController, type TestController } from '../helpers/controller.js';
import { openStoreForWriting } from '../../src/acct/open-store.js';
import { StoreWriter } from '../../src/acct/store-writer.js';

const Database = createRequire(import.meta.url)('better-sqlite3') as typeof import('better-sqlite3');
const isRoot = process.geteuid?.() === 0;
const conf = fixture('clusters', 'one-node.yaml');
const stopAll: TestController[] = [];
afterAll(async () => {
  for (const ctl of stopAll) await ctl.stop();
});

function controller(extra: Record<string, string> = {}, parent?: string): TestController {
  const ctl = testController({ TSLURM_CONF: conf, ...extra }, parent);
  stopAll.push(ctl);
  return ctl;
}

/** JobID → State, as tsqueue (the journal's view) and tsacct (the store's) list every job. */
async function states(ctl: TestController): Promise<{ queue: Map<string, string>; store: Map<string, string> }> {
  const queue = (await ctl.run('tsqueue', ['-h', '-t', 'all', '-o', '%i %T'])).stdout.trim().split('\n').filter(Boolean);
  const store = (await ctl.run('tsacct', ['-X', '-n', '-P', '-S', 'now-1hours', '-o', 'JobID,State'])).stdout.trim().split('\n').filter(Boolean);
  return { queue: new Map(queue.map((l) => l.trim().split(/\s+/) as [string, string])), store: new Map(store.map((l) => l.split('|') as [string, string])) };
}

/**
 * Both views once they agree, or as they stand after `ms`, for the caller to compare (a diff
 * says more than a timeout): the controller writes the store a little after it acts, and a
 * restarted one opens the store, and brings it to agree with its journal, only once it has
 * answered its first requests, so a tsacct right behind tsqueue may still see the old store.
 */
async function agreedStates(ctl: TestController, ms = 30_000): Promise<{ queue: Map<string, string>; store: Map<string, string> }> {
  let seen = await states(ctl);
  const same = (a: Map<string, string>, b: Map<string, string>) => a.size === b.size && [...a].every(([id, state]) => b.get(id) === state);
  await ctl.until(async () => same((seen = await states(ctl)).queue, seen.store), ms).catch(() => undefined);
  return seen;
}

const tsctldPid = (ctl: TestController): number => Number.parseInt(readFileSync(path.join(ctl.stateDir, 'tsctld.pid'), 'utf8'), 10);
const log = (ctl: TestController): string => readFileSync(path.join(ctl.stateDir, 'tsctld.log'), 'utf8');
const allDone = async (ctl: TestController, count: number) => {
  const done = (await ctl.run('tsqueue', ['-h', '-t', 'CD,F', '-o', '%i'])).stdout.trim().split('\n').filter(Boolean);
  return done.length === count;
};

describe('the accounting store', () => {
  it('agrees with the journal after a kill -9 during a burst of job ends, and after lost writes', async () => {
    const ctl = controller();
    const first = await ctl.run('tsbatch', ['-o', '/dev/null', '--array=1-40', '--wrap', 'true']);
    expect(first.stderr).toBe('');
    // Killed while the tasks end, some recorded already.
    await ctl.until(async () => (await ctl.run('tsacct', ['-X', '-n', '-s', 'CD', '-S', 'now-1hours', '-o', 'JobID'])).stdout.split('\n').length > 5);
    process.kill(tsctldPid(ctl), 'SIGKILL');
    const file = path.join(ctl.stateDir, 'accounting.db');
    const killed = new Database(file);
    expect(killed.pragma('integrity_check', { simple: true })).toBe('ok');
    expect(killed.pragma('user_version', { simple: true })).toBe(2);
    // As if the last writes had been cut short: records gone, or behind the journal.
    killed.prepare('DELETE FROM jobs WHERE job_id IN (1, 2)').run();
    killed.prepare("UPDATE jobs SET state = 1, end = 0, active_until = 4294967295 WHERE job_id = 3").run();
    killed.close();
    // The controller started again (tscontrol ping starts one); the array's tasks all end.
    expect((await ctl.run('tscontrol', ['ping'])).exitCode).toBe(0);
    await ctl.until(() => allDone(ctl, 40), 90_000);
    const { queue, store } = await agreedStates(ctl);
    expect(queue.size).toBe(40);
    expect(store).toEqual(queue);
  }, 120_000);

  it('keeps who cancelled a job across a controller restart (the journal carries it)', async () => {
    const ctl = controller();
    const id = (await ctl.run('tsbatch', ['--parsable', '-H', '-o', '/dev/null', '--wrap', 'true'])).stdout.trim();
    expect((await ctl.run('tscancel', [id])).exitCode).toBe(0);
    const by = `CANCELLED by ${process.getuid?.() ?? 0}\n`;
    // The store is written a little after the controller acts: read once it has the job.
    const recorded = async () => {
      let state = '';
      await ctl.until(async () => (state = (await ctl.run('tsacct', ['-j', id, '-X', '-n', '-P', '-o', 'State'])).stdout) !== '').catch(() => undefined);
      return state;
    };
    expect(await recorded()).toBe(by);
    await ctl.stop();
    // Without the store, the restarted controller writes the job again from its journal alone.
    for (const suffix of ['', '-wal', '-shm']) rmSync(path.join(ctl.stateDir, `accounting.db${suffix}`), { force: true });
    expect((await ctl.run('tscontrol', ['ping'])).exitCode).toBe(0);
    expect(await recorded()).toBe(by);
  }, 60_000);

  it('that cannot be opened is said once in the log, and jobs run', async () => {
    const ctl = controller();
    mkdirSync(path.join(ctl.stateDir, 'accounting.db'), { recursive: true });
    for (const name of ['a', 'b']) expect((await ctl.run('tsbatch', ['-J', name, '-o', '/dev/null', '--wrap', 'true'])).exitCode).toBe(0);
    await ctl.until(() => allDone(ctl, 2));
    expect(log(ctl).match(/accounting store .* cannot be opened: .*; jobs are scheduled but not recorded/g)).toHaveLength(1);
  }, 60_000);

  it('keeps the records of ended jobs for purge_after: older ones go when the controller starts', async () => {
    const ctl = controller({ TSLURM_CONF: fixture('clusters', 'purge-after.yaml') });
    mkdirSync(ctl.stateDir, { recursive: true, mode: 0o700 });
    const { db } = await openStoreForWriting(path.join(ctl.stateDir, 'accounting.db'));
    const writer = new StoreWriter(db);
    const now = Math.floor(Date.now() / 1000);
    const record = (jobId: number, end: number) => ({
      jobId, arrayJobId: 0, arrayTaskId: null, hetJobId: 0, hetJobOffset: null, name: `old${jobId}`, partition: 'debug', account: '', user: 'u', uid: process.getuid?.() ?? 0,
      group: 'g', gid: 0, cluster: 'purge', submit: end - 100, eligible: end - 100, start: end - 50, end, timelimit: 10, state: 3, cancelledBy: null, exitCode: 0,
      derivedExitCode: 0, nnodes: 1, ncpus: 1, ntasks: null, nodeList: 'node1', reqMem: null, reqTres: '', allocTres: '', workDir: '/', submitLine: '', reason: 'None', priority: 1, restarts: 0, qos: '',
    });
    writer.writeJob(record(1001, now - 7200));
    writer.writeJob(record(1002, now - 600));
    writer.close();
    expect((await ctl.run('tscontrol', ['ping'])).exitCode).toBe(0);
    await ctl.until(() => log(ctl).includes('accounting store: 1 job record(s) older than purge_after removed'));
    expect((await ctl.run('tsacct', ['-j', '1001,1002', '-X', '-n', '-P', '-o', 'JobID,JobName'])).stdout).toBe('1002|old1002\n');
  }, 60_000);

  describe.skipIf(!isRoot)('on a full file system (a 512 KB tmpfs, which needs root to mount)', () => {
    const mount = mkdtempSync(path.join(tmpdir(), 'tslurm-acctfull-'));
    let ctl: TestController | undefined;
    afterAll(async () => {
      // The controller holds the store open: it goes first.
      await ctl?.stop();
      await execa('umount', [mount], { reject: false });
      rmSync(mount, { recursive: true, force: true });
    });

    it('is said once while it cannot be written, jobs go on, and it is written again once there is room', async () => {
      await execa('mount', ['-t', 'tmpfs', '-o', 'size=512k,mode=700', 'tmpfs', mount]);
      ctl = controller();
      const c = ctl;
      mkdirSync(c.stateDir, { recursive: true, mode: 0o700 });
      // The store lives on the small file system; the journal beside it has room.
      symlinkSync(path.join(mount, 'accounting.db'), path.join(c.stateDir, 'accounting.db'));
      const run = async (name: string) => expect((await c.run('tsbatch', ['-J', name, '-o', '/dev/null', '--wrap', 'true'])).exitCode).toBe(0);
      await run('before');
      // Filled once the store holds the job (it is written a little after the job ends): a
      // store still to be created on a full file system is one that cannot be opened.
      await c.until(async () => (await c.run('tsacct', ['-X', '-n', '-P', '-S', 'now-1hours', '-o', 'JobName,State'])).stdout === 'before|COMPLETED\n');
      const filler = path.join(mount, 'filler');
      const fd = openSync(filler, 'a');
      try {
        for (;;) writeSync(fd, Buffer.alloc(4096));
      } catch (error) {
        expect((error as NodeJS.ErrnoException).code).toBe('ENOSPC');
      } finally {
        closeSync(fd);
      }
      for (const name of ['full1', 'full2', 'full3']) await run(name);
      await c.until(() => allDone(c, 4));
      expect(log(c).match(/accounting store .* cannot be written: SQLITE_FULL/g)).toHaveLength(1);
      rmSync(filler);
      await run('after');
      await c.until(() => allDone(c, 5));
      await c.until(() => /accounting store .*: writing again/.test(log(c)));
      const names = (await c.run('tsacct', ['-X', '-n', '-P', '-S', 'now-1hours', '-o', 'JobName,State'])).stdout;
      expect(names).toContain('before|COMPLETED\n');
      expect(names).toContain('after|COMPLETED\n');
      // What the full store missed comes back from the journal when the controller starts again.
      await c.stop();
      expect(existsSync(path.join(mount, 'accounting.db'))).toBe(true);
      expect((await c.run('tscontrol', ['ping'])).exitCode).toBe(0);
      const { queue, store } = await agreedStates(c);
      expect(store).toEqual(queue);
    }, 120_000);
  });
});
