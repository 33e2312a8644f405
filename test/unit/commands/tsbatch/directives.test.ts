import { describe, expect, it } from 'vitest';
import { directiveWords } from '../../../../src/commands/tsbatch/directives.js';
import { FatalError } from '../../../../src/commands/tsbatch/fatal.js';
import { thrown } from '../../user-error.js';

const words = (...lines: string[]): string[] => directiveWords(`#!/bin/sh\n${lines.join('\n')}\n`, 'job.sh');

// Observed on Slurm 22.05: scripts submitted with `sbatch --hold`, then squeue's %j and %P.
describe('directiveWords', () => {
  it('reads the words of #SBATCH lines, quotes removed', () => {
    expect(words('#SBATCH --job-name=foo # comment', 'echo')).toEqual(['--job-name=foo']); // foo
    expect(words('#SBATCH --job-name="a b"')).toEqual(['--job-name=a b']); // "a b"
    expect(words("#SBATCH --job-name=it\\'s")).toEqual(["--job-name=it's"]); // it's
    expect(words('#SBATCH -J a"b c"d')).toEqual(['-J', 'ab cd']); // ab cd
    expect(words("#SBATCH -J 'a\"b'")).toEqual(['-J', 'a"b']); // a"b
    expect(words('#SBATCH -J "a\\"b"')).toEqual(['-J', 'a"b']); // a"b
    expect(words('#SBATCH\t-J tab')).toEqual(['-J', 'tab']); // tab
    expect(words('#SBATCH -J a -p small')).toEqual(['-J', 'a', '-p', 'small']); // a, small
  });

  it('ends a line at an unquoted #, even inside a word, unless escaped', () => {
    expect(words('#SBATCH --job-name=a#b')).toEqual(['--job-name=a']); // a
    expect(words('#SBATCH -J a\\#b')).toEqual(['-J', 'a#b']); // a#b
    expect(words('#SBATCH -J x#', '#SBATCH -p small')).toEqual(['-J', 'x', '-p', 'small']); // x, small
  });

  it('ends a line at an empty word, so -J "" has no value', () => {
    // sbatch: option requires an argument -- 'J'
    expect(words('#SBATCH -J "" -p small')).toEqual(['-J']);
  });

  it('does not join words with a backslash', () => {
    // "#SBATCH -J a\ b": sbatch: error: Invalid directive found in batch script: b
    expect(words('#SBATCH -J a\\ b')).toEqual(['-J', 'a', 'b']);
  });

  it('joins the words of all lines into one list', () => {
    // "#SBATCH -J" then "#SBATCH joined": the job is named joined
    expect(words('#SBATCH -J', '#SBATCH joined')).toEqual(['-J', 'joined']);
    expect(words('#SBATCH -J first', '#SBATCH -J second')).toEqual(['-J', 'first', '-J', 'second']); // second
  });

  it('reads only "#SBATCH" at column 0, in capitals', () => {
    expect(words(' #SBATCH --job-name=indented')).toEqual([]); // named after the script
    expect(words('#sbatch -J lower')).toEqual([]);
    expect(words('#slurm -J sl')).toEqual([]); // 22.05 has no #slurm
    // "#SBATCHfoo": sbatch: error: Invalid directive found in batch script: foo
    expect(words('#SBATCHfoo')).toEqual(['foo']);
  });

  it('stops at the first command; blank and comment lines do not stop it', () => {
    expect(words('echo', '#SBATCH --job-name=after')).toEqual([]); // named after the script
    expect(words('', '# comment', '   ', '#SBATCH -J x1', '  # indented comment', '#SBATCH -J x2')).toEqual([
      '-J', 'x1', '-J', 'x2',
    ]); // x2
  });

  it('fails on an unmatched quote, naming the file, the line and the rest of it', () => {
    // sbatch: fatal: d8.sh: line 2: Unmatched `"` in [ "q]   (exit 1)
    const error = thrown(() => directiveWords('#!/bin/sh\n#SBATCH -J "q\n', 'd8.sh'));
    expect(error).toBeInstanceOf(FatalError);
    expect(error).toMatchObject({ message: 'd8.sh: line 2: Unmatched `"` in [ "q]', exitCode: 1 });
  });
});
