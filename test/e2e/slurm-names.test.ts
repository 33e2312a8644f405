// The drop-in (bin/tslurm-dropin.js): Slurm's command names on PATH, and a CI script written
// for Slurm (test/scripts/ci-slurm-names.sh) passing unchanged through them.
import { afterAll, describe, expect, it } from 'vitest';
import { execa } from 'execa';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fixture, repoRoot, runBin } from '../helpers/run-bin.js';
import { testController } from '../helpers/controller.js';

describe('Slurm names through tslurm-dropin', () => {
  const ctl = testController({ TSLURM_CONF: fixture('clusters', 'small.yaml') });
  afterAll(() => ctl.stop());
  const bin = path.join(ctl.workDir, 'slurm-bin');
  const run = (file: string, args: string[]) =>
    execa(file, args, { cwd: ctl.workDir, reject: false, stripFinalNewline: false, timeout: 120_000, env: { ...ctl.env, NO_COLOR: '1', PATH: `${bin}:${process.env.PATH}` } });

  it('writes the nine commands and prints where', async () => {
    const made = await runBin('tslurm-dropin', [bin]);
    expect(made).toEqual({ exitCode: 0, stdout: `${bin}\n`, stderr: '' });
    for (const name of ['srun', 'sbatch', 'squeue', 'sinfo', 'scontrol', 'scancel', 'sbcast', 'salloc', 'sacct']) expect(existsSync(path.join(bin, name))).toBe(true);
  });

  it("speaks as Slurm's commands: their names in errors, Slurm's version line", async () => {
    expect((await run('sinfo', ['--version'])).stdout).toBe('slurm 22.05.8\n');
    expect((await run('scontrol', ['update', 'NodeName=node1', 'State=DRAIN'])).stderr).toBe(
      'You must specify a reason when DOWNING or DRAINING a node. Request denied\n',
    );
    const bad = await run('sinfo', ['-o', '%Q']);
    expect(bad.stderr).toMatch(/^sinfo: error: /);
  });

  it('runs a CI script written for Slurm, unchanged', async () => {
    const result = await run('bash', [path.join(repoRoot, 'test', 'scripts', 'ci-slurm-names.sh')]);
    expect(result.stderr).toBe('');
    expect(result.stdout).toBe('OK\n');
    expect(result.exitCode).toBe(0);
  }, 120_000);
});
