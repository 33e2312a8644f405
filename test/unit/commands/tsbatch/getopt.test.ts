import { describe, expect, it } from 'vitest';
import { getoptWords } from '../../../../src/commands/tsbatch/getopt.js';
import { HELP_AND_VERSION, tsbatchProgram } from '../../../../src/commands/tsbatch/options.js';
import { thrown } from '../../user-error.js';

const rewrite = (...words: string[]): string[] => getoptWords(words, tsbatchProgram('tsbatch'), HELP_AND_VERSION);

describe('getoptWords', () => {
  it('expands a unique prefix of a long option (observed: --job-nam=pref --hol)', () => {
    expect(rewrite('--job-nam=pref', '--hol', 'job.sh')).toEqual(['--job-name=pref', '--hold', 'job.sh']);
    expect(rewrite('--depend', 'afterok:1', 'job.sh')).toEqual(['--dependency', 'afterok:1', 'job.sh']);
  });

  it('takes --exclusive\'s value only when attached', () => {
    expect(rewrite('--exclusive', 'job.sh')).toEqual(['--exclusive=exclusive', 'job.sh']);
    expect(rewrite('--exclusive=user', 'job.sh')).toEqual(['--exclusive=user', 'job.sh']);
  });

  it('leaves everything from the script on alone', () => {
    expect(rewrite('-J', 'x', 'job.sh', '--bogus', '--exclusive')).toEqual(['-J', 'x', 'job.sh', '--bogus', '--exclusive']);
    expect(rewrite('-n', '-3', '--', '--exclusive')).toEqual(['-n', '-3', '--', '--exclusive']);
  });

  it('reads clusters of short options', () => {
    expect(rewrite('-Hvv', '-n4', '-Hn', '2', 'job.sh')).toEqual(['-Hvv', '-n4', '-Hn', '2', 'job.sh']);
  });

  // Observed on Slurm 22.05: the line after "sbatch: " (then 'Try "sbatch --help" for more
  // information'), exit 255.
  it.each([
    [['--bogus', '--wrap=true'], "unrecognized option '--bogus'"],
    [['-Z', '--wrap=true'], "invalid option -- 'Z'"],
    [['-J'], "option requires an argument -- 'J'"],
    [['--job-name'], "option '--job-name' requires an argument"],
    [['--parsable=3', '--wrap=true'], "option '--parsable' doesn't allow an argument"],
    [['--mem-per-c'], "option '--mem-per-cpu' requires an argument"],
  ])('%j: %s', (words, message) => {
    expect(thrown(() => rewrite(...words))).toMatchObject({ message, exitCode: 255 });
  });

  it('names the options an ambiguous prefix could be', () => {
    // sbatch: option '--n=2' is ambiguous; possibilities: '--network' '--nice' ... (its own list)
    expect(thrown(() => rewrite('--n=2')).message).toBe(
      "option '--n=2' is ambiguous; possibilities: '--ntasks' '--nodes' '--ntasks-per-node' '--nodelist' '--no-requeue'",
    );
  });
});
