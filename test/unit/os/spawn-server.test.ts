// The spawn server (native/spawn-server, os/spawn-server.ts) with real processes: its children
// are its own (their parent pid is the server's, not ours), their stdio are real streams (stdin
// to EOF, megabytes of stdout, an extra socket, a file of ours reopened), they start with clean
// signals and no descriptor of ours, they end as Node's children end (exit code, signal, exec
// failure as exec-failed), their group can be killed, `closed` waits for a grandchild holding
// stdout, a server killed mid-run is replaced, and what it cannot do goes to Node's spawn.
import { closeSync, constants, mkdtempSync, openSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { spawnServerHoldsLoop, spawnServerPid, startServedChild } from '../../../src/os/spawn-server.js';
import { childGone } from '../../../src/os/spawn.js';
import { nativeHelper } from '../../../src/stepd/native-helper.js';

const helper = nativeHelper('tsspawn_server');

function collect(stream: Readable | null | undefined): Promise<string> {
  let text = '';
  stream?.on('data', (chunk: Buffer) => (text += chunk.toString()));
  return new Promise((resolve) => (stream ? stream.once('close', () => resolve(text)) : resolve('')));
}

const ppidOf = (pid: number): number => Number(readFileSync(`/proc/${pid}/stat`, 'latin1').split(') ')[1]!.split(' ')[1]);

describe('os/spawn-server', () => {
  it('is built (scripts/build-native.js)', () => {
    expect(helper).toBeDefined();
  });

  it("starts children as the server's own, with stdin to EOF and a large stdout", async () => {
    const { child, ended, closed } = await startServedChild(helper, ['/bin/sh', '-c', 'echo $PPID >&2; exec cat']);
    expect(child.pid).toBeGreaterThan(0);
    const server = spawnServerPid()!;
    expect(server).not.toBe(process.pid);
    expect(ppidOf(server)).toBe(process.pid);
    const out = collect(child.stdout);
    const err = collect(child.stderr);
    const input = 'x'.repeat(3 << 20) + 'end\n';
    child.stdin!.end(input);
    expect(await ended).toEqual({ kind: 'exited', code: 0 });
    await closed;
    expect((await out).length).toBe(input.length);
    expect(await out).toBe(input);
    expect((await err).trim()).toBe(String(server));
  });

  it('keeps the output of a child that ended before it was handed over', async () => {
    const started = startServedChild(helper, ['/bin/sh', '-c', 'echo one; echo two >&2'], { stdio: ['ignore', 'pipe', 'pipe'] });
    // This process busy: the child starts, writes and ends before we read a byte of it.
    const until = Date.now() + 300;
    while (Date.now() < until);
    const { child, ended, closed } = await started;
    const [out, err] = [collect(child.stdout), collect(child.stderr)];
    expect(await ended).toEqual({ kind: 'exited', code: 0 });
    await closed;
    expect([await out, await err]).toEqual(['one\n', 'two\n']);
    // Its end came before its streams: still nothing left holding this process.
    await new Promise((resolve) => setImmediate(resolve));
    expect(spawnServerHoldsLoop()).toBe(false);
  });

  it('says a child has gone as soon as its process has, before its end reaches us', async () => {
    const running = await startServedChild(helper, ['/bin/sleep', '30']);
    expect(childGone(running.child)).toBe(false);
    running.child.kill('SIGKILL');
    const quick = await startServedChild(helper, ['/bin/true']);
    const until = Date.now() + 300;
    while (Date.now() < until); // the server reaps it meanwhile; its report waits in the pipe
    expect(quick.child.exitCode).toBeNull();
    expect(childGone(quick.child)).toBe(true);
    expect(await quick.ended).toEqual({ kind: 'exited', code: 0 });
    expect(await running.ended).toEqual({ kind: 'signaled', signal: 'SIGKILL' });
  });

  it('ends as Node children end: exit code, signal, exec failure', async () => {
    expect(await (await startServedChild(helper, ['/bin/sh', '-c', 'exit 3'])).ended).toEqual({ kind: 'exited', code: 3 });
    expect(await (await startServedChild(helper, ['/bin/sh', '-c', 'kill -TERM $$'])).ended).toEqual({ kind: 'signaled', signal: 'SIGTERM' });
    // The pid comes once the child is set up, before its execve: one that fails is a process
    // that exited 127 (as slurmstepd's forked child), ending as exec-failed all the same.
    const missing = await startServedChild(helper, ['/nonexistent/program']);
    expect(await missing.ended).toEqual({ kind: 'exec-failed', errno: 'ENOENT', message: 'spawn /nonexistent/program ENOENT' });
    expect(missing.child.exitCode).toBe(127);
    await missing.closed;
    // PATH from the child's own environment, as libuv looks it up.
    const viaPath = await startServedChild(helper, ['true'], { env: { PATH: '/nonexistent' } });
    expect(await viaPath.ended).toMatchObject({ kind: 'exec-failed', errno: 'ENOENT' });
    // A set-up that fails (here its chdir) leaves no process, as Node's spawn does.
    const badDir = await startServedChild(helper, ['/bin/true'], { cwd: '/nonexistent/dir' });
    expect(badDir.child.pid).toBeUndefined();
    expect(await badDir.ended).toMatchObject({ kind: 'exec-failed', errno: 'ENOENT' });
  });

  it('gives the child default signals, an empty mask, our umask and no descriptor of ours', async () => {
    const previous = process.umask(0o027);
    const started = startServedChild(helper, ['/bin/sh', '-c', 'grep -E "^Sig(Blk|Ign)" /proc/self/status; umask; ls /proc/self/fd'], { stdio: ['ignore', 'pipe', 'pipe'] });
    process.umask(previous);
    const { child, closed } = await started;
    const out = collect(child.stdout);
    await closed;
    const lines = (await out).trim().split('\n');
    expect(lines.slice(0, 2)).toEqual(['SigBlk:\t0000000000000000', 'SigIgn:\t0000000000000000']);
    expect(lines[2]).toBe('0027');
    // ls's own directory fd is 3; nothing else is open.
    expect(lines.slice(3)).toEqual(['0', '1', '2', '3']);
  });

  it('hands over an extra connected socket and reopens an append-mode file of ours', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'tslurm-spawn-server-'));
    const file = path.join(dir, 'out');
    const fd = openSync(file, constants.O_WRONLY | constants.O_CREAT | constants.O_APPEND | constants.O_TRUNC, 0o644);
    try {
      const { child, closed } = await startServedChild(helper, ['/bin/sh', '-c', 'echo to-file; echo to-fd3 >&3; echo $PPID >&3'], { stdio: ['ignore', fd, 'pipe', 'pipe'] });
      const extra = collect(child.stdio[3] as Readable);
      await closed;
      expect((await extra).split('\n')).toEqual(['to-fd3', String(spawnServerPid()), '']);
      expect(readFileSync(file, 'utf8')).toBe('to-file\n');
    } finally {
      closeSync(fd);
    }
  });

  it('leaves to Node what the server cannot reproduce: a file at an offset, a missing helper', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'tslurm-spawn-server-'));
    const fd = openSync(path.join(dir, 'out'), 'w');
    try {
      const { child, closed } = await startServedChild(helper, ['/bin/sh', '-c', 'echo $PPID >&2'], { stdio: ['ignore', fd, 'pipe'] });
      const err = collect(child.stderr);
      await closed;
      expect((await err).trim()).toBe(String(process.pid));
    } finally {
      closeSync(fd);
    }
    const bare = await startServedChild(undefined, ['/bin/sh', '-c', 'echo $PPID']);
    const out = collect(bare.child.stdout);
    await bare.closed;
    expect((await out).trim()).toBe(String(process.pid));
  });

  it('takes the environment as a NAME=value list, read as envArrayToObject reads it, by both paths', async () => {
    for (const via of [helper, undefined]) {
      const { child, closed } = await startServedChild(via, ['/bin/sh', '-c', 'echo "$A $B"; env | grep -c "^junk" || true'], { env: ['A=1', 'A=2', 'B=x', '=bad', 'junk'] });
      const out = collect(child.stdout);
      await closed;
      expect(await out).toBe('1 x\n0\n');
    }
  });

  it('kills a task group, and `closed` waits for a grandchild that holds stdout', async () => {
    const group = await startServedChild(helper, ['/bin/sh', '-c', 'sleep 30 & sleep 30; echo never'], { detached: true });
    const out = collect(group.child.stdout);
    process.kill(-group.child.pid!, 'SIGKILL');
    expect(await group.ended).toEqual({ kind: 'signaled', signal: 'SIGKILL' });
    await group.closed;
    expect(await out).toBe('');

    const late = await startServedChild(helper, ['/bin/sh', '-c', '(sleep 0.5; echo late) & exit 0']);
    const lateOut = collect(late.child.stdout);
    let closedYet = false;
    void late.closed.then(() => (closedYet = true));
    expect(await late.ended).toEqual({ kind: 'exited', code: 0 });
    expect(closedYet).toBe(false);
    await late.closed;
    expect(await lateOut).toBe('late\n');
  });

  it('survives its server being killed: the orphans are killed and end so, a new server takes over', async () => {
    const { child, ended, closed } = await startServedChild(helper, ['/bin/sleep', '30'], { detached: true });
    const first = spawnServerPid()!;
    expect(ppidOf(child.pid!)).toBe(first);
    process.kill(first, 'SIGKILL');
    expect(await ended).toEqual({ kind: 'signaled', signal: 'SIGKILL' });
    await closed;
    const next = await startServedChild(helper, ['/bin/sh', '-c', 'echo $PPID']);
    const out = collect(next.child.stdout);
    await next.closed;
    expect(spawnServerPid()).not.toBe(first);
    expect((await out).trim()).toBe(String(spawnServerPid()));
  });
});
