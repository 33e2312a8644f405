// The -o/-O parsers shared by tsinfo (and later tsqueue), against sinfo 22.05's reading.
import { describe, expect, it } from 'vitest';
import { parseFormatString, parseLongFormat } from '../../../../src/cli/format/format-string.js';
import { printStr } from '../../../../src/cli/format/print-str.js';

describe('parseFormatString', () => {
  it("reads sinfo's default format", () => {
    const { prefix, tokens } = parseFormatString('%9P %.5a %.10l %.6D %.6t %N');
    expect(prefix).toBe('');
    expect(tokens.map((t) => [t.letter, t.width, t.right, t.suffix])).toEqual([
      ['P', 9, false, ' '],
      ['a', 5, true, ' '],
      ['l', 10, true, ' '],
      ['D', 6, true, ' '],
      ['t', 6, true, ' '],
      ['N', 0, false, ''],
    ]);
  });

  it('keeps text before the first field as a prefix, and after a field as its suffix', () => {
    // Observed on Slurm 22.05: sinfo -o 'x%Py %D' prints "xPARTITIONy NODES".
    const { prefix, tokens } = parseFormatString('x%Py %D');
    expect(prefix).toBe('x');
    expect(tokens.map((t) => [t.letter, t.suffix])).toEqual([
      ['P', 'y '],
      ['D', ''],
    ]);
  });

  it('treats a string without % as all prefix', () => {
    expect(parseFormatString('hello')).toEqual({ prefix: 'hello', tokens: [] });
  });

  it('drops empty tokens as strtok does, and reads - as a field letter', () => {
    expect(parseFormatString('%%P').tokens.map((t) => t.letter)).toEqual(['P']);
    // Observed on Slurm 22.05: %-5P is "Invalid node format specification: -", printed as written.
    const [token] = parseFormatString('%-5P|').tokens;
    expect(token).toEqual({ letter: '-', width: 0, right: false, suffix: '5P|', raw: '-5P|' });
  });

  it('gives an empty letter to a token that ends in its width', () => {
    expect(parseFormatString('%.12').tokens[0]).toMatchObject({ letter: '', width: 12, right: true });
  });
});

describe('parseLongFormat', () => {
  it('defaults to width 20, left-justified', () => {
    expect(parseLongFormat('partition,nodes')).toEqual([
      { name: 'partition', width: 20, right: false, suffix: '' },
      { name: 'nodes', width: 20, right: false, suffix: '' },
    ]);
  });

  it('reads name:[.]width[suffix]', () => {
    expect(parseLongFormat('partition:10|,nodes:.8,cpus:3,time:')).toEqual([
      { name: 'partition', width: 10, right: false, suffix: '|' },
      { name: 'nodes', width: 8, right: true, suffix: '' },
      { name: 'cpus', width: 3, right: false, suffix: '' },
      { name: 'time', width: 0, right: false, suffix: '' },
    ]);
  });
});

describe('printStr', () => {
  it('pads and cuts like printf %Ns / %.Ns', () => {
    expect(printStr('idle', 6, true)).toBe('  idle');
    expect(printStr('idle', 6, false)).toBe('idle  ');
    expect(printStr('node[1-3]', 5, false)).toBe('node[');
    expect(printStr('node[1-3]', 5, true)).toBe('node[');
    expect(printStr('node[1-3]', 0, true)).toBe('node[1-3]');
  });

  it('lets a header overflow a right-justified width when not cut', () => {
    expect(printStr('NODELIST', 3, true, false)).toBe('NODELIST');
    expect(printStr('NODELIST', 3, false, false)).toBe('NOD');
  });

  it("prints a NULL value as glibc does", () => {
    // Observed on Slurm 22.05: sinfo -o '%f|%.12f|%12f|%3f|%.3f|%6f|' prints
    // "(null)|      (null)|(null)      |   |(nu|(null)|".
    expect([printStr(null, 0, false), printStr(null, 12, true), printStr(null, 12, false)]).toEqual([
      '(null)',
      '      (null)',
      '(null)      ',
    ]);
    expect([printStr(null, 3, false), printStr(null, 3, true), printStr(null, 6, false)]).toEqual(['   ', '(nu', '(null)']);
  });
});
