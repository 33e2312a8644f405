// What the shared job options do, through the ts names: --signal before the time limit,
// --gpus-per-node/--gpus-per-task, srun's --cpu-bind variables, -I, -d, --jobid, ...
import { afterAll, describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { fixture } from '../helpers/run-bin.js';
import { testController } from '../helpers/controller.js';

// A minute of time limit lasts 6 s here, so --signal=...@30 comes 3 s before the end.
const ctl = testController({ TSLURM_CONF: fixture('clusters', 'gpu.yaml'), TSLURM_MINUTE_SECONDS: '6', TSLURM_KILL_WAIT: '1' });
afterAll(() => ctl.stop());

const trapScript = (signal: string) => `#!/bin/bash
trap 'echo "got ${signal}"; exit 0' ${signal}
sleep 100 &
wait
`;

describe('--signal', () => {
  it('reaches a batch script before its time limit (sbatch --signal=B:USR1@30)', async () => {
    writeFileSync(path.join(ctl.workDir, 'trap.sh'), trapScript('USR1'));
    const r = await ctl.run('tsbatch', ['--parsable', '-t', '1', '--signal=B:USR1@30', '-o', 'trap.out', 'trap.sh']);
    expect(r.exitCode).toBe(0);
    const id = r.stdout.trim();
    await ctl.until(async () => (await ctl.jobField(id, 'JobState')) === 'COMPLETED', 30_000);
    expect(ctl.read('trap.out')).toBe('got USR1\n');
  }, 40_000);

  it("reaches srun's tasks before the time limit (srun --signal=USR2@30)", async () => {
    writeFileSync(path.join(ctl.workDir, 'trap2.sh'), trapScript('USR2'));
    const r = await ctl.run('tsrun', ['-t', '1', '--signal=USR2@30', 'bash', 'trap2.sh']);
    expect(r).toMatchObject({ exitCode: 0, stdout: 'got USR2\n' });
  }, 40_000);
});
