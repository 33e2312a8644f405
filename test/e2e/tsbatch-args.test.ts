// tsbatch's refusals before anything is submitted: the script, its #SBATCH lines and the
// option values. Every expected stderr is what Slurm 22.05's sbatch printed for the same
// input (with "sbatch" → "tsbatch"), and the same exit status.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runBin } from '../helpers/run-bin.js';

let dir: string;
const scripts: Record<string, string> = {
  'good.sh': '#!/bin/sh\necho hi\n',
  'noshebang.sh': 'echo hi\n',
  'dos.sh': '#!/bin/sh\r\necho hi\r\n',
  'empty.sh': '',
  'ws.sh': ' \t\n \n',
  'nul.sh': '#!/bin/sh\necho a\0b\n',
  'quote.sh': '#!/bin/sh\n#SBATCH -J "q\n',
  'bogus.sh': '#!/bin/sh\n#SBATCH --bogus\n',
  'word.sh': '#!/bin/sh\n#SBATCHfoo\n',
  'memd.sh': '#!/bin/sh\n#SBATCH --mem=100\n',
};

beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'tsbatch-args-'));
  for (const [name, body] of Object.entries(scripts)) writeFileSync(path.join(dir, name), body);
  mkdirSync(path.join(dir, 'adir'));
});

async function tsbatch(args: string[], env: Record<string, string | undefined> = {}, input = '') {
  return runBin('tsbatch', args, { cwd: dir, env, input });
}

const tryHelp = 'Try "tsbatch --help" for more information\n';
const notBatch =
  'tsbatch: error: This does not look like a batch script.  The first\n' +
  'tsbatch: error: line must start with #! followed by the path to an interpreter.\n' +
  'tsbatch: error: For instance: #!/bin/sh\n';

describe('the script', () => {
  it.each([
    [['noshebang.sh'], notBatch],
    [['nosuch.sh'], 'tsbatch: error: Unable to open file nosuch.sh\n'],
    [['empty.sh'], 'tsbatch: error: Batch script is empty!\n'],
    [['adir'], 'tsbatch: error: Unable to open file adir: Is a directory\n'],
    [['ws.sh'], 'tsbatch: error: Batch script contains only whitespace!\n'],
    [
      ['dos.sh'],
      'tsbatch: error: Batch script contains DOS line breaks (\\r\\n)\n' +
        'tsbatch: error: instead of expected UNIX line breaks (\\n).\n',
    ],
    [
      ['nul.sh'],
      "tsbatch: error: The Slurm controller does not allow scripts that\ntsbatch: error: contain a NULL character '\\0'.\n",
    ],
    [['--wrap=true', 'good.sh'], 'tsbatch: error: Script arguments not permitted with --wrap option\n'],
    [['--wrap=true', 'nosuch.sh'], 'tsbatch: error: Script arguments not permitted with --wrap option\n'],
  ])('tsbatch %j', async (args, stderr) => {
    expect(await tsbatch(args)).toEqual({ exitCode: 1, stdout: '', stderr });
  });

  it('reads the script from stdin when none is named', async () => {
    expect(await tsbatch([], {}, 'echo hi\n')).toEqual({ exitCode: 1, stdout: '', stderr: notBatch });
    expect(await tsbatch([], {}, '')).toEqual({ exitCode: 1, stdout: '', stderr: 'tsbatch: error: Batch script is empty!\n' });
  });
});

describe('#SBATCH lines', () => {
  it.each([
    [['quote.sh'], 1, 'tsbatch: fatal: quote.sh: line 2: Unmatched `"` in [ "q]\n'],
    // Slurm's line, with the script and line it comes from.
    [['bogus.sh'], 255, `tsbatch: bogus.sh: line 2: unrecognized option '--bogus'\n${tryHelp}`],
    [['word.sh'], 255, 'tsbatch: error: Invalid directive found in batch script: foo\n'],
    [['--mem-per-cpu=10', 'memd.sh'], 1, 'tsbatch: fatal: --mem, --mem-per-cpu, and --mem-per-gpu are mutually exclusive.\n'],
  ])('tsbatch %j', async (args, exitCode, stderr) => {
    expect(await tsbatch(args)).toEqual({ exitCode, stdout: '', stderr });
  });
});

