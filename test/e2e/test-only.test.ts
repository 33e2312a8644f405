// --test-only as Slurm's (/work/ref/test-only.txt): `srun|sbatch: Job N to start at ... using P
// processors on nodes ... in partition ...` with P the CPUs the request would be given (3 for
// -n3, 4 for -c2 -n2), the same with a controller running as without, and no controller left
// running by a tsbatch --test-only that found none.
import { afterAll, describe, expect, it } from 'vitest';
import { execa } from 'execa';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fixture, runBin } from '../helpers/run-bin.js';
import { testController } from '../helpers/controller.js';

const small = fixture('clusters', 'small.yaml');
const line = (cmd: string, cpus: number, nodes: string) =>
  new RegExp(`^${cmd}: Job \\d+ to start at \\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d using ${cpus} processors on nodes ${nodes.replace(/[[\]]/g, '\\$&')} in partition debug\\n$`);

describe('--test-only', () => {
  const ctl = testController({ TSLURM_CONF: small });
  afterAll(() => ctl.stop());

  it('tsbatch --test-only with no controller running leaves none running', async () => {
    const r = await ctl.run('tsbatch', ['--test-only', '-N2', '-n3', '--wrap', 'true']);
    expect(r.stderr).toMatch(line('tsbatch', 3, 'node[1-2]'));
    expect(r.exitCode).toBe(0);
    expect(existsSync(path.join(ctl.stateDir, 'tsctld.sock'))).toBe(false);
    expect(existsSync(path.join(ctl.stateDir, 'tsctld.pid'))).toBe(false);
  });

  it('tsrun --test-only with no controller running leaves none running either', async () => {
    const stateDir = mkdtempSync(path.join(tmpdir(), 'tslurm-testonly-'));
    const r = await runBin('tsrun', ['--test-only', '-N2', '-n3', 'true'], { env: { TSLURM_CONF: small, TSLURM_STATE_DIR: stateDir, TSLURM_CTLD_IDLE_EXIT: '120' } });
    expect(r.stderr).toMatch(line('tsrun', 3, 'node[1-2]'));
    expect(r.exitCode).toBe(0);
    expect(existsSync(path.join(stateDir, 'tsctld.sock'))).toBe(false);
    expect(existsSync(path.join(stateDir, 'tsctld.pid'))).toBe(false);
  });

  it('counts the CPUs the request needs, without a controller and with one alike', async () => {
    const before = await ctl.run('tsrun', ['--test-only', '-N2', '-n3', 'true']);
    expect(before).toMatchObject({ exitCode: 0, stdout: '' });
    expect(before.stderr).toMatch(line('tsrun', 3, 'node[1-2]'));
    // A held job starts a controller and keeps it running.
    const held = await ctl.run('tsbatch', ['-H', '--wrap', 'true']);
    expect(held.exitCode).toBe(0);
    for (const [bin, args, cpus, nodes] of [
      ['tsrun', ['-N2', '-n3', 'true'], 3, 'node[1-2]'],
      ['tsbatch', ['-N2', '-n3', '--wrap', 'true'], 3, 'node[1-2]'],
      ['tsrun', ['-c2', '-n2', 'true'], 4, 'node1'],
      ['tsbatch', ['-c2', '-n2', '--wrap', 'true'], 4, 'node1'],
      ['tsrun', ['-N2', '--exclusive', 'true'], 8, 'node[1-2]'],
    ] as const) {
      const r = await ctl.run(bin, ['--test-only', ...args]);
      expect(r.stderr, `${bin} ${args.join(' ')}`).toMatch(line(bin, cpus, nodes));
    }
    // With one running, it stays.
    expect(existsSync(path.join(ctl.stateDir, 'tsctld.sock'))).toBe(true);
  });

  it('speaks as srun and sbatch under the drop-in names', async () => {
    const bin = path.join(ctl.workDir, 'slurm-bin');
    expect((await runBin('tslurm-dropin', [bin])).exitCode).toBe(0);
    const run = (file: string, args: string[]) =>
      execa(path.join(bin, file), args, { cwd: ctl.workDir, reject: false, stripFinalNewline: false, env: { ...ctl.env, NO_COLOR: '1' } });
    expect((await run('srun', ['--test-only', '-N2', '-n3', 'true'])).stderr).toMatch(line('srun', 3, 'node[1-2]'));
    expect((await run('sbatch', ['--test-only', '-N2', '-n3', '--wrap', 'true'])).stderr).toMatch(line('sbatch', 3, 'node[1-2]'));
  });
});
