// The step host starts tsrun's tasks through its spawn server (native/spawn-server): the task's
// parent is the server (no Node fork), its stdin reaches its end and megabytes of output come
// back whole; a server killed mid-step ends that step's tasks (killed, as tsrun says) and the
// next step gets a new server; TSLURM_SPAWN_SERVER=0 on the step host goes back to Node's spawn.
import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runBin, startBin } from '../helpers/run-bin.js';
import { leftovers, liveWithMark } from '../helpers/proc-scan.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function parentOf(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
}

const commOf = (pid: number): string => readFileSync(`/proc/${pid}/comm`, 'latin1').trim();

function stopHost(stateDir: string): void {
  for (const file of ['tsstepd.pid', 'tsctld.pid']) {
    try {
      process.kill(Number(readFileSync(path.join(stateDir, file), 'utf8')), 'SIGTERM');
    } catch {
      // not started, or gone already
    }
  }
}

const stateDirs: string[] = [];
const marks: string[] = [];
afterEach(() => {
  stateDirs.splice(0).forEach(stopHost);
  for (const mark of marks.splice(0)) for (const pid of liveWithMark(mark)) process.kill(pid, 'SIGKILL');
});

function stateDir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'tslurm-spawn-e2e-'));
  stateDirs.push(dir);
  return dir;
}

describe("the step host's spawn server", () => {
  it("runs tsrun's tasks as its children: stdin to its end, a large output whole", async () => {
    const input = Array.from({ length: 40_000 }, (_, i) => `line ${i} ${'x'.repeat(40)}`).join('\n') + '\n';
    const r = await runBin('tsrun', ['-n1', 'sh', '-c', 'cat; cat /proc/$PPID/comm >&2'], { env: { TSLURM_STATE_DIR: stateDir() }, input, maxBuffer: 16 << 20 });
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toBe('tsspawn_server\n');
    expect(r.stdout.length).toBe(input.length);
    expect(r.stdout).toBe(input);
  });

  it('killed mid-step, ends that step\'s tasks as killed; the next step gets a new server', async () => {
    const dir = stateDir();
    const mark = randomUUID();
    marks.push(mark);
    const ready = mkdtempSync(path.join(tmpdir(), 'tslurm-spawn-ready-'));
    const env = { TSLURM_STATE_DIR: dir };
    const run = startBin('tsrun', [`--export=ALL,TSLURM_TEST_MARK=${mark}`, '-n2', 'sh', '-c', `touch ${ready}/$SLURM_PROCID; exec sleep 300`], { env, timeout: 60_000 });
    for (let i = 0; i < 1200 && !(existsSync(`${ready}/0`) && existsSync(`${ready}/1`)); i++) await sleep(25);
    const tasks = liveWithMark(mark).filter((pid) => commOf(pid) === 'sleep');
    expect(tasks).toHaveLength(2);
    const servers = [...new Set(tasks.map(parentOf))];
    expect(servers.map(commOf)).toEqual(['tsspawn_server']);
    process.kill(servers[0]!, 'SIGKILL');
    const r = await run;
    expect(r.exitCode).toBe(137);
    expect(String(r.stderr)).toContain('tsrun: error: node1: tasks 0-1: Killed\n');
    expect(await leftovers(mark, 10_000)).toEqual([]);

    const next = await runBin('tsrun', ['-n1', 'sh', '-c', 'cat /proc/$PPID/comm; echo $PPID'], { env });
    expect(next.exitCode).toBe(0);
    const [comm, pid] = next.stdout.trim().split('\n');
    expect(comm).toBe('tsspawn_server');
    expect(Number(pid)).not.toBe(servers[0]);
  });

  it("TSLURM_SPAWN_SERVER=0 on the step host: Node's spawn, the task the host's own child", async () => {
    const r = await runBin('tsrun', ['-n1', 'sh', '-c', 'tr "\\0" " " < /proc/$PPID/cmdline'], { env: { TSLURM_STATE_DIR: stateDir(), TSLURM_SPAWN_SERVER: '0' } });
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toMatch(/tsstepd\.js --embedded/);
  });

  // The task's set-up done by the server's child (one fork, one exec), by clone3 into the
  // step's cgroup or, refused (TSLURM_SPAWN_CLONE3=0), by a write; and by the task exec helper
  // on Node's spawn (TSLURM_SPAWN_SERVER=0): the same task either way.
  const cgroupV2 = ['/sys/fs/cgroup', '/sys/fs/cgroup/unified'].some((dir) => existsSync(path.join(dir, 'cgroup.controllers')));
  it.runIf(process.getuid?.() === 0 && cgroupV2)('starts a task in its step cgroup, its pid in SLURM_TASK_PID, however it is spawned', async () => {
    const dir = stateDir();
    const cluster = path.join(dir, 'cgroup.yaml');
    writeFileSync(cluster, 'cluster: cg\nplugins:\n  proctrack: proctrack/cgroup\nnodes:\n  - name: n1\n    cpus: 2\npartitions:\n  - name: p\n    nodes: ALL\n    default: true\n');
    const script = 'echo $$ $SLURM_TASK_PID $(umask); grep ^0:: /proc/self/cgroup; cat /proc/$PPID/comm';
    for (const [mode, parent] of [[{}, 'tsspawn_server'], [{ TSLURM_SPAWN_CLONE3: '0' }, 'tsspawn_server'], [{ TSLURM_SPAWN_SERVER: '0' }, 'node']] as const) {
      const env = { TSLURM_STATE_DIR: stateDir(), ...mode };
      const r = await runBin('tsrun', ['--cluster', cluster, '-n1', 'sh', '-c', script], { env });
      expect(r).toMatchObject({ exitCode: 0, stderr: '' });
      const [ids, cgroup, comm] = r.stdout.trim().split('\n');
      const [pid, taskPid, umask] = ids!.split(' ');
      expect(taskPid).toBe(pid);
      expect(umask).toBe('0022');
      expect(cgroup).toMatch(/^0::.*\/tslurm\/stepd_\d+_\d+\/node_n1\/job_1\/step_0$/);
      expect(comm).toBe(parent);
      stopHost(env.TSLURM_STATE_DIR);
    }
  });
});
