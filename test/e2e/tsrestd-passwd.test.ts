// tsrestd learns of a user added to /etc/passwd after it started (useradd, as root only, as
// ctld-slurmuser.test.ts does): the user's token is taken without a restart of tsrestd.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execa } from 'execa';
import { testController } from '../helpers/controller.js';
import { startRestd, type TestRestd } from '../helpers/restd.js';
import { fixture } from '../helpers/run-bin.js';

const asRoot = process.getuid?.() === 0;
const user = `tsrestd-late${process.pid % 100000}`;

describe.runIf(asRoot)('tsrestd and /etc/passwd', () => {
  const ctl = testController({ TSLURM_CONF: fixture('clusters', 'small.yaml') });
  let restd: TestRestd;

  beforeAll(async () => {
    await execa('userdel', [user], { reject: false });
    restd = await startRestd(ctl);
  });
  afterAll(async () => {
    await restd?.stop();
    await ctl.stop();
    await execa('userdel', [user], { reject: false });
  });

  it('takes the token of a user added after it started', async () => {
    // tsrestd has read the user table by now: a token names root, whom it looks up.
    const rootToken = /^SLURM_JWT=(\S+)\n$/.exec((await ctl.run('tscontrol', ['token'])).stdout)![1]!;
    expect((await restd.request('/slurm/v0.0.38/ping', { tcp: true, headers: { 'X-SLURM-USER-NAME': 'root', 'X-SLURM-USER-TOKEN': rootToken } })).status).toBe(200);

    await execa('useradd', ['-M', '-r', user]);
    const made = await ctl.run('tscontrol', ['token', `username=${user}`]);
    expect(made.stderr).toBe('');
    const token = /^SLURM_JWT=(\S+)\n$/.exec(made.stdout)![1]!;
    const asNewUser = () => restd.request('/slurm/v0.0.38/ping', { tcp: true, headers: { 'X-SLURM-USER-NAME': user, 'X-SLURM-USER-TOKEN': token } });
    // Within a few seconds (tsrestd looks at the file at most once a second), not after a restart.
    await ctl.until(async () => (await asNewUser()).status === 200, 15_000);
    const answer = await asNewUser();
    expect([answer.status, answer.json.errors]).toEqual([200, []]);
  });
});
