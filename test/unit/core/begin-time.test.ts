import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseBeginTime, TimeSpecError } from '../../../src/core/begin-time.js';
import { thrown } from '../user-error.js';

// Observed on Slurm 22.05 in UTC: `sbatch --hold --begin=<text> --wrap=true`, then scontrol's
// EligibleTime= against SubmitTime= (the "now" of each run below).
const at = (iso: string): Date => new Date(`${iso}Z`);
const secs = (iso: string): number => at(iso).getTime() / 1000;

let savedTz: string | undefined;
beforeAll(() => {
  savedTz = process.env.TZ;
  process.env.TZ = 'UTC';
});
afterAll(() => {
  if (savedTz === undefined) delete process.env.TZ;
  else process.env.TZ = savedTz;
});

describe('parseBeginTime', () => {
  it.each([
    // submitted at 2026-11-22T02:41:05 (a Sunday)
    ['2026-11-22T02:41:05', 'now', '2026-11-22T02:41:05'],
    ['2026-11-22T02:41:05', 'now+1', '2026-11-22T02:41:06'],
    ['2026-11-22T02:41:05', 'now+1hour', '2026-11-22T03:41:05'],
    ['2026-11-22T02:41:05', 'now+1hours', '2026-11-22T03:41:05'],
    ['2026-11-22T02:41:05', 'now+2days', '2026-11-24T02:41:05'],
    ['2026-11-22T02:41:05', 'now+1week', '2026-11-29T02:41:05'],
    ['2026-11-22T02:41:05', 'now+30seconds', '2026-11-22T02:41:35'],
    ['2026-11-22T02:41:05', 'now+5minutes', '2026-11-22T02:46:05'],
    ['2026-11-22T02:41:05', 'now +1', '2026-11-22T02:41:06'],
    ['2026-11-22T02:41:05', 'midnight', '2026-11-23T00:00:00'],
    ['2026-11-22T02:41:05', 'noon', '2026-11-22T12:00:00'],
    ['2026-11-22T02:41:05', 'fika', '2026-11-22T15:00:00'],
    ['2026-11-22T02:41:05', 'teatime', '2026-11-22T16:00:00'],
    ['2026-11-22T02:41:05', 'tomorrow', '2026-11-23T00:00:00'],
    ['2026-11-22T02:41:05', 'noon tomorrow', '2026-11-23T12:00:00'],
    ['2026-11-22T02:41:05', '16:00', '2026-11-22T16:00:00'],
    ['2026-11-22T02:41:05', '16:00:30', '2026-11-22T16:00:30'],
    ['2026-11-22T02:41:05', '23:59', '2026-11-22T23:59:00'],
    ['2026-11-22T02:41:05', '2027-01-02', '2027-01-02T00:00:00'],
    ['2026-11-22T02:41:05', '2027-01-02T03:04', '2027-01-02T03:04:00'],
    ['2026-11-22T02:41:05', '2027-01-02T03:04:05', '2027-01-02T03:04:05'],
    ['2026-11-22T02:41:05', '01/02', '2027-01-02T00:00:00'], // passed this year: next year's
    ['2026-11-22T02:41:05', '01/02/27', '2027-01-02T00:00:00'],
    ['2026-11-22T02:41:05', '010227', '2027-01-02T00:00:00'],
    // submitted at 2026-11-22T02:42:10
    ['2026-11-22T02:42:10', 'now+ 2 hours', '2026-11-22T04:42:10'],
    ['2026-11-22T02:42:10', 'now+2 HOURS', '2026-11-22T04:42:10'],
    ['2026-11-22T02:42:10', 'NOW+1DAY', '2026-11-23T02:42:10'],
    ['2026-11-22T02:42:10', 'now+1 minute', '2026-11-22T02:43:10'],
    ['2026-11-22T02:42:10', 'now+1second', '2026-11-22T02:42:11'],
    ['2026-11-22T02:42:10', '4:00pm', '2026-11-22T16:00:00'],
    ['2026-11-22T02:42:10', '4:00 PM', '2026-11-22T16:00:00'],
    ['2026-11-22T02:42:10', '11:00am', '2026-11-22T11:00:00'],
    ['2026-11-22T02:42:10', '12:00am', '2026-11-23T00:00:00'],
    ['2026-11-22T02:42:10', '12:00pm', '2026-11-22T12:00:00'],
    ['2026-11-22T02:42:10', '2027-02-30', '2027-03-02T00:00:00'], // mktime() normalises
    ['2026-11-22T02:42:10', '01.02.27', '2027-01-02T00:00:00'],
    ['2026-11-22T02:42:10', '1/2', '2027-01-02T00:00:00'],
    ['2026-11-22T02:42:10', '0102', '2027-01-02T00:00:00'],
    ['2026-11-22T02:42:10', '2027-01-02 16:00', '2027-01-02T16:00:00'],
    ['2026-11-22T02:42:10', 'T16:00', '2026-11-22T16:00:00'],
    ['2026-11-22T02:42:10', '-16:00', '2026-11-22T16:00:00'],
    ['2026-11-22T02:42:10', 'tomorrownoon', '2026-11-23T12:00:00'],
    ['2026-11-22T02:42:10', 'today16:00', '2026-11-22T16:00:00'],
    ['2026-11-22T02:42:10', 'uts1900000000', '2030-03-17T17:46:40'],
    // submitted at 2026-11-22T02:42:11: a time not later than now is tomorrow's
    ['2026-11-22T02:42:11', '00:00', '2026-11-23T00:00:00'],
    ['2026-11-22T02:42:11', '02:41', '2026-11-23T02:41:00'],
    ['2026-11-22T02:42:11', '02:42', '2026-11-23T02:42:00'],
    // submitted at 2026-11-22T02:53:01/02
    ['2026-11-22T02:53:01', 'now + 1', '2026-11-22T02:53:02'],
    ['2026-11-22T02:53:01', 'NOON', '2026-11-22T12:00:00'],
    ['2026-11-22T02:53:01', 'noon16:00', '2026-11-22T16:00:00'], // the later piece wins
    ['2026-11-22T02:53:02', '12/31', '2026-12-31T00:00:00'],
    ['2026-11-22T02:53:02', '1231', '2026-12-31T00:00:00'],
    ['2026-11-22T02:53:02', '12/31/00', '2026-12-31T00:00:00'], // "00" is no year
    ['2026-11-22T02:53:02', 'uts 1900000000', '2030-03-17T17:46:40'],
    ['2026-11-22T02:53:02', 'now+2weeks', '2026-12-06T02:53:02'],
    ['2026-11-22T02:53:02', '9:30', '2026-11-22T09:30:00'],
    ['2026-11-22T02:53:02', '09:30:15pm', '2026-11-22T21:30:15'],
  ])('at %s, %j is %s', (now, text, expected) => {
    expect(parseBeginTime(text, at(now))).toBe(secs(expected));
  });

  // Accepted by sbatch; the job showed EligibleTime=Unknown as the time had passed, so the
  // value follows from parse_time() rather than from scontrol.
  it.each([
    ['now-1', '2026-11-22T02:41:04'],
    ['now-1hour', '2026-11-22T01:41:05'],
    ['today', '2026-11-22T00:00:00'],
    ['midnighttoday', '2026-11-22T00:00:00'],
  ])('a past time: %j is %s', (text, expected) => {
    expect(parseBeginTime(text, at('2026-11-22T02:41:05'))).toBe(secs(expected));
  });

  // Observed: only "sbatch: error: Invalid --begin specification" (parse_time() gives 0).
  it.each(['', 'T', '  ', '-'])('%j names no time: 0', (text) => {
    expect(parseBeginTime(text, at('2026-11-22T02:41:05'))).toBe(0);
  });

  // Observed: "Invalid time specification (pos=N): TEXT", then "sbatch: error: Invalid
  // --begin specification", exit 255. The positions are Slurm's, quirks included.
  it.each([
    ['garbage', 0],
    ['elevenses', 0], // not in 22.05
    ['now+3h', 4], // no unit abbreviations
    ['now+5m', 4],
    ['now+10s', 5],
    ['now+2d', 4],
    ['now+1w', 4],
    ['now+5min', 4],
    ['now+1sec', 4],
    ['now+1hr', 4],
    ['now+1hourxyz', 9],
    ['now+1hour2', 10],
    ['now+', 3],
    ['nowx', 3],
    ['now 16:00', 4],
    ['now today', 4],
    ['16:00 now', 15], // "now" not first: Slurm's position runs past the end
    ['today now', 15],
    ['25:00', 0],
    ['13:00pm', 5],
    ['1:5', 3],
    ['16', 0],
    ['16:60', 3],
    ['16:00:60', 6],
    ['16:0', 4],
    ['12:3x', 4],
    ['1x', 1],
    ['x1', 0],
    ['Today', 1], // the capital T is skipped as a date/time separator, then "oday"
    ['tomorrow 1am', 10],
    ['0.5', -1],
    ['2027-13-01', 5],
    ['2027-01-32', 8],
    ['2027-01-0', 7],
    ['2027-1-2', 0],
    ['2027/01/02', 0],
    ['2027-01-02X', 10],
    ['2027-01-02T25:00', 11],
    ['13/01', 0],
    ['01/32', 3],
    ['01022', 5],
    ['0102277', 7],
    ['uts999999', 0],
    ['uts1900000000x', 0],
  ])('refuses %j at position %i', (text, pos) => {
    const error = thrown(() => parseBeginTime(text, at('2026-11-22T02:41:05')));
    expect(error).toBeInstanceOf(TimeSpecError);
    expect(error).toMatchObject({ message: `Invalid time specification (pos=${pos}): ${text}`, pos, exitCode: 255 });
  });

  it('reads the clock and date in the local time zone', () => {
    process.env.TZ = 'Europe/Stockholm';
    try {
      // 2026-11-22T02:41:05Z is 03:41:05 in Stockholm (CET, UTC+1): fika is 15:00 there.
      expect(parseBeginTime('fika', at('2026-11-22T02:41:05'))).toBe(secs('2026-11-22T14:00:00'));
      expect(parseBeginTime('2027-07-01T12:00', at('2026-11-22T02:41:05'))).toBe(secs('2027-07-01T10:00:00')); // CEST
    } finally {
      process.env.TZ = 'UTC';
    }
  });
});
