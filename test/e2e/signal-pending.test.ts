// A signal to a pending job, as slurmctld 22.05's job_signal answers it: any signal but KILL is
// refused with ESLURM_TRANSITION_STATE_NO_UPDATE (2020, "Job can not be altered now, try again
// later"), KILL cancels the job. Observed on Slurm 22.05.8 (`sbatch --hold --wrap=true`, then
// `scancel -s USR1 <id>`: "scancel: error: Kill job error on job id 152: Job can not be altered
// now, try again later"; slurmrestd: /work/ref/restd-slurmrestd-22.05.txt, DELETE
// /job/3?signal=USR1), through tscancel and tsrestd alike.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testController } from '../helpers/controller.js';
import { startRestd, type TestRestd } from '../helpers/restd.js';
import { fixture, startBin } from '../helpers/run-bin.js';
import { writeFileSync } from 'node:fs';
import path from 'node:path';

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

  // scancel asks ten times more, 5 s, 6 s, ... 14 s apart, then gives up and exits 2020 & 0xff;
  // TSLURM_CANCEL_RETRY_WAIT=0.05 makes that 0.05 s, 0.06 s, ...
  const quickRetries = { env: { TSLURM_CANCEL_RETRY_WAIT: '0.05' } };

  it('is refused by tscancel with 2020 after scancel\'s retries, and KILL cancels the job', async () => {
    const id = await held();
    const refused = await ctl.run('tscancel', ['-s', 'USR1', id], quickRetries);
    expect(refused).toEqual({ exitCode: 228, stdout: '', stderr: `tscancel: error: Kill job error on job id ${id}: Job can not be altered now, try again later\n` });
    const verbose = await ctl.run('tscancel', ['-v', '-s', 'USR1', id], quickRetries);
    expect(verbose.exitCode).toBe(228);
    expect(verbose.stderr.split('\n').filter((line) => line === 'tscancel: Job is in transitional state, retrying')).toHaveLength(10);
    expect(await ctl.jobField(id, 'JobState')).toBe('PENDING');
    expect(await ctl.run('tscancel', ['-s', 'KILL', id])).toEqual({ exitCode: 0, stdout: '', stderr: '' });
    expect(await ctl.jobField(id, 'JobState')).toBe('CANCELLED');
  });

  it('reaches the job once it has started while tscancel retries', async () => {
    const script = path.join(ctl.workDir, 'trap.sh');
    const got = path.join(ctl.workDir, 'got-usr1');
    writeFileSync(script, `#!/bin/sh\ntrap 'echo USR1 > ${got}; exit 0' USR1\nwhile :; do sleep 0.1; done\n`);
    const id = (await ctl.run('tsbatch', ['--parsable', '--hold', '-o', '/dev/null', script])).stdout.trim();
    const cancel = startBin('tscancel', ['-v', '-b', '-s', 'USR1', id], { env: { ...ctl.env, TSLURM_CANCEL_RETRY_WAIT: '2' } });
    let stderr = '';
    cancel.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    await ctl.until(() => stderr.includes('Job is in transitional state, retrying'));
    expect((await ctl.run('tscontrol', ['release', id])).exitCode).toBe(0);
    const result = await cancel;
    expect([result.exitCode, stderr]).toEqual([0, `tscancel: Signal 10 to batch job ${id}\ntscancel: Job is in transitional state, retrying\n`]);
    await ctl.until(async () => (await ctl.jobField(id, 'JobState')) === 'COMPLETED');
    expect(ctl.read('got-usr1')).toBe('USR1\n');
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
