// The compatibility suite: shell scripts written as a Slurm user writes them (test/scripts/),
// run unchanged through the drop-in names, each on a fresh controller. They take the cluster
// from the environment; here a YAML fixture of the reference Slurm's shape. The same scripts
// print OK on the real Slurm 22.05 (/work/ref/scontrol.txt).
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

  for (const [script, runnable] of SCRIPTS) {
    it.skipIf(!runnable)(`${script} passes unchanged`, async () => {
      const ctl = testController({ TSLURM_CONF: fixture('clusters', 'small.yaml') });
      controllers.push(ctl);
      const result = await execa('bash', [path.join(repoRoot, 'test', 'scripts', script)], {
        cwd: ctl.workDir,
        reject: false,
        timeout: 240_000,
        env: { ...ctl.env, NO_COLOR: '1', PATH: `${bin}:${process.env.PATH}` },
      });
      expect({ stderr: result.stderr, stdout: result.stdout, exitCode: result.exitCode }).toEqual({ stderr: '', stdout: 'OK', exitCode: 0 });
    }, 250_000);
  }
});
