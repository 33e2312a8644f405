// slurm.conf syntax as Slurm's parser reads it: comments, escapes, continuation lines, quoted
// values, keys in any case, one key per top-level line.
import { describe, expect, it } from 'vitest';
import { logicalLines } from '../../../../src/config/slurm-conf/lines.js';
import { splitPairs } from '../../../../src/config/slurm-conf/pairs.js';
import { readConfText } from '../../../../src/config/slurm-conf/read.js';

describe('logicalLines', () => {
  it('drops comments and blank lines, keeping each line number', () => {
    const lines = logicalLines('# head\n\nA=1 # tail\n  \nB=2\n', 'f');
    expect(lines).toEqual([
      { file: 'f', line: 3, text: 'A=1 ' },
      { file: 'f', line: 5, text: 'B=2' },
    ]);
  });

  it('keeps an escaped # and un-escapes backslashes', () => {
    expect(logicalLines('A=x\\#y\nB=c\\\\d\n', 'f').map((l) => l.text)).toEqual(['A=x#y', 'B=c\\d']);
  });

  it('joins a line ending in a backslash to the next, numbered by its first line', () => {
    const lines = logicalLines('X=0\nNodeName=n1 \\\n  CPUs=4\\\nRealMemory=9\nY=1\n', 'f');
    expect(lines).toEqual([
      { file: 'f', line: 1, text: 'X=0' },
      { file: 'f', line: 2, text: 'NodeName=n1   CPUs=4RealMemory=9' },
      { file: 'f', line: 5, text: 'Y=1' },
    ]);
  });

  it('an even run of backslashes does not continue; CRLF endings are fine', () => {
    expect(logicalLines('A=1\\\\\r\nB=2\r\n', 'f').map((l) => l.text)).toEqual(['A=1\\', 'B=2']);
  });
});

describe('splitPairs', () => {
  it('reads quoted values with blanks, and returns what is not a pair', () => {
    expect(splitPairs('NodeName=n1 Reason="disk swap" CPUs = 4 junk')).toMatchObject({
      pairs: [
        { key: 'NodeName', value: 'n1' },
        { key: 'Reason', value: 'disk swap' },
        { key: 'CPUs', value: '4' },
      ],
      rest: 'junk',
    });
  });
});

describe('readConfText', () => {
  it('matches keys in any case and keeps the canonical spelling; a later line wins', () => {
    const conf = readConfText('killwait=5\nKILLWAIT=7\nnodename=n1 cpus=2\n', '/x/slurm.conf');
    expect(conf.errors).toEqual([]);
    expect(conf.settings.get('KillWait')).toMatchObject({ value: '7', at: { line: 2 } });
    expect(conf.records[0]).toMatchObject({ kind: 'NodeName', name: 'n1', keys: new Map([['CPUs', '2']]) });
  });

  it('reports every bad line with its file and line', () => {
    const conf = readConfText(
      ['ClusterName=c', 'KillWait=5 MinJobAge=3', 'NodeName=n1 Bogus=1', 'Frobnicate=1', 'just words', 'PartitionName=p Nodes=n1 extra'].join('\n'),
      '/x/slurm.conf',
    );
    expect(conf.errors).toEqual([
      '/x/slurm.conf:2: Parse error: "MinJobAge=3"',
      '/x/slurm.conf:3: NodeName=n1: unrecognized key: Bogus',
      '/x/slurm.conf:4: Parsing error at unrecognized key: Frobnicate',
      '/x/slurm.conf:5: Parse error: "just words" (expected Key=Value)',
      '/x/slurm.conf:6: Parse error: "extra"',
    ]);
  });

  it('an Include that cannot be read is an error at the Include line', () => {
    const conf = readConfText('ClusterName=c\nInclude missing.conf\n', '/nonexistent-dir/slurm.conf');
    expect(conf.errors).toEqual(['/nonexistent-dir/slurm.conf:2: Include failed: /nonexistent-dir/missing.conf: No such file or directory']);
  });
});
