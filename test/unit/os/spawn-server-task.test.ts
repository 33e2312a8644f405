// The spawn server does a task's own set-up in its child, so that a task is one fork and one
// exec (native/spawn-server, stepd/task-exec-fold.ts): the child starts in its step's cgroup
// v2 through clone3 (CLONE_INTO_CGROUP, no write to cgroup.procs), or, when clone3 is not to be
// used (TSLURM_SPAWN_CLONE3=0, as on a kernel without it), joins it by that write; it sets
// SLURM_TASK_PID, the umask, the propagated limits and the directory (with /tmp to fall back
// on); a failed step of it ends the task 125 with the reason on its stderr; its end comes with
// wait4's rusage. The server runs under strace here (when there is one), to see its syscalls.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmdirSync, writeFileSync, chmodSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { spawnServerPid, startServedChild, type ServedForm } from '../../../src/os/spawn-server.js';
import { ServedChild } from '../../../src/os/served-child.js';
import type { TaskSetup } from '../../../src/os/spawn-server-frames.js';
import { nativeHelper } from '../../../src/stepd/native-helper.js';

const real = nativeHelper('tsspawn_server')!;
const work = mkdtempSync(path.join(tmpdir(), 'tslurm-spawn-task-'));
const strace = ['/usr/bin/strace', '/bin/strace'].find((file) => existsSync(file));
// The server as its own strace's child: its log, one per server, is log.<server pid>.
const helper = path.join(work, 'traced-server');
writeFileSync(helper, strace ? `#!/bin/sh\nexec ${strace} -f -qq --seccomp-bpf -e trace=clone,clone3,fork,vfork,openat -o ${work}/log.$$ ${real} "$@"\n` : `#!/bin/sh\nexec ${real} "$@"\n`);
chmodSync(helper, 0o755);

