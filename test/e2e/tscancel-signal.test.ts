// tscancel -s of a batch job reaches what scancel -s reaches on Slurm 22.05 (observed,
// /work/ref/signals.txt): the job's steps only by default, the batch shell alone with
// -b/--batch, and the batch shell, everything it started and the steps with -f/--full.
import { afterAll, describe, expect, it } from 'vitest';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { testController } from '../helpers/controller.js';
import { repoRoot } from '../helpers/run-bin.js';

const tsrun = `${process.execPath} ${path.join(repoRoot, 'bin', 'tsrun.js')}`;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// The batch shell, a background child of it and a step's task each note a USR1 they get.
function script(dir: string): string {
  const got = (who: string) => `trap 'echo ${who} >> ${dir}/got' USR1`;
  return [
    '#!/bin/sh',
    got('shell'),
    `sh -c "${got('child')}; while :; do sleep 0.2; done" &`,
    `${tsrun} -n1 sh -c "${got('step')}; touch ${dir}/ready; while :; do sleep 0.2; done" &`,
    'while :; do sleep 0.2; done',
  ].join('\n');
}

async function until(check: () => boolean, ms = 20_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('condition not reached in time');
    await sleep(100);
  }
}

describe('tscancel -s of a batch job, as scancel', () => {
  const ctl = testController({ TSLURM_KILL_WAIT: '1' });
  afterAll(() => ctl.stop());

  it.each([
    ['', [] as string[], ['step']],
    ['-b', ['-b'], ['shell']],
    ['--batch', ['--batch'], ['shell']],
    ['-f', ['-f'], ['child', 'shell', 'step']],
    ['-f -b (-f wins)', ['-f', '-b'], ['child', 'shell', 'step']],
  ])('tscancel -s USR1 %s', async (name, flags, expected) => {
    const dir = path.join(ctl.workDir, `case${flags.join('')}`);
    await import('node:fs/promises').then((fs) => fs.mkdir(dir, { recursive: true }).then(() => fs.writeFile(path.join(dir, 'job.sh'), script(dir))));
    const id = (await ctl.run('tsbatch', ['--parsable', '-o', path.join(dir, 'out'), path.join(dir, 'job.sh')])).stdout.trim();
    await until(() => existsSync(path.join(dir, 'ready')));
    expect(await ctl.run('tscancel', ['-s', 'USR1', ...flags, id])).toMatchObject({ exitCode: 0, stderr: '' });
    const got = () => (existsSync(path.join(dir, 'got')) ? readFileSync(path.join(dir, 'got'), 'utf8').split('\n').filter(Boolean).sort() : []);
    await until(() => got().length >= expected.length);
    await sleep(1500); // what should not get the signal has had time to show it did
    // Who got it, not how often: with -f the step may get it twice, as from scancel and from
    // tsrun, which is in the batch step and passes a USR1 on (srun too; Slurm's two coalesce).
    expect([...new Set(got())]).toEqual(expected);
    await ctl.run('tscancel', [id]);
  });
});
