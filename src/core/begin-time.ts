// --begin as Slurm 22.05's parse_time() reads it (src/common/parse_time.c), in local time:
// `HH:MM[:SS][AM|PM]` (today, or tomorrow once passed), `YYYY-MM-DD[THH:MM[:SS]]`,
// `MM/DD[/YY]`, `MMDDYY`, the words midnight, noon, fika (15:00), teatime (16:00), today,
// tomorrow, `now[{+|-}count[seconds|minutes|hours|days|weeks]]` and `uts<epoch>`. Pieces
// combine ("noon tomorrow", "2027-01-02 16:00"). 22.05 has no "elevenses" (observed: refused)
// and no unit abbreviations ("now+3h" is refused).
//
// A mistake prints parse_time()'s own line, "Invalid time specification (pos=N): TEXT", where
// N is where it noticed; sbatch then says "Invalid --begin specification" and exits 255.
import { readClock, readDate, readDelta, type Read, type TimeFields } from './begin-time-fields.js';
import { UserError } from './errors.js';

/** parse_time()'s complaint, which Slurm prints as a line of its own (no "error:" prefix). */
export class TimeSpecError extends UserError {
  readonly pos: number;

  constructor(pos: number, text: string) {
    super(`Invalid time specification (pos=${pos}): ${text}`, { code: 'ESLURM_INVALID_TIME_VALUE', exitCode: 255 });
    this.name = 'TimeSpecError';
    this.pos = pos;
  }
}

const CLOCK_WORDS: ReadonlyArray<readonly [word: string, hour: number]> = [
  ['midnight', 0], ['noon', 12], ['fika', 15], ['teatime', 16],
];

/** Unix seconds for a --begin value; 0 when it names no time at all (blank), as parse_time() returns. */
export function parseBeginTime(text: string, now: Date): number {
  if (text.slice(0, 3).toLowerCase() === 'uts') return parseUts(text);
  const nowSec = Math.floor(now.getTime() / 1000);
  const f: TimeFields = { hour: -1, minute: -1, second: 0, month: -1, mday: -1, year: -1 };
  const fail = (pos: number): never => {
    throw new TimeSpecError(pos, text);
  };
  const take = (read: Read): number => (read.ok ? read.pos : fail(read.pos));
  for (let pos = 0; ; pos += 1) {
    // The 'now' branch can step past the end (its arithmetic assumes it started at 0); Slurm
    // then reads beyond the string, which was observed as an error at that position.
    if (pos > text.length) fail(pos);
    const c = text[pos];
    if (c === undefined || c === '\n') break;
    if (c === ' ' || c === '\t' || c === '-' || c === 'T') continue;
    const rest = text.slice(pos).toLowerCase();
    if (rest.startsWith('today')) {
      setDate(f, nowSec);
      pos += 4;
    } else if (rest.startsWith('tomorrow')) {
      setDate(f, nowSec + 86_400);
      pos += 7;
    } else if (CLOCK_WORDS.some(([word]) => rest.startsWith(word))) {
      const [word, hour] = CLOCK_WORDS.find(([w]) => rest.startsWith(w))!;
      Object.assign(f, { hour, minute: 0, second: 0 });
      pos += word.length - 1;
    } else if (rest.startsWith('now')) {
      pos = readNow(text, pos, f, nowSec, fail);
    } else if (c < '0' || c > '9') {
      fail(pos);
    } else if (text[pos + 1] === ':' || text[pos + 2] === ':') {
      pos = take(readClock(text, pos, f));
    } else {
      pos = take(readDate(text, pos, f));
    }
  }
  return resolve(f, nowSec, () => fail(text.length));
}

// `now`, blanks, then an optional signed offset. Slurm adds the absolute index to pos here,
// which is only right when "now" starts the text; the positions it reports follow that.
function readNow(text: string, pos: number, f: TimeFields, nowSec: number, fail: (pos: number) => never): number {
  let delta = 0;
  for (let i = pos + 3; ; i += 1) {
    const c = text[i];
    if (c === '+' || c === '-') {
      pos += i;
      const read = readDelta(text, pos);
      if (!read.ok) fail(read.pos);
      pos = read.pos;
      delta = c === '-' ? -read.seconds : read.seconds;
      break;
    }
    if (c === ' ' || c === '\t') continue;
    if (c === undefined || c === '\n') {
      pos += i - 1;
      break;
    }
    fail(pos + i);
  }
  const later = local(nowSec + delta);
  Object.assign(f, {
    month: later.getMonth(),
    mday: later.getDate(),
    year: later.getFullYear() - 1900,
    hour: later.getHours(),
    minute: later.getMinutes(),
    second: later.getSeconds(),
  });
  return pos;
}

// The date a lone clock time means, the year a date without one means, then mktime().
function resolve(f: TimeFields, nowSec: number, fail: () => never): number {
  const now = local(nowSec);
  if (f.hour === -1 && f.month === -1) return 0;
  if (f.hour === -1) {
    f.hour = 0;
    f.minute = 0;
  } else if (f.month === -1) {
    const later = f.hour > now.getHours() || (f.hour === now.getHours() && f.minute > now.getMinutes());
    setDate(f, later ? nowSec : nowSec + 86_400);
  }
  if (f.year === -1) {
    const passed = f.month < now.getMonth() || (f.month === now.getMonth() && f.mday < now.getDate());
    f.year = now.getFullYear() - 1900 + (passed ? 1 : 0);
  }
  // mktime() normalises out-of-range days as Date does (2027-02-30 is March 2nd).
  const date = new Date(2000, 0, 1);
  date.setFullYear(f.year + 1900, f.month, f.mday);
  date.setHours(f.hour, f.minute, f.second, 0);
  const seconds = date.getTime() / 1000;
  return Number.isFinite(seconds) ? seconds : fail();
}

// `uts` and strtol's digits (at least 1000000), nothing after them.
function parseUts(text: string): number {
  const match = /^\s*([+-]?\d+)$/.exec(text.slice(3));
  const seconds = Number(match?.[1]);
  if (!match || seconds < 1_000_000 || !Number.isSafeInteger(seconds)) throw new TimeSpecError(0, text);
  return seconds;
}

function setDate(f: TimeFields, epochSeconds: number): void {
  const day = local(epochSeconds);
  Object.assign(f, { month: day.getMonth(), mday: day.getDate(), year: day.getFullYear() - 1900 });
}

function local(epochSeconds: number): Date {
  return new Date(epochSeconds * 1000);
}
