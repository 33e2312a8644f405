import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UserError } from '../../../src/core/errors.js';
import { INFINITE, NO_VAL } from '../../../src/core/slurm-constants.js';
import {
  formatSlurmDate,
  formatSlurmTime,
  minsToTimeStr,
  parseTimeLimitOption,
  parseTimeToMinutes,
  parseTimeToSeconds,
  secsToTimeStr,
} from '../../../src/core/time-string.js';

describe('parseTimeToMinutes', () => {
  // Observed on Slurm 22.05: `srun -t <arg>` then `scontrol show job` TimeLimit=.
  it.each([
    ['1:30', 2], // MM:SS, 90 seconds rounded up → TimeLimit=00:02:00
    ['0:90', 2], // seconds are not range-checked → TimeLimit=00:02:00
    ['90', 90], // bare minutes → TimeLimit=01:30:00
    ['1-0', 1440], // → TimeLimit=1-00:00:00
    ['1-', 1440], // a dash with nothing after is still days → 1-00:00:00
    ['2-3', 2 * 1440 + 180], // D-HH → 2-03:00:00
    ['2-3:04', 2 * 1440 + 184], // D-HH:MM → 2-03:04:00
    ['2-3:4:5', 2 * 1440 + 185], // D-HH:MM:SS, 5 s rounded up → 2-03:05:00
    ['1:99:99', 161], // HH:MM:SS unchecked fields → 02:41:00
    ['24855-0', 24855 * 1440], // the largest day count that fits Slurm's int → 24855-00:00:00
    ['0', 0],
    ['00:00:00', 0],
  ])('%s → %i minutes', (text, minutes) => {
    expect(parseTimeToMinutes(text)).toBe(minutes);
  });

  it.each(['-1', 'UNLIMITED', 'unlimited', 'INFINITE', 'infinite', 'Infinite'])(
    '%s is INFINITE (observed: TimeLimit=UNLIMITED)',
    (text) => {
      expect(parseTimeToMinutes(text)).toBe(INFINITE);
    },
  );

  // Observed on Slurm 22.05: each prints "srun: error: Invalid --time specification", exit 255.
  it.each(['garbage', '1:2:3:4', ' 5', '+5', '', '1-2-3', ':5', '5:', '1::2', '1-2:', '1:2-3', 'inf', '1.5'])(
    'rejects %j as srun does',
    (text) => {
      expect(() => parseTimeToMinutes(text)).toThrowError(
        expect.objectContaining({
          message: 'Invalid --time specification',
          code: 'ESLURM_INVALID_TIME_VALUE',
          exitCode: 255,
        }),
      );
    },
  );

  it('rejects what Slurm would wrap into a garbage limit', () => {
    // Observed on 22.05: -t -5 → TimeLimit=2982611-04:17:00; -t 24856-0 → 2981813-22:48:00;
    // -t -0 → UNLIMITED. A deliberate difference: a negative day count is refused outright.
    for (const text of ['-5', '-0', '24856-0', '99999999999']) {
      expect(() => parseTimeToMinutes(text), text).toThrow(UserError);
    }
  });

  it('names the option in the error', () => {
    expect(() => parseTimeToMinutes('x', '--time-min')).toThrow('Invalid --time-min specification');
  });
});

describe('parseTimeToSeconds', () => {
  it('keeps seconds', () => {
    expect(parseTimeToSeconds('1:30')).toBe(90);
    expect(parseTimeToSeconds('1:00:01')).toBe(3601);
    expect(parseTimeToSeconds('1-00:00:01')).toBe(86_401);
    expect(parseTimeToSeconds('unlimited')).toBe(INFINITE);
  });
});

describe('parseTimeLimitOption', () => {
  it('treats 0 as no limit, as srun -t 0 does (observed: TimeLimit=UNLIMITED)', () => {
    expect(parseTimeLimitOption('0')).toBe(INFINITE);
    expect(parseTimeLimitOption('0:00')).toBe(INFINITE);
    expect(parseTimeLimitOption('5')).toBe(5);
  });
});

describe('formatSlurmTime (squeue TIME / TIME_LIMIT)', () => {
  // Observed on Slurm 22.05 with squeue -o "%l|%M|%L".
  it.each([
    [0, '0:00'],
    [65, '1:05'],
    [60, '1:00'], // -t 1
    [71, '1:11'], // TIME of a running job
    [229, '3:49'], // TIME_LEFT
    [3660, '1:01:00'], // -t 61
    [3600, '1:00:00'],
    [86_400, '1-00:00:00'], // -t 1-0
    [(364 * 1440 + 23 * 60 + 59) * 60, '364-23:59:00'],
    [365 * 86_400, '365-00:00:00'], // -t 365-0, still printed
    [365 * 86_400 + 1, 'INVALID'], // -t 365-00:00:01 showed INVALID
    [366 * 86_400, 'INVALID'],
    [-1, 'INVALID'],
    [INFINITE, 'UNLIMITED'],
  ])('%i s → %s', (seconds, text) => {
    expect(formatSlurmTime(seconds)).toBe(text);
  });
});

describe('secsToTimeStr / minsToTimeStr (scontrol RunTime= / TimeLimit=)', () => {
  // Observed on Slurm 22.05 in `scontrol show job`.
  it('always shows hours, and days when there are any', () => {
    expect(secsToTimeStr(0)).toBe('00:00:00');
    expect(secsToTimeStr(71)).toBe('00:01:11'); // RunTime=00:01:11
    expect(secsToTimeStr(90_061)).toBe('1-01:01:01');
    expect(secsToTimeStr(-5)).toBe('INVALID');
    expect(secsToTimeStr(INFINITE)).toBe('UNLIMITED');
  });

  it.each([
    [1, '00:01:00'],
    [5, '00:05:00'],
    [61, '01:01:00'],
    [1440, '1-00:00:00'],
    [364 * 1440 + 23 * 60 + 59, '364-23:59:00'],
    [366 * 1440, '366-00:00:00'], // no 365-day cut-off here, unlike squeue
    [INFINITE, 'UNLIMITED'],
  ])('%i min → TimeLimit=%s', (minutes, text) => {
    expect(minsToTimeStr(minutes)).toBe(text);
  });
});

describe('formatSlurmDate (scontrol dates)', () => {
  let savedTz: string | undefined;
  beforeAll(() => {
    savedTz = process.env.TZ;
    process.env.TZ = 'UTC';
  });
  afterAll(() => {
    if (savedTz === undefined) delete process.env.TZ;
    else process.env.TZ = savedTz;
  });

  it('prints local time as %FT%T (observed: SubmitTime=2026-11-22T00:01:12 on a UTC host)', () => {
    expect(formatSlurmDate(Date.UTC(2026, 10, 22, 0, 1, 12) / 1000)).toBe('2026-11-22T00:01:12');
    expect(formatSlurmDate(Date.UTC(2026, 10, 21, 23, 55, 58) / 1000)).toBe('2026-11-21T23:55:58');
  });

  it('prints Unknown for 0 and INFINITE, None for NO_VAL (observed: StartTime=Unknown)', () => {
    expect(formatSlurmDate(0)).toBe('Unknown');
    expect(formatSlurmDate(INFINITE)).toBe('Unknown');
    expect(formatSlurmDate(NO_VAL)).toBe('None');
  });
});
