import { describe, expect, it } from 'vitest';
import { TaskOutputLabeller, labelMessage, labelPrefix, labelWidth } from '../../../src/core/label.js';

// Observed on Slurm 22.05.8 with `srun -l` (node1..node3, 4 CPUs each; -O beyond 12 tasks).
describe('labelWidth and labelPrefix', () => {
  it.each([
    [4, 1],
    [10, 1], // srun -n10 -O -l: "0: x" .. "9: x"
    [11, 2], // srun -n11 -O -l: " 0: x"
    [12, 2], // srun -n12 -l hostname: " 0: vm"
    [100, 2], // srun -n100 -O -l: " 0: x"
    [101, 3], // srun -n101 -O -l: "  0: x"
  ])('%i tasks: width %i', (ntasks, width) => {
    expect(labelWidth(ntasks)).toBe(width);
  });

  it('right-aligns the task id', () => {
    expect(labelPrefix(3, 12)).toBe(' 3: ');
    expect(labelPrefix(0, 4)).toBe('0: ');
    expect(labelPrefix(0, 101)).toBe('  0: ');
    expect(labelPrefix(100, 101)).toBe('100: ');
  });
});

describe('labelMessage', () => {
  it('labels every line, empty ones too (printf "a\\n\\nb\\n" gives "0: a", "0: ", "0: b")', () => {
    expect(labelMessage(Buffer.from('a\n\nb\n'), '0: ').toString()).toBe('0: a\n0: \n0: b\n');
  });

  it('ends a partial line', () => {
    expect(labelMessage(Buffer.from('x\ny'), '0: ').toString()).toBe('0: x\n0: y\n');
  });
});

describe('TaskOutputLabeller', () => {
  const feed = (labeller: TaskOutputLabeller, chunks: string[]): string =>
    chunks.map((c) => labeller.write(Buffer.from(c)).toString()).join('') + labeller.end().toString();

  it("joins a line written in pieces: printf abc; sleep 1; printf 'def\\n'; printf xyz", () => {
    expect(feed(new TaskOutputLabeller('0: '), ['abc', 'def\n', 'xyz'])).toBe('0: abcdef\n0: xyz\n');
  });

  it('labels each piece with srun -u', () => {
    expect(feed(new TaskOutputLabeller('0: ', true), ['abc', 'def\n', 'xyz'])).toBe('0: abc\n0: def\n0: xyz\n');
  });

  it('holds nothing back once a line is complete', () => {
    const labeller = new TaskOutputLabeller(' 7: ');
    expect(labeller.write(Buffer.from('one\ntw')).toString()).toBe(' 7: one\n');
    expect(labeller.write(Buffer.from('o\n')).toString()).toBe(' 7: two\n');
    expect(labeller.end().length).toBe(0);
  });

  it('cuts long lines into 1024-byte pieces', () => {
    const lengths = (out: string) => out.split('\n').slice(0, -1).map((line) => line.length);
    const a = (n: number) => 'a'.repeat(n);
    // 2500 a's, a newline, then "x\ny": lines of 1027, 1027, 455, 4 and 4 characters
    expect(lengths(feed(new TaskOutputLabeller('0: '), [`${a(2500)}\nx\ny`]))).toEqual([1027, 1027, 455, 4, 4]);
    // 1023 a's and a newline fit in one message: 1026
    expect(lengths(feed(new TaskOutputLabeller('0: '), [`${a(1023)}\n`]))).toEqual([1026]);
    // 1024 a's and a newline do not: 1027, then the newline alone as "0: "
    expect(lengths(feed(new TaskOutputLabeller('0: '), [`${a(1024)}\n`]))).toEqual([1027, 3]);
  });
});
