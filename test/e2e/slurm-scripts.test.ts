// The compatibility suite: shell scripts written as a Slurm user writes them (test/scripts/),
// run unchanged through the drop-in names, each on a fresh controller. They take the cluster
// from the environment: here SLURM_CONF names the reference Slurm's own slurm.conf ("multi":
// node[1-3], partitions debug and small). The same scripts print OK on the real Slurm 22.05
// (/work/ref/scontrol.txt).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execa } from 'execa';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fixture, repoRoot, runBin } from '../helpers/run-bin.js';
import { testController, type TestController } from '../helpers/controller.js';

// srun inside salloc runs once the toolkit has salloc (bin/tsalloc.js); until then it is skipped.
const hasSalloc = existsSync(path.join(repoRoot, 'bin', 'tsalloc.js'));
const SCRIPTS: Array<[string, boolean]> = [
  ['poll-squeue.sh', true],
  ['parse-scontrol.sh', true],
  ['dependency-chain.sh', true],
  ['array-bookkeeping.sh', true],
  ['srun-in-salloc.sh', hasSalloc],
];

describe('Slurm user scripts through the drop-in names', () => {
  const controllers: TestController[] = [];
  let bin = '';
  beforeAll(async () => {
    const holder = testController();
    controllers.push(holder);
    bin = path.join(holder.workDir, 'slurm-bin');
    expect((await runBin('tslurm-dropin', [bin])).exitCode).toBe(0);
  });
  afterAll(async () => {
    for (const ctl of controllers) await ctl.stop();
  });

  it('runs them on the slurm.conf cluster', async () => {
    const ctl = testController({ SLURM_CONF: fixture('slurm-conf', 'real-slurm', 'slurm-multi.conf') });
    controllers.push(ctl);
    const sinfo = await execa('sinfo', ['-h', '-o', '%P %N %l'], { cwd: ctl.workDir, reject: false, env: { ...ctl.env, PATH: `${bin}:${process.env.PATH}`, TSLURM_CONF: undefined } });
    expect(sinfo.stdout).toBe('debug* node[1-3] infinite\nsmall node1 10:00');
  });

  for (const [script, runnable] of SCRIPTS) {
    it.skipIf(!runnable)(`${script} passes unchanged`, async () => {
      const ctl = testController({ SLURM_CONF: fixture('slurm-conf', 'real-slurm', 'slurm-multi.conf') });
      controllers.push(ctl);
      const result = await execa('bash', [path.join(repoRoot, 'test', 'scripts', script)], {
        cwd: ctl.workDir,
        reject: false,
        timeout: 240_000,
        // TSLURM_CONF would win over SLURM_CONF: a developer's own is kept out.
        env: { ...ctl.env, NO_COLOR: '1', PATH: `${bin}:${process.env.PATH}`, TSLURM_CONF: undefined },
      });
      expect({ stderr: result.stderr, stdout: result.stdout, exitCode: result.exitCode }).toEqual({ stderr: '', stdout: 'OK', exitCode: 0 });
    }, 250_000);
  }
});
