// Every bin as a user first meets it: --version, --help with examples, and errors in one line.
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { repoRoot, runBin } from '../helpers/run-bin.js';

const version = (JSON.parse(readFileSync(`${repoRoot}/package.json`, 'utf8')) as { version: string }).version;
const bins = ['tsrun', 'tsbatch', 'tscontrol', 'tsqueue', 'tsinfo', 'tscancel', 'tsctld', 'tsstepd', 'tsrestd'];

describe.each(bins)('%s', (bin) => {
  it('prints its version', async () => {
    const r = await runBin(bin, ['--version']);
    expect(r).toEqual({ exitCode: 0, stdout: `tslurm ${version}\n`, stderr: '' });
  });

  it('has --help on stdout', async () => {
    const r = await runBin(bin, ['--help']);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toContain(`Usage: ${bin}`);
    expect(r.stderr).toBe('');
  });

});

// getopt's two lines, as Slurm's commands print them, and srun's exit 255 (squeue, sinfo,
// scancel and scontrol exit 1: observed, /work/ref/option-errors.txt).
describe.each([
  ['tsrun', 255],
  ['tscontrol', 1],
  ['tsinfo', 1],
  ['tscancel', 1],
])('%s', (bin, exitCode) => {
  it('refuses an unknown option in getopt\'s words, without a stack', async () => {
    const r = await runBin(bin, ['--no-such-option']);
    expect(r).toEqual({ exitCode, stdout: '', stderr: `${bin}: unrecognized option '--no-such-option'\nTry "${bin} --help" for more information\n` });
  });
});

describe('help', () => {
  it('shows examples', async () => {
    for (const bin of ['tsrun', 'tscontrol', 'tsbatch', 'tsqueue', 'tscancel', 'tsctld']) {
      const r = await runBin(bin, ['--help']);
      expect(r.stdout).toMatch(/Examples:\n {2}\$ ts/);
    }
  });
});

describe('tsstepd without a controller address', () => {
  it('says what is missing and fails', async () => {
    const r = await runBin('tsstepd', ['--node', 'node1']);
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toBe('tsstepd: error: the cluster file (<built-in default>) names no control.address for tsstepd to register with\n');
  });
});
