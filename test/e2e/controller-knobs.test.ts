// Runtime knobs of the controller (TSLURM_MINUTE_SECONDS, TSLURM_KILL_WAIT, TSLURM_MIN_JOB_AGE,
// TSLURM_CTLD_IDLE_EXIT) are taken when it starts; a tsbatch whose environment asks for another
// value while it runs says under -v that its job does not get it, instead of saying nothing.
import { afterAll, describe, expect, it } from 'vitest';
import { fixture } from '../helpers/run-bin.js';
import { testController } from '../helpers/controller.js';

describe('controller settings from the environment', () => {
  const ctl = testController({ TSLURM_CONF: fixture('clusters', 'small.yaml') });
  afterAll(() => ctl.stop());

  it('tsbatch -v reports a setting the running controller ignores, and only then', async () => {
    const first = await ctl.run('tsbatch', ['-v', '-H', '--wrap', 'true'], { env: { TSLURM_MINUTE_SECONDS: '1' } });
    // It started the controller with that value: nothing is ignored.
    expect(first).toMatchObject({ exitCode: 0, stdout: 'Submitted batch job 1\n' });
    expect(first.stderr).not.toContain('ignored');
    const same = await ctl.run('tsbatch', ['-v', '-H', '--wrap', 'true'], { env: { TSLURM_MINUTE_SECONDS: '1' } });
    expect(same.stderr).not.toContain('ignored');
    const other = await ctl.run('tsbatch', ['-v', '-H', '--wrap', 'true'], { env: { TSLURM_MINUTE_SECONDS: '60', TSLURM_MIN_JOB_AGE: '5' } });
    expect(other.exitCode).toBe(0);
    expect(other.stderr).toContain('tsbatch: TSLURM_MINUTE_SECONDS=60 is ignored: the running controller uses 1 (it takes TSLURM_MINUTE_SECONDS when it starts; stop it, or use another TSLURM_STATE_DIR)\n');
    expect(other.stderr).toContain('tsbatch: TSLURM_MIN_JOB_AGE=5 is ignored: the running controller uses 300');
    // Without -v, nothing extra.
    const quiet = await ctl.run('tsbatch', ['-H', '--wrap', 'true'], { env: { TSLURM_MINUTE_SECONDS: '60' } });
    expect(quiet).toEqual({ exitCode: 0, stdout: 'Submitted batch job 4\n', stderr: '' });
  });
});