// A cgroup v2 directory of our own, when this host lets us make one (root, a writable hierarchy).
const v2Root = ['/sys/fs/cgroup', '/sys/fs/cgroup/unified'].find((dir) => existsSync(path.join(dir, 'cgroup.controllers')));
const cgroup = v2Root && path.join(v2Root, 'tslurm', `spawn-task-test-${process.pid}`);
let haveCgroup = false;
try {
  if (cgroup) mkdirSync(cgroup, { recursive: true });
  haveCgroup = cgroup !== undefined;
} catch {
  // not ours to make: those tests are skipped
}
// Removed once its last task is reaped (a cgroup with a member, even a zombie, is busy).
afterAll(async () => {
  for (let i = 0; haveCgroup && i < 50; i++) {
    try {
      return rmdirSync(cgroup!);
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
});

function collect(stream: Readable | null | undefined): Promise<string> {
  let text = '';
  stream?.on('data', (chunk: Buffer) => (text += chunk.toString()));
  return new Promise((resolve) => (stream ? stream.once('close', () => resolve(text)) : resolve('')));
}

const setup = (over: Partial<TaskSetup> = {}): TaskSetup => ({ procs: [], mountNs: undefined, chdirFallback: false, rlimits: [], taskPid: true, ...over });

/** Runs `argv` through the server in the form given; its exit, stdout, stderr and rusage. */
async function served(form: Omit<ServedForm, 'stdio' | 'argv'>, argv: string[], env: string[] = ['PATH=/usr/bin:/bin', 'SLURM_TASK_PID=']) {
  const started = await startServedChild(helper, ['ignored'], { env, serve: () => ({ ...form, argv, stdio: ['ignore', 'pipe', 'pipe'] }) });
  expect(started.served).toBe(true);
  const [out, err] = [collect(started.child.stdout), collect(started.child.stderr)];
  const end = await started.ended;
  await started.closed;
  return { pid: started.child.pid!, end, out: await out, err: await err, rusage: (started.child as ServedChild).rusage };
}

const cgroupLine = (dir: string): string => `0::${dir.slice(v2Root!.length)}\n`;
const logOfServer = (): string => (strace ? readFileSync(path.join(work, `log.${spawnServerPid()}`), 'utf8') : '');

describe("the spawn server's task set-up", () => {
  it.runIf(haveCgroup)('starts the task in its cgroup through clone3, with no write to cgroup.procs', async () => {
    const r = await served({ setup: setup({ procs: [path.join(cgroup!, 'cgroup.procs')] }) }, ['cat', '/proc/self/cgroup']);
    expect(r.end).toEqual({ kind: 'exited', code: 0 });
    expect(r.out.split('\n').filter((line) => line.startsWith('0::')).join('\n') + '\n').toBe(cgroupLine(cgroup!));
    if (strace) {
      const log = logOfServer();
      expect(log).toMatch(/clone3\(\{flags=CLONE_INTO_CGROUP,/);
      expect(log).not.toContain('cgroup.procs"');
    }
  });

  it('sets SLURM_TASK_PID, the umask, the limits and the directory; execs the program itself', async () => {
    const script = 'echo $SLURM_TASK_PID $$ $(umask) $(ulimit -Sc) $(pwd); cat /proc/$$/comm';
    const r = await served({ cwd: '/nonexistent/dir', umask: 0o027, setup: setup({ chdirFallback: true, rlimits: ['CORE=0'] }) }, ['sh', '-c', script]);
    expect(r.end).toEqual({ kind: 'exited', code: 0 });
    expect(r.out).toBe(`${r.pid} ${r.pid} 0027 0 /tmp\nsh\n`);
  });

  it('ends a task whose set-up fails 125, saying why on its stderr', async () => {
    const r = await served({ setup: setup({ procs: ['/nonexistent/cgroup/cgroup.procs'] }) }, ['true']);
    expect(r.end).toEqual({ kind: 'exited', code: 125 });
    expect(r.err).toBe('tsspawn_server: cannot join /nonexistent/cgroup/cgroup.procs: No such file or directory\n');
    const ns = await served({ setup: setup({ mountNs: '/nonexistent/ns' }) }, ['true']);
    expect(ns.end).toEqual({ kind: 'exited', code: 125 });
    expect(ns.err).toMatch(/^tsspawn_server: cannot enter the mount namespace \/nonexistent\/ns: /);
  });

  it("reports the task's rusage from wait4: its children's peak and CPU time included", async () => {
    const r = await served({ setup: setup() }, ['sh', '-c', 'head -c 100M /dev/zero | tail > /dev/null']);
    expect(r.end).toEqual({ kind: 'exited', code: 0 });
    expect(r.rusage!.maxRssKiB).toBeGreaterThanOrEqual(95 * 1024);
    expect(r.rusage!.userCpuUsec + r.rusage!.systemCpuUsec).toBeGreaterThan(0);
  });

  it.runIf(haveCgroup)('joins the cgroup by a write when clone3 is not to be used (TSLURM_SPAWN_CLONE3=0)', async () => {
    // A new server, started without clone3.
    const sleeper = await startServedChild(helper, ['/bin/sleep', '30']);
    // strace first (it holds the server's stdout too, and waits for every tracee), then the server.
    const server = strace ? Number(readFileSync(`/proc/${spawnServerPid()}/task/${spawnServerPid()}/children`, 'utf8').trim().split(' ')[0]) : spawnServerPid()!;
    if (strace) process.kill(spawnServerPid()!, 'SIGKILL');
    process.kill(server, 'SIGKILL');
    await sleeper.ended;
    process.env.TSLURM_SPAWN_CLONE3 = '0';
    try {
      const r = await served({ setup: setup({ procs: [path.join(cgroup!, 'cgroup.procs')] }) }, ['cat', '/proc/self/cgroup']);
      expect(r.end).toEqual({ kind: 'exited', code: 0 });
      expect(r.out.split('\n').filter((line) => line.startsWith('0::')).join('\n') + '\n').toBe(cgroupLine(cgroup!));
      if (strace) {
        const log = logOfServer();
        expect(log).not.toContain('clone3(');
        expect(log).toContain(`openat(AT_FDCWD, "${path.join(cgroup!, 'cgroup.procs')}", O_WRONLY|O_CLOEXEC) = `);
      }
    } finally {
      delete process.env.TSLURM_SPAWN_CLONE3;
    }
  });
});
