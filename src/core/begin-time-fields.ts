// The three field readers of Slurm's parse_time() (src/common/parse_time.c, 22.05): a clock
// time, a date and a `now+count[unit]` offset. Each starts at `pos` and returns the position
// of the last character it used, or a failure with the position parse_time() reports; those
// positions are part of the message, so they follow Slurm's arithmetic exactly.

/** The fields parse_time() fills in; -1 is "not given". `year` counts from 1900 (tm_year). */
export interface TimeFields {
  hour: number;
  minute: number;
  second: number;
  month: number;
  mday: number;
  year: number;
}

export type Read<T = object> = ({ ok: true; pos: number } & T) | { ok: false; pos: number };

const isDigit = (c: string | undefined): boolean => c !== undefined && c >= '0' && c <= '9';
const digit = (c: string): number => c.charCodeAt(0) - 48;

/** _get_time(): `HH:MM[:SS][ ][AM|PM]`, one or two hour digits, exactly two for the rest. */
export function readClock(s: string, pos: number, f: TimeFields): Read {
  let at = pos;
  const fail = (): Read => ({ ok: false, pos: at });
  if (!isDigit(s[at])) return fail();
  let hour = digit(s[at++]!);
  if (s[at] !== ':') {
    if (!isDigit(s[at])) return fail();
    hour = hour * 10 + digit(s[at++]!);
  }
  if (hour > 23) return { ok: false, pos: at - 2 };
  if (s[at] !== ':') return { ok: false, pos: at - 1 };
  at += 1;
  const minute = twoDigits(s, at);
  if (minute === undefined) return { ok: false, pos: isDigit(s[at]) ? at + 1 : at };
  at += 2;
  if (minute > 59) return { ok: false, pos: at - 2 };
  let second = 0;
  if (s[at] === ':') {
    at += 1;
    const sec = twoDigits(s, at);
    if (sec === undefined) return { ok: false, pos: isDigit(s[at]) ? at + 1 : at };
    at += 2;
    if (sec > 59) return { ok: false, pos: at - 2 };
    second = sec;
  }
  while (/\s/.test(s[at] ?? '')) at += 1;
  const suffix = s.slice(at, at + 2).toLowerCase();
  if (suffix === 'pm') {
    hour += 12;
    if (hour > 23) {
      if (hour !== 24) return fail();
      hour = 12;
    }
    at += 2;
  } else if (suffix === 'am') {
    if (hour > 11) {
      if (hour !== 12) return fail();
      hour = 0;
    }
    at += 2;
  }
  Object.assign(f, { hour, minute, second });
  return { ok: true, pos: at - 1 };
}

/** _get_date(): `YYYY-MM-DD`, or `MM[/.]DD[[/.]YY]` (one or two digits each, so `MMDDYY` too). */
export function readDate(s: string, pos: number, f: TimeFields): Read {
  let at = pos;
  let year = -1;
  const iso = s.length >= at + 7 && s[at + 4] === '-' && s[at + 7] === '-';
  if (iso) {
    for (let i = 0; i < 4; i += 1) if (!isDigit(s[at + i])) return { ok: false, pos: at + i };
    year = Number(s.slice(at, at + 4)) - 1900;
    at += 5;
  }
  const month = oneOrTwoDigits(s, at);
  at = month.end;
  if (month.value < 1 || month.value > 12) return { ok: false, pos: at - 2 };
  // The ISO form skips the character after the month whatever it is; the other only '.' or '/'.
  if (iso || s[at] === '.' || s[at] === '/') at += 1;
  if (!isDigit(s[at])) return { ok: false, pos: at };
  const day = oneOrTwoDigits(s, at);
  at = day.end;
  if (day.value < 1 || day.value > 31) return { ok: false, pos: at - 2 };
  if (!iso) {
    if (s[at] === '.' || s[at] === '/') at += 1;
    if (isDigit(s[at])) {
      const yy = twoDigits(s, at);
      if (yy === undefined) return { ok: false, pos: at + 1 };
      at += 2;
      // "00" means no year, as in Slurm (it tests yr for zero).
      if (yy !== 0) year = yy + 100;
    }
  }
  Object.assign(f, { month: month.value - 1, mday: day.value }, year === -1 ? {} : { year });
  return { ok: true, pos: at - 1 };
}

const UNITS: ReadonlyArray<readonly [name: string, seconds: number]> = [
  ['seconds', 1], ['second', 1], ['minutes', 60], ['minute', 60], ['hours', 3600], ['hour', 3600],
  ['days', 86_400], ['day', 86_400], ['weeks', 604_800], ['week', 604_800],
];

/** _get_delta(): the count after the '+' or '-' at `pos`, then an optional unit (seconds by default). */
export function readDelta(s: string, pos: number): Read<{ seconds: number }> {
  let count = 0;
  let digits = 0;
  let at = pos + 1;
  for (; at < s.length && s[at] !== '\n'; at += 1) {
    if (/\s/.test(s[at]!)) continue;
    const unit = UNITS.find(([name]) => s.slice(at, at + name.length).toLowerCase() === name);
    if (unit) {
      at += unit[0].length;
      count *= unit[1];
      break;
    }
    if (!isDigit(s[at])) return { ok: false, pos: at - 1 };
    count = count * 10 + digit(s[at]!);
    digits += 1;
  }
  // No digits at all leaves the position where it was.
  if (digits === 0) return { ok: false, pos };
  return { ok: true, pos: at - 1, seconds: count };
}

// Exactly two digits at `at`, or undefined.
function twoDigits(s: string, at: number): number | undefined {
  return isDigit(s[at]) && isDigit(s[at + 1]) ? digit(s[at]!) * 10 + digit(s[at + 1]!) : undefined;
}

// Slurm reads the first character as a digit without checking it ('/' - '0' is -1, and so
// out of range); a second one is taken only if it is a digit.
function oneOrTwoDigits(s: string, at: number): { value: number; end: number } {
  const first = (s[at] ?? '\0').charCodeAt(0) - 48;
  return isDigit(s[at + 1]) ? { value: first * 10 + digit(s[at + 1]!), end: at + 2 } : { value: first, end: at + 1 };
}
