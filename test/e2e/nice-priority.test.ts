// --nice in priority/basic, as Slurm 22.05 computes it (observed, /work/ref/nice-timemin.txt):
// each job gets one below the previous job's priority, less its nice; the count goes on from
// the un-niced value; `scontrol update JobId= Nice=` moves the priority by the change. Under
// sched/builtin and sched/backfill a niced job then runs after an un-niced one submitted later.
import { afterAll, describe, expect, it } from 'vitest';
import path from 'node:path';
import { fixture, repoRoot } from '../helpers/run-bin.js';
import { testController, type TestController } from '../helpers/controller.js';

const tscontrol = `${process.execPath} ${path.join(repoRoot, 'bin', 'tscontrol.js')}`;

const clusters = [
  { sched: 'sched/builtin', file: 'one-node.yaml', whole: ['-n8'] },
  { sched: 'sched/backfill', file: 'backfill.yaml', whole: ['-N4'] },
];

async function submit(ctl: TestController, args: string[]): Promise<number> {
  const r = await ctl.run('tsbatch', ['--parsable', ...args]);
  expect(r.stderr).toBe('');
  return Number(r.stdout.trim());
}

/** tsqueue's %Q (priority) and %y (nice) of a job. */
async function priorityOf(ctl: TestController, id: number): Promise<{ priority: number; nice: number }> {
  const r = await ctl.run('tsqueue', ['-h', '-j', String(id), '-o', '%Q %y']);
  const [priority, nice] = r.stdout.trim().split(' ').map(Number);
  return { priority: priority!, nice: nice! };
}

describe.each(clusters)('--nice under $sched', ({ file, whole }) => {
  const ctl = testController({ TSLURM_CONF: fixture('clusters', file) });
  afterAll(() => ctl.stop());

  it('lowers the priority by the nice value, and a niced job runs after an un-niced one submitted later', async () => {
    const filler = await submit(ctl, [...whole, '-t', '5', '--wrap', 'sleep 300']);
    await ctl.until(async () => (await ctl.jobField(filler, 'JobState')) === 'RUNNING');
    // Each job needs the whole cluster, so they run one after the other, in priority order.
    const niced = await submit(ctl, [...whole, '-t', '1', '--nice=100', '--wrap', 'echo niced >> order']);
    const plain = await submit(ctl, [...whole, '-t', '1', '--wrap', 'echo plain >> order']);
    const bare = await submit(ctl, [...whole, '-t', '1', '--nice', '--wrap', 'echo bare >> order']);
    const first = await priorityOf(ctl, filler);
    expect(first.priority).toBe(4294901759); // slurmctld's first job: TOP_PRIORITY - 1
    expect(await priorityOf(ctl, niced)).toEqual({ priority: first.priority - 1 - 100, nice: 100 });
    expect(await priorityOf(ctl, plain)).toEqual({ priority: first.priority - 2, nice: 0 });
    expect(await priorityOf(ctl, bare)).toEqual({ priority: first.priority - 3 - 100, nice: 100 });
    expect(await ctl.jobField(niced, 'Nice')).toBe('100');
    expect(await ctl.jobField(niced, 'Priority')).toBe(String(first.priority - 101));
    // Nice=200 on the plain job moves its priority by the change and puts it last.
    expect((await ctl.run('tscontrol', ['update', `JobId=${plain}`, 'Nice=200'])).exitCode).toBe(0);
    expect(await priorityOf(ctl, plain)).toEqual({ priority: first.priority - 2 - 200, nice: 200 });
    // A bare Nice is 100, as scontrol reads it.
    expect((await ctl.run('tscontrol', ['update', `JobId=${plain}`, 'Nice'])).exitCode).toBe(0);
    expect(await priorityOf(ctl, plain)).toEqual({ priority: first.priority - 2 - 100, nice: 100 });
    expect((await ctl.run('tscontrol', ['update', `JobId=${plain}`, 'Nice=0'])).exitCode).toBe(0);
    const tooBig = await ctl.run('tscontrol', ['update', `JobId=${plain}`, 'Nice=3000000000']);
    expect({ exit: tooBig.exitCode, stderr: tooBig.stderr }).toEqual({ exit: 1, stderr: 'tscontrol: error: Nice value out of range (+/- 2147483645). Value ignored\n' });
    expect((await ctl.run('tscancel', [String(filler)])).exitCode).toBe(0);
    await ctl.until(async () => (await ctl.run('tsqueue', ['-h'])).stdout.trim() === '', 60_000);
    expect(ctl.read('order').trim().split('\n')).toEqual(['plain', 'niced', 'bare']);
  }, 90_000);
});

describe('a negative nice', () => {
  const ctl = testController({ TSLURM_CONF: fixture('clusters', 'one-node.yaml') });
  afterAll(() => ctl.stop());

  it('raises the priority above earlier jobs when the controller\'s user asks', async () => {
    const later = ['--begin=now+1hour', '--wrap', 'true'];
    const a = await submit(ctl, later);
    const b = await submit(ctl, ['--nice=-50', ...later]);
    const c = await submit(ctl, later);
    const pa = (await priorityOf(ctl, a)).priority;
    // b: one below the count, plus 50; c goes on from b's un-niced value.
    expect(await priorityOf(ctl, b)).toEqual({ priority: pa - 1 + 50, nice: -50 });
    expect((await priorityOf(ctl, c)).priority).toBe(pa - 2);
    // A job tsrun creates counts the same way (srun --nice).
    const shown = await ctl.run('tsrun', ['--nice=30', 'sh', '-c', `${tscontrol} show job $SLURM_JOB_ID`]);
    expect(shown.stdout).toContain(`   Priority=${pa - 3 - 30} Nice=30 `);
  }, 60_000);
});
