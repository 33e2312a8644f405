// A batch launch the step host cannot carry out for a reason of its own host (its spool
// unusable, its file descriptors used up) ends the job with that reason, said once in the
// controller's log: not "Slurm internal error", which is for defects.
import { afterAll, describe, expect, it } from 'vitest';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fixture } from '../helpers/run-bin.js';
import { testController } from '../helpers/controller.js';

const small = fixture('clusters', 'small.yaml');

describe('a batch launch the step host cannot write', () => {
  const ctl = testController();
  afterAll(() => ctl.stop());

  it('fails the job with the reason, logged once', async () => {
    // The first job starts the controller and the step host, and makes the spool.
    expect((await ctl.run('tsbatch', ['--cluster', small, '--wait', '--wrap', 'true'])).exitCode).toBe(0);
    const jobs = path.join(ctl.stateDir, 'stepd', 'jobs');
    rmSync(jobs, { recursive: true, force: true });
    writeFileSync(jobs, 'not a directory\n');
    const submitted = await ctl.run('tsbatch', ['--cluster', small, '--parsable', '--wrap', 'true']);
    const id = Number(submitted.stdout.trim());
    await ctl.until(async () => (await ctl.jobField(id, 'JobState')) === 'FAILED');
    const lines = readFileSync(path.join(ctl.stateDir, 'tsctld.log'), 'utf8')
      .split('\n')
      .filter((line) => line.includes(`job ${id}:`));
    expect(lines).toEqual([`tsctld: error: job ${id}: batch step could not start: cannot write the batch script of job ${id} into ${jobs}/${id}: Not a directory`]);
    rmSync(jobs, { force: true });
  });
});
