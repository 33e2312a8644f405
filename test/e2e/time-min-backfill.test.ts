// --time-min under sched/backfill, as Slurm 22.05's backfill (observed, /work/ref/nice-timemin.txt):
// a job whose limit does not fit in the hole before a blocked job's expected start starts there
// when its TimeMin does, with TimeLimit cut to TimeMin; one whose TimeMin does not fit waits
// with its own limit. A TimeMin beyond the limit is refused at submit.
import { afterAll, describe, expect, it } from 'vitest';
import { fixture } from '../helpers/run-bin.js';
import { testController } from '../helpers/controller.js';

// Four one-CPU nodes, whole nodes per job (select/linear), sched/backfill.
const ctl = testController({ TSLURM_CONF: fixture('clusters', 'backfill.yaml') });
afterAll(() => ctl.stop());

async function submit(args: string[]): Promise<string> {
  const r = await ctl.run('tsbatch', ['--parsable', ...args]);
  expect(r.stderr).toBe('');
  return r.stdout.trim();
}

describe('--time-min with sched/backfill', () => {
  it('starts a job in a hole shorter than its limit with TimeLimit cut to TimeMin', async () => {
    // Two nodes busy for at most 3 minutes; a job wanting all four waits for them: a hole of
    // under 3 minutes on the other two.
    const running = await submit(['-N2', '-t', '3', '--wrap', 'sleep 300']);
    await ctl.until(async () => (await ctl.jobField(running, 'JobState')) === 'RUNNING');
    const blocked = await submit(['-N4', '-t', '3', '--wrap', 'true']);
    const fits = await submit(['-N2', '-t', '10', '--time-min=1', '--wrap', 'sleep 300']);
    const tooLong = await submit(['-N2', '-t', '10', '--time-min=5', '--wrap', 'sleep 300']);
    const plain = await submit(['-N2', '-t', '10', '--wrap', 'sleep 300']);
    await ctl.until(async () => (await ctl.jobField(fits, 'JobState')) === 'RUNNING');
    const shown = (await ctl.run('tscontrol', ['show', 'job', fits])).stdout;
    expect(shown).toContain(' TimeLimit=00:01:00 TimeMin=00:01:00\n');
    // The time limit it runs with: tsqueue's %l, and an end one minute after its start.
    expect((await ctl.run('tsqueue', ['-h', '-j', fits, '-o', '%l'])).stdout.trim()).toBe('1:00');
    const start = Date.parse(/StartTime=(\S+)/.exec(shown)![1]!);
    const end = Date.parse(/EndTime=(\S+)/.exec(shown)![1]!);
    expect((end - start) / 1000).toBe(60);
    // Neither a TimeMin longer than the hole nor no TimeMin lets a job in; the blocked job keeps its start.
    expect(await ctl.jobField(blocked, 'JobState')).toBe('PENDING');
    for (const id of [tooLong, plain]) {
      expect(await ctl.jobField(id, 'JobState')).toBe('PENDING');
      expect(await ctl.jobField(id, 'TimeLimit')).toBe('00:10:00');
    }
    expect((await ctl.run('tscancel', [running, blocked, fits, tooLong, plain])).exitCode).toBe(0);
  }, 60_000);

  it('refuses a TimeMin beyond the time limit, as sbatch 22.05', async () => {
    const r = await ctl.run('tsbatch', ['-t', '5', '--time-min=10', '--wrap', 'true']);
    expect({ exit: r.exitCode, stderr: r.stderr }).toEqual({
      exit: 1,
      stderr: "tsbatch: error: Batch job submission failed: Invalid time-min specification (exceeds job's time or other limits)\n",
    });
  });
});
