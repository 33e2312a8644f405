// What steps and batch scripts use, measured on the real processes: a step whose task holds
// 200 MB reports a MaxRSS of about that (sampled every second here), a step burning CPU reports
// its CPU time, a batch script and the tasks of a step that briefly hold 200 MB report it (the
// spawn server's wait4 ru_maxrss: too short for any sample), and tssstat shows a running
// step's live figures in sstat's layout.
import { afterAll, describe, expect, it } from 'vitest';
import path from 'node:path';
import { fixture, repoRoot } from '../helpers/run-bin.js';
import { testController } from '../helpers/controller.js';
import { ctldRequest } from '../helpers/ctld-request.js';
import type { StepUsage } from '../../src/protocol/step-usage.js';

const cluster = fixture('clusters', 'acct-gather.yaml');
const slowCluster = fixture('clusters', 'acct-gather-slow.yaml');
const tsrun = `"${process.execPath}" "${path.join(repoRoot, 'bin', 'tsrun.js')}"`;
const MiB = 1024;

describe('step usage', () => {
  const ctl = testController();
  afterAll(() => ctl.stop());
  const usageOf = (id: string) => ctldRequest<{ steps: Record<string, StepUsage> }>(ctl.stateDir, 'job-usage', { id });

  it('a step holding 200 MB has MaxRSS about 200 MB, a CPU-bound step its CPU time, a step\'s tasks and a batch script their brief 200 MB peak', async () => {
    const script = [
      '#!/bin/sh',
      `${tsrun} python3 -c 'import time; b = bytearray(200 * 1024 * 1024); b[::4096] = b"x" * len(b[::4096]); time.sleep(3)'`,
      `${tsrun} python3 -c 'sum(i * i for i in range(3_000_000))'`,
      `${tsrun} -O -n2 sh -c 'head -c 200M /dev/zero | tail > /dev/null'`,
      // tail keeps the whole of its newline-free input: 200 MiB resident at its peak, for an instant.
      'head -c 200M /dev/zero | tail > /dev/null',
      'exit 0',
      '',
    ].join('\n');
    const result = await ctl.run('tsbatch', ['--cluster', cluster, '--parsable', '--wait', '-o', 'usage.out'], { input: script });
    expect(result).toMatchObject({ exitCode: 0, stderr: '' });
    const id = result.stdout.trim();
    expect(ctl.read('usage.out')).toBe('');
    const { steps } = await usageOf(id);
    expect(Object.keys(steps).sort()).toEqual(['0', '1', '2', 'batch']);
    expect(steps['0']!.maxRssKiB).toBeGreaterThanOrEqual(195 * MiB);
    expect(steps['0']!.maxRssKiB).toBeLessThan(400 * MiB);
    expect(steps['0']).toMatchObject({ maxRssTask: 0, maxRssNode: 'node1', ntasks: 1 });
    // Three million squares in Python take well over a tenth of a second of CPU anywhere.
    const cpu = steps['1']!.userCpuUsec + steps['1']!.systemCpuUsec;
    expect(cpu).toBeGreaterThan(100_000);
    expect(steps['1']!.maxRssKiB).toBeLessThan(100 * MiB);
    // Each task's peak, over before a sample could see it (and two tasks: not the cgroup's peak).
    expect(steps['2']!.maxRssKiB).toBeGreaterThanOrEqual(195 * MiB);
    expect(steps['2']!.maxRssKiB).toBeLessThan(450 * MiB);
    expect(steps['2']!.ntasks).toBe(2);
    expect(steps.batch!.userCpuUsec + steps.batch!.systemCpuUsec).toBeGreaterThan(0);
    expect(steps.batch!.maxRssKiB).toBeGreaterThanOrEqual(195 * MiB);
    expect(steps.batch!.maxRssKiB).toBeLessThan(450 * MiB);
  });

  it('tssstat shows a running step live, in sstat\'s layout; its errors are sstat\'s', async () => {
    const hold = `${tsrun} -n2 python3 -c 'import time; b = bytearray(120 * 1024 * 1024); b[::4096] = b"x" * len(b[::4096]); time.sleep(60)'`;
    const id = (await ctl.run('tsbatch', ['--cluster', cluster, '--parsable', '-n2', '-o', 'live.out'], { input: `#!/bin/sh\n${hold}\n` })).stdout.trim();
    const stat = (args: string[]) => ctl.run('tssstat', ['--cluster', cluster, ...args]);
    const figures = async () => (await stat(['-j', id, '-P', '-n', '-o', 'JobID,MaxRSS,MaxRSSTask,MaxRSSNode,NTasks'])).stdout.trim();
    await ctl.until(async () => /^\d+\.0\|\d+K\|/.test(await figures()) && Number(/\|(\d+)K\|/.exec(await figures())![1]) > 110 * MiB, 60_000);
    const [jobId, maxRss, task, node, ntasks] = (await figures()).split('|');
    expect(jobId).toBe(`${id}.0`);
    expect(Number(maxRss!.slice(0, -1))).toBeLessThan(300 * MiB);
    expect(['0', '1']).toContain(task);
    expect(node).toBe('node1');
    expect(ntasks).toBe('2');

    // The table: JobID left in 12 columns, the rest right-aligned in sstat's widths.
    const table = await stat(['-j', `${id}.0`, '-o', 'JobID,NTasks,MaxRSSNode']);
    expect(table).toMatchObject({ exitCode: 0, stderr: '' });
    expect(table.stdout).toBe(
      'JobID          NTasks MaxRSSNode \n' + '------------ -------- ---------- \n' + `${`${id}.0`.padEnd(12)}        2      node1 \n`,
    );
    // -a: the batch step too (its figures from the live sample the batch step writes).
    const all = await stat(['-a', '-j', id, '-p', '-n', '-o', 'JobID']);
    expect(all.stdout).toBe(`${id}.batch|\n${id}.0|\n`);

    expect(await stat([])).toMatchObject({ exitCode: 1, stdout: '', stderr: "tssstat: error: You didn't give me any jobs to stat.\n" });
    expect(await stat(['-j', 'abc'])).toMatchObject({ exitCode: 1, stderr: 'tssstat: fatal: Bad job/step specified: abc\n' });
    expect(await stat(['-j', id, '-o', 'Bogus'])).toMatchObject({ exitCode: 1, stderr: 'tssstat: error: Invalid field requested: "Bogus"\n' });
    await ctl.run('tscancel', [id]);
    await ctl.until(async () => (await ctl.jobField(id, 'JobState')) === 'CANCELLED');
    // sstat's two lines (observed): a job that ran, and one the controller does not know.
    const gone = await stat(['-j', id, '-n', '-o', 'JobID']);
    expect(gone).toMatchObject({ exitCode: 0, stdout: '', stderr: `tssstat: error: No steps running for job ${id}\n` });
    const unknown = await stat(['-j', '99999', '-o', 'JobID']);
    expect(unknown).toMatchObject({ exitCode: 0, stdout: 'JobID        \n------------ \n', stderr: "tssstat: error: couldn't get steps for job 99999\n" });
  });
});

describe("a batch script's first live sample", () => {
  const ctl = testController();
  afterAll(() => ctl.stop());

  it('counts what the children the script started in its first second hold, as the later samples do', async () => {
    // Sampled every 60 s: the figure tssstat shows within the test is the first sample's.
    const holder = `perl -e '$x = "x" x (100 * 1024 * 1024); sleep 60'`;
    const id = (await ctl.run('tsbatch', ['--cluster', slowCluster, '--parsable', '-o', 'first.out'], { input: `#!/bin/sh\n${holder}\n` })).stdout.trim();
    const maxRss = async () => /^\d+\.batch\|(\d+)K$/m.exec((await ctl.run('tssstat', ['--cluster', slowCluster, '-a', '-j', id, '-P', '-n', '-o', 'JobID,MaxRSS'])).stdout)?.[1];
    await ctl.until(async () => (await maxRss()) !== undefined, 30_000);
    const kib = Number(await maxRss());
    expect(kib).toBeGreaterThanOrEqual(90 * MiB);
    expect(kib).toBeLessThan(400 * MiB);
    await ctl.run('tscancel', ['--cluster', slowCluster, id]);
  });
});
