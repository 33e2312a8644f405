// A signal to a pending job, as slurmctld 22.05's job_signal answers it: any signal but KILL is
// refused with ESLURM_TRANSITION_STATE_NO_UPDATE (2020, "Job can not be altered now, try again
// later"), KILL cancels the job. Observed on Slurm 22.05.8 (`sbatch --hold --wrap=true`, then
// `scancel -s USR1 <id>`: "scancel: error: Kill job error on job id 152: Job can not be altered
// now, try again later"; slurmrestd: /work/ref/restd-slurmrestd-22.05.txt, DELETE
// /job/3?signal=USR1), through tscancel and tsrestd alike.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testController } from '../helpers/controller.js';
import { startRestd, type TestRestd } from '../helpers/restd.js';
import { fixture } from '../helpers/run-bin.js';

describe('a signal to a pending job', () => {
  const ctl = testController({ TSLURM_CONF: fixture('clusters', 'small.yaml') });
  let restd: TestRestd;
  const held = async (): Promise<string> => (await ctl.run('tsbatch', ['--parsable', '--hold', '-o', '/dev/null', '--wrap', 'true'])).stdout.trim();

  beforeAll(async () => {
    restd = await startRestd(ctl);
  });
  afterAll(async () => {
    await restd?.stop();
    await ctl.stop();
  });

  it('is refused by tscancel with 2020, and KILL cancels the job', async () => {
    const id = await held();
    const refused = await ctl.run('tscancel', ['-s', 'USR1', id]);
    expect(refused).toEqual({ exitCode: 1, stdout: '', stderr: `tscancel: error: Kill job error on job id ${id}: Job can not be altered now, try again later\n` });
    expect(await ctl.jobField(id, 'JobState')).toBe('PENDING');
    expect(await ctl.run('tscancel', ['-s', 'KILL', id])).toEqual({ exitCode: 0, stdout: '', stderr: '' });
    expect(await ctl.jobField(id, 'JobState')).toBe('CANCELLED');
  });

  it('is refused by tsrestd as slurmrestd 22.05 refuses it', async () => {
    const id = await held();
    const refused = await restd.request(`/slurm/v0.0.38/job/${id}?signal=USR1`, { method: 'DELETE' });
    expect([refused.status, refused.json.errors]).toEqual([
      500,
      [
        {
          description: `unable to kill JobId=${id} with signal 10: Job can not be altered now, try again later`,
          error_number: 2020,
          error: 'Job can not be altered now, try again later',
          source: 'slurm_kill_job',
        },
      ],
    ]);
    expect(await ctl.jobField(id, 'JobState')).toBe('PENDING');
    const killed = await restd.request(`/slurm/v0.0.38/job/${id}?signal=KILL`, { method: 'DELETE' });
    expect([killed.status, killed.json.errors]).toEqual([200, []]);
    expect(await ctl.jobField(id, 'JobState')).toBe('CANCELLED');
  });
});
