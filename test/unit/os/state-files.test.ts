// The two file primitives state is kept with: the pid lock and the atomic replace (src/os).
import { afterEach, describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { pidAlive, tryLockFile } from '../../../src/os/lock-file.js';
import { writeFileAtomic } from '../../../src/os/atomic-write.js';

let dir: string;
const fresh = (): string => (dir = mkdtempSync(path.join(os.tmpdir(), 'tslurm-lock-')));
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** A pid that no process has now (a child that has exited and been reaped). */
function deadPid(): number {
  return Number(spawnSync(process.execPath, ['-e', 'console.log(process.pid)'], { encoding: 'utf8' }).stdout);
}

describe('tryLockFile', () => {
  it('takes a free lock with its pid in it, refuses a second taker with the holder, and is free again after release', () => {
    const file = path.join(fresh(), 'x.pid');
    const first = tryLockFile(file, pidAlive);
    expect('lock' in first).toBe(true);
    expect(readFileSync(file, 'utf8')).toBe(`${process.pid}\n`);
    expect(tryLockFile(file, pidAlive)).toEqual({ holder: process.pid });
    if ('lock' in first) first.lock.release();
    expect(existsSync(file)).toBe(false);
    expect('lock' in tryLockFile(file, pidAlive)).toBe(true);
    // Nothing but the lock is left (no pid file of a taker, no takeover guard).
    expect(readdirSync(dir)).toEqual(['x.pid']);
  });

  it('takes over a lock whose holder is gone, and one the caller judges stale', () => {
    const file = path.join(fresh(), 'x.pid');
    const dead = deadPid();
    expect(pidAlive(dead)).toBe(false);
    writeFileSync(file, `${dead}\n`);
    expect('lock' in tryLockFile(file, pidAlive)).toBe(true);
    writeFileSync(file, '1\n');
    expect(tryLockFile(file, pidAlive)).toEqual({ holder: 1 });
    expect('lock' in tryLockFile(file, () => false)).toBe(true);
  });

  it('does not remove a lock another process took after its own was taken over', () => {
    const file = path.join(fresh(), 'x.pid');
    const attempt = tryLockFile(file, pidAlive);
    writeFileSync(file, '1\n');
    if ('lock' in attempt) attempt.lock.release();
    expect(readFileSync(file, 'utf8')).toBe('1\n');
  });
});

describe('writeFileAtomic', () => {
  it('replaces the file whole, keeping the previous one as .old when asked, with no .new left', () => {
    const file = path.join(fresh(), 'state');
    writeFileAtomic(file, 'one\n');
    writeFileAtomic(file, 'two\n', { keepOld: true, syncDir: true });
    expect(readFileSync(file, 'utf8')).toBe('two\n');
    expect(readFileSync(`${file}.old`, 'utf8')).toBe('one\n');
    expect(readdirSync(dir).sort()).toEqual(['state', 'state.old']);
  });

  it('leaves the file as it was, and no .new, when the new content cannot be written (a full disk)', () => {
    const file = path.join(fresh(), 'state');
    writeFileAtomic(file, 'one\n');
    // `.new` leads to /dev/full: every write to it fails with ENOSPC.
    symlinkSync('/dev/full', `${file}.new`);
    expect(() => writeFileAtomic(file, 'two\n', { keepOld: true })).toThrow(/ENOSPC/);
    expect(readFileSync(file, 'utf8')).toBe('one\n');
    expect(readdirSync(dir)).toEqual(['state']);
  });
});
