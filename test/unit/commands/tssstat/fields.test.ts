import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DEFAULT_FIELDS, elapsedTime, FIELDS, helpFormat } from '../../../../src/commands/tssstat/fields.js';
import { parseFormat, parseStepIds } from '../../../../src/commands/tssstat/request.js';
import { parseGatherFrequency } from '../../../../src/config/acct-gather.js';

// Captured from Slurm 22.05's sstat (/work/ref/sstat.txt), kept beside the test.
const REF = readFileSync(new URL('./sstat-22.05.txt', import.meta.url), 'utf8');

describe('tssstat fields', () => {
  it('sstat -e lists the same fields in the same layout', () => {
    const captured = REF.split('$ sstat -e\n')[1]!.split('[exit 0]')[0]!;
    expect(helpFormat()).toBe(captured);
  });

  it('the default format is sstat\'s header, with its widths', () => {
    const lines = REF.split('\n');
    const dashes = lines.findIndex((line) => line.startsWith('------------ '));
    const chosen = parseFormat(DEFAULT_FIELDS);
    const header = chosen.map((f) => `${f.spec.name === 'JobID' ? f.spec.name.padEnd(f.width) : f.spec.name.padStart(f.width)} `).join('');
    expect(header).toBe(lines[dashes - 1]);
    expect(chosen.map((f) => `${'-'.repeat(f.width)} `).join('')).toBe(lines[dashes]);
    expect(FIELDS.length).toBe(51);
  });

  it('CPU times as sacct prints them', () => {
    expect(elapsedTime(0)).toBe('00:00:00');
    expect(elapsedTime(1_234_000)).toBe('00:01.234');
    expect(elapsedTime(61_000_000)).toBe('00:01:01');
    expect(elapsedTime(3_600_000_000 + 5_000_000)).toBe('01:00:05');
    expect(elapsedTime(90_000_000_000)).toBe('1-01:00:00');
  });

  it('job steps and fields are refused with sstat\'s words', () => {
    expect(parseStepIds('12,13.0,14.batch')).toEqual([
      { jobId: 12, text: '12' },
      { jobId: 13, step: 0, text: '13.0' },
      { jobId: 14, step: 'batch', text: '14.batch' },
    ]);
    expect(() => parseStepIds('12.x')).toThrow('fatal: Bad job/step specified: 12.x');
    expect(() => parseFormat('JobID,nope')).toThrow('Invalid field requested: "nope"');
    expect(parseFormat('maxrss%20').map((f) => [f.spec.name, f.width])).toEqual([['MaxRSS', 20]]);
  });
});

describe('JobAcctGatherFrequency', () => {
  it('takes seconds, task=N and the other kinds beside it', () => {
    expect(parseGatherFrequency(30)).toBe(30);
    expect(parseGatherFrequency('task=5')).toBe(5);
    expect(parseGatherFrequency('energy=10,task=2')).toBe(2);
    expect(parseGatherFrequency('energy=10')).toBe(30);
    expect(parseGatherFrequency('0')).toBe(0);
    expect(() => parseGatherFrequency('often')).toThrow('invalid JobAcctGatherFrequency "often"');
  });
});
