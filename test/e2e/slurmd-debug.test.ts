// srun's --slurmd-debug: the step daemon's lines on the step's stderr at the level asked for,
// in the shapes slurmstepd 22.05 prints them (/work/ref/slurmd-debug.txt), through tsrun and
// the drop-in srun; the level is a number or a name, an increment srun caps at 4.
import { afterAll, describe, expect, it } from 'vitest';
import { execa } from 'execa';
import path from 'node:path';
import { fixture, repoRoot } from '../helpers/run-bin.js';
import { testController } from '../helpers/controller.js';

const DATE = '\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d';

/** The lines a two-task step exiting 3 prints at stderr level `level` ('verbose', 'debug', 'debug2'). */
function expected(level: 'verbose' | 'debug' | 'debug2', cmd: string): RegExp[] {
  const debug = level !== 'verbose';
  return [
    new RegExp(`^tsstepd-node1: debug levels are stderr='${level}', logfile='info', syslog='fatal'$`),
    ...(debug ? [/^tsstepd-node1: debug: {2}IO handler started pid=\d+$/] : []),
    /^tsstepd-node1: starting 2 tasks$/,
    new RegExp(`^tsstepd-node1: task 0 \\(\\d+\\) started ${DATE}$`),
    new RegExp(`^tsstepd-node1: task 1 \\(\\d+\\) started ${DATE}$`),
    /^tsstepd-node1: task [01] \(\d+\) exited with exit code 3\.$/,
    /^tsstepd-node1: task [01] \(\d+\) exited with exit code 3\.$/,
    ...(debug ? [/^tsstepd-node1: debug: {2}Waiting for IO$/, /^tsstepd-node1: debug: {2}Closing debug channel$/] : []),
    new RegExp(`^${cmd}: error: node1: tasks 0-1: Exited with exit code 3$`),
  ];
}

describe('--slurmd-debug', () => {
  const ctl = testController({ TSLURM_CONF: fixture('clusters', 'proctrack-pgid.yaml') });
  afterAll(() => ctl.stop());
  const dropin = path.join(repoRoot, 'bin', 'tslurm-dropin.js');
  const srun = (args: string) =>
    execa('sh', ['-c', `PATH=$(node ${dropin} slurm-bin):$PATH; srun ${args}`], { cwd: ctl.workDir, reject: false, timeout: 60_000, env: { ...ctl.env, NO_COLOR: '1' } });
  const lines = (stderr: string) => stderr.split('\n').filter(Boolean);

  it('2 (or error): verbose lines, task by task; 1: none', async () => {
    for (const level of ['2', 'error']) {
      const r = await ctl.run('tsrun', ['-n2', `--slurmd-debug=${level}`, 'sh', '-c', 'exit 3']);
      expect(r.exitCode).toBe(3);
      const got = lines(r.stderr);
      const want = expected('verbose', 'tsrun');
      expect(got).toHaveLength(want.length);
      want.forEach((re, i) => expect(got[i]).toMatch(re));
    }
    const quiet = await ctl.run('tsrun', ['-n2', '--slurmd-debug=1', 'sh', '-c', 'exit 3']);
    expect(lines(quiet.stderr)).toEqual(['tsrun: error: node1: tasks 0-1: Exited with exit code 3']);
  });

  it('3 (or info): the debug lines too; above 4 srun says it caps the increment', async () => {
    const r = await srun("-n2 --slurmd-debug=info sh -c 'exit 3'");
    const got = lines(r.stderr);
    const want = expected('debug', 'srun');
    expect(got).toHaveLength(want.length);
    want.forEach((re, i) => expect(got[i]).toMatch(re));
    const capped = await srun("-n2 --slurmd-debug=debug sh -c 'exit 3'");
    expect(lines(capped.stderr)[0]).toBe("srun: Using srun's max debug increment of 4");
    expect(lines(capped.stderr)[1]).toMatch(expected('debug2', 'srun')[0]!);
  });
});
