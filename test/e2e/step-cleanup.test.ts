// Every way a step ends leaves no process behind (DESIGN.md §8): the step daemon signals the
// step's proctrack container and waits until it is empty. The tasks start a daemon (setsid),
// a double-forked grandchild, and ignore SIGTERM; /proc is scanned for anything left.
import { afterAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { accessSync, constants, existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fixture, runBin, startBin } from '../helpers/run-bin.js';
import { leftovers, liveWithMark } from '../helpers/proc-scan.js';
import { testController } from '../helpers/controller.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const LINUXPROC = fixture('clusters', 'job-container-cncu.yaml');

// Each task: a setsid daemon, a double-forked sleep, then (optionally) it ignores SIGTERM
// (inherited by what it starts next) and waits; `ready` files say the task got that far.
function script(dir: string, tail: string): string {
  return [
    `setsid sh -c 'sleep 300' &`,
    `(sh -c 'sleep 301' &)`,
    tail,
  ].join('\n').replace('READY', `touch ${dir}/ready-$SLURM_PROCID`);
}

function marked(mark: string, extra: string[] = []): string[] {
  return [`--export=ALL,TSLURM_TEST_MARK=${mark}`, ...extra];
}

async function ready(dir: string, n: number): Promise<void> {
  for (let i = 0; i < 400; i++) {
    if (Array.from({ length: n }, (_, t) => path.join(dir, `ready-${t}`)).every((f) => existsSync(f))) return;
    await sleep(25);
  }
  throw new Error('tasks did not start');
}

describe('no process outlives its step (proctrack/linuxproc)', () => {
  it('normal exit: the daemons a task left are killed and tsrun returns', async () => {
    const mark = randomUUID();
    const dir = mkdtempSync(path.join(tmpdir(), 'tslurm-clean-'));
    const r = await runBin('tsrun', ['--cluster', LINUXPROC, ...marked(mark), '-N2', '-n2', 'sh', '-c', script(dir, 'READY; exit 0')], { timeout: 20_000 });
    expect(r).toMatchObject({ exitCode: 0, stderr: '' });
    expect(await leftovers(mark)).toEqual([]);
  });

  it('-K: a failing task ends the step; SIGTERM-ignoring tasks get SIGKILL after KillWait', async () => {
    const mark = randomUUID();
    const dir = mkdtempSync(path.join(tmpdir(), 'tslurm-clean-'));
    const tail = `READY; if [ $SLURM_PROCID = 1 ]; then sleep 0.5; exit 3; fi; trap '' TERM; sleep 300`;
    const r = await runBin('tsrun', ['--cluster', LINUXPROC, ...marked(mark), '-K', '-n3', 'sh', '-c', script(dir, tail)], {
      env: { TSLURM_KILL_WAIT: '1' },
      timeout: 20_000,
    });
    expect(r.exitCode).toBe(137);
    expect(r.stderr).toContain('tsrun: error: node1: task 1: Exited with exit code 3');
    expect(r.stderr).toContain('tsrun: error: node1: tasks 0,2: Killed');
    expect(await leftovers(mark)).toEqual([]);
  });

  it('-t: the time limit ends the step and everything in it', async () => {
    const mark = randomUUID();
    const dir = mkdtempSync(path.join(tmpdir(), 'tslurm-clean-'));
    const r = await runBin('tsrun', ['--cluster', LINUXPROC, ...marked(mark), '-t', '1', '-n2', 'sh', '-c', script(dir, `READY; trap '' TERM; sleep 300`)], {
      env: { TSLURM_MINUTE_SECONDS: '1', TSLURM_KILL_WAIT: '1' },
      timeout: 20_000,
    });
    expect(r.exitCode).toBe(137);
    expect(r.stderr).toMatch(/CANCELLED AT \S+ DUE TO TIME LIMIT/);
    expect(await leftovers(mark)).toEqual([]);
  });

  it('SIGTERM to tsrun kills the whole container, as srun does', async () => {
    const mark = randomUUID();
    const dir = mkdtempSync(path.join(tmpdir(), 'tslurm-clean-'));
    const run = startBin('tsrun', ['--cluster', LINUXPROC, ...marked(mark), '-N2', '-n2', 'sh', '-c', script(dir, 'READY; wait')], {
      env: { TSLURM_KILL_WAIT: '1' },
    });
    await ready(dir, 2);
    expect(liveWithMark(mark).length).toBeGreaterThanOrEqual(6);
    run.kill('SIGTERM');
    const r = await run;
    expect(r.exitCode).toBe(137);
    // The two nodes' lines come in the order their tasks ended.
    expect(String(r.stderr)).toContain('tsrun: error: node1: task 0: Killed\n');
    expect(String(r.stderr)).toContain('tsrun: error: node2: task 1: Killed\n');
    expect(await leftovers(mark)).toEqual([]);
  });
});

describe('proctrack/pgid ends what stays in the tasks\' process groups', () => {
  it('-t with a double-forked grandchild that ignores SIGTERM', async () => {
    const mark = randomUUID();
    const r = await runBin('tsrun', ['--cluster', fixture('clusters', 'proctrack-pgid.yaml'), ...marked(mark), '-t', '1', '-n2', 'sh', '-c', `trap '' TERM; (sh -c 'sleep 301' &); sleep 300`], {
      env: { TSLURM_MINUTE_SECONDS: '1', TSLURM_KILL_WAIT: '1' },
      timeout: 20_000,
    });
    expect(r.exitCode).toBe(137);
    expect(await leftovers(mark)).toEqual([]);
  });
});

describe('no process outlives a batch job (proctrack/linuxproc)', () => {
  // A controller per case: the time limit's minute length is the controller's setting.
  const controllers: Array<ReturnType<typeof testController>> = [];
  afterAll(() => Promise.all(controllers.map((c) => c.stop())));

  it.each([
    ['tscancel', [] as string[]],
    ['the time limit', ['-t', '1']],
  ])('%s ends the script, its daemons and a SIGTERM-ignoring process', async (_how, extra) => {
    const mark = randomUUID();
    const dir = mkdtempSync(path.join(tmpdir(), 'tslurm-clean-'));
    const body = script(dir, `trap '' TERM; sh -c 'sleep 302' & READY; wait`).replace('$SLURM_PROCID', '0');
    const ctl = testController({ TSLURM_KILL_WAIT: '1', TSLURM_MINUTE_SECONDS: '2' });
    controllers.push(ctl);
    const submitted = await ctl.run('tsbatch', ['--cluster', LINUXPROC, '--parsable', ...marked(mark, extra), '--wrap', body]);
    const id = submitted.stdout.trim();
    await ready(dir, 1);
    expect(liveWithMark(mark).length).toBeGreaterThanOrEqual(4);
    if (extra.length === 0) await ctl.run('tscancel', [id]);
    await ctl.until(async () => ['CANCELLED', 'TIMEOUT'].includes(await ctl.jobField(id, 'JobState')), 20_000);
    expect(await leftovers(mark)).toEqual([]);
  });
});

// proctrack/cgroup needs a writable cgroup v2 hierarchy; where there is none the cases are
// skipped and the reason is in their title.
const CGROUP = fixture('clusters', 'proctrack-cgroup.yaml');
const cgroupRoot = ['/sys/fs/cgroup', '/sys/fs/cgroup/unified'].find((dir) => existsSync(`${dir}/cgroup.controllers`) && isWritable(dir));
const cgroupNote = cgroupRoot ? `cgroup v2 at ${cgroupRoot}` : 'SKIPPED: no writable cgroup v2 hierarchy on this machine';

function isWritable(dir: string): boolean {
  try {
    accessSync(dir, constants.W_OK);
    return true;
  } catch {
    return false;
  }
}

describe(`no process outlives its step (proctrack/cgroup, ${cgroupNote})`, () => {
  it.skipIf(!cgroupRoot)('a normal exit kills what setsid and a double fork left, and removes the step cgroup', async () => {
    const mark = randomUUID();
    const dir = mkdtempSync(path.join(tmpdir(), 'tslurm-clean-'));
    const tail = `READY; sed -n 's/^0:://p' /proc/self/cgroup; exit 0`;
    const r = await runBin('tsrun', ['--cluster', CGROUP, ...marked(mark), '-N2', '-n2', 'sh', '-c', script(dir, tail)], { timeout: 20_000 });
    expect(r).toMatchObject({ exitCode: 0, stderr: '' });
    expect(await leftovers(mark)).toEqual([]);
    // Each node's step directory (other tests' steps may share the levels above it).
    const dirs = r.stdout.trim().split('\n');
    expect(dirs).toHaveLength(2);
    for (const step of dirs) expect(step).toMatch(/^\/tslurm\/stepd_\d+_\d+\/node_node[12]\/job_\d+\/step_0$/);
    expect(dirs.filter((step) => existsSync(`${cgroupRoot}${step}`))).toEqual([]);
  });

  it.skipIf(!cgroupRoot)('tscancel of a batch job ends everything in its cgroup', async () => {
    const ctl = testController({ TSLURM_KILL_WAIT: '1' });
    try {
      const mark = randomUUID();
      const dir = mkdtempSync(path.join(tmpdir(), 'tslurm-clean-'));
      const body = script(dir, `trap '' TERM; sh -c 'sleep 302' & READY; wait`).replace('$SLURM_PROCID', '0');
      const id = (await ctl.run('tsbatch', ['--cluster', CGROUP, '--parsable', ...marked(mark), '--wrap', body])).stdout.trim();
      await ready(dir, 1);
      await ctl.run('tscancel', [id]);
      await ctl.until(async () => (await ctl.jobField(id, 'JobState')) === 'CANCELLED', 20_000);
      expect(await leftovers(mark)).toEqual([]);
    } finally {
      await ctl.stop();
    }
  });
});

describe('job_container/cncu', () => {
  it('runs the clean-up command when the job ends, with the job id and its containers', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'tslurm-cncu-'));
    const out = path.join(dir, 'cleanup.txt');
    const yaml = readFileSync(LINUXPROC, 'utf8').replace(/cleanup_command: .*/, `cleanup_command: 'echo "$SLURM_JOB_ID $SLURM_CONTAINER_IDS" > ${out}'`);
    const cluster = path.join(dir, 'cluster.yaml');
    await import('node:fs/promises').then((fs) => fs.writeFile(cluster, yaml));
    const r = await runBin('tsrun', ['--cluster', cluster, '-N2', '-n2', 'true']);
    expect(r).toMatchObject({ exitCode: 0, stderr: '' });
    // One job (1), two nodes: two proctrack containers, both handles of proctrack/linuxproc.
    expect(readFileSync(out, 'utf8')).toMatch(/^1 \d+,\d+\n$/);
  });

  it('reports a failing clean-up command in the step host\'s log, as slurmd logs it, and still completes the job', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'tslurm-cncu-'));
    const yaml = readFileSync(LINUXPROC, 'utf8').replace(/cleanup_command: .*/, `cleanup_command: 'echo no disk >&2; exit 3'`);
    const cluster = path.join(dir, 'cluster.yaml');
    await import('node:fs/promises').then((fs) => fs.writeFile(cluster, yaml));
    const stateDir = mkdtempSync(path.join(tmpdir(), 'tslurm-cncu-state-'));
    const r = await runBin('tsrun', ['--cluster', cluster, '-n1', 'true'], { env: { TSLURM_STATE_DIR: stateDir } });
    expect(r).toMatchObject({ exitCode: 0, stderr: '' });
    const log = readFileSync(path.join(stateDir, 'tsstepd.log'), 'utf8');
    expect(log).toContain('error: job_container/cncu: clean-up command for job 1 exited with 3: no disk\n');
    expect(log).toContain('error: job_container/cncu: container_p_delete: failed: I/o error\n');
  });
});