describe('option values', () => {
  it.each([
    [['--array=x', '--wrap=true'], 1, 'tsbatch: error: Batch job submission failed: Invalid job array specification\n'],
    [['--array=5-1', '--wrap=true'], 1, 'tsbatch: error: Batch job submission failed: Invalid job array specification\n'],
    [['--array=0-2000', '--wrap=true'], 1, 'tsbatch: error: Batch job submission failed: Invalid job array specification\n'],
    [['--dependency=foo', '--wrap=true'], 1, 'tsbatch: error: Batch job submission failed: Job dependency problem\n'],
    [['--dependency=afterok:abc', '--wrap=true'], 1, 'tsbatch: error: Batch job submission failed: Job dependency problem\n'],
    [['--dependency=afterok:', '--wrap=true'], 1, 'tsbatch: error: Batch job submission failed: Job dependency problem\n'],
    [
      ['--begin=garbage', '--wrap=true'],
      255,
      'Invalid time specification (pos=0): garbage\ntsbatch: error: Invalid --begin specification\n',
    ],
    [
      ['--begin=now+3h', '--wrap=true'],
      255,
      'Invalid time specification (pos=4): now+3h\ntsbatch: error: Invalid --begin specification\n',
    ],
    [['--begin=', '--wrap=true'], 255, 'tsbatch: error: Invalid --begin specification\n'],
    [['-n', 'abc', '--wrap=true'], 1, 'tsbatch: error: Invalid numeric value "abc" for --ntasks.\n'],
    [['-N', 'abc', '--wrap=true'], 255, 'tsbatch: error: "abc" is not a valid node count\n'],
    [['-t', 'abc', '--wrap=true'], 255, 'tsbatch: error: Invalid --time specification\n'],
    [['--mem=1', '--mem-per-cpu=1', '--wrap=true'], 1, 'tsbatch: fatal: --mem, --mem-per-cpu, and --mem-per-gpu are mutually exclusive.\n'],
    [['--open-mode=foo', '--wrap=true'], 255, 'tsbatch: error: Invalid --open-mode specification\n'],
  ])('tsbatch %j', async (args, exitCode, stderr) => {
    expect(await tsbatch(args)).toEqual({ exitCode, stdout: '', stderr });
  });

  it('reads SBATCH_* variables', async () => {
    expect(await tsbatch(['--wrap=true'], { SBATCH_TIMELIMIT: 'abc' })).toEqual({
      exitCode: 255,
      stdout: '',
      stderr: 'tsbatch: error: Invalid --time specification\n',
    });
    expect(await tsbatch(['--wrap=true'], { SBATCH_MEM_PER_CPU: '10', SBATCH_MEM_PER_NODE: '100' })).toEqual({
      exitCode: 1,
      stdout: '',
      stderr: 'tsbatch: fatal: SLURM_MEM_PER_CPU, SLURM_MEM_PER_GPU, and SLURM_MEM_PER_NODE are mutually exclusive.\n',
    });
  });
});

describe('command-line syntax (getopt\'s words and hint, exit 255)', () => {
  it.each([
    [['--bogus', '--wrap=true'], "tsbatch: unrecognized option '--bogus'\n"],
    [['-Z', '--wrap=true'], "tsbatch: invalid option -- 'Z'\n"],
    [['-J'], "tsbatch: option requires an argument -- 'J'\n"],
    [['--job-name'], "tsbatch: option '--job-name' requires an argument\n"],
    [['--parsable=3', '--wrap=true'], "tsbatch: option '--parsable' doesn't allow an argument\n"],
  ])('tsbatch %j', async (args, line) => {
    expect(await tsbatch(args)).toEqual({ exitCode: 255, stdout: '', stderr: `${line}${tryHelp}` });
  });

  it('answers --help with sbatch\'s options and examples', async () => {
    const r = await tsbatch(['--help']);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toContain('  -d, --dependency=type:jobid[:time] ');
    expect(r.stdout).toContain('tsbatch --array=0-15%4');
  });
});
