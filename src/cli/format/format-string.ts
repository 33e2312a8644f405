// squeue/sinfo `-o/--format` strings, parsed as Slurm 22.05's _parse_format() does: text
// before the first `%` is a prefix; each `%` starts a token `[.][width]X` whose letter X names
// a field and whose remaining text, up to the next `%`, is printed after it. `.` right-
// justifies. Empty tokens (`%%`) vanish as strtok() makes them; `-` is not a flag in Slurm,
// so `%-5P` is the field `-` (invalid, printed literally).
import { UserError } from '../../core/errors.js';

export interface FormatToken {
  /** The field letter; '' when the token ends before one (`%5`). */
  letter: string;
  /** 0: as wide as the value. */
  width: number;
  right: boolean;
  /** Text printed after the field. */
  suffix: string;
  /** The token as written after its `%` (`.10l `), printed as `%<raw>` when the letter is unknown. */
  raw: string;
}

export interface ParsedFormat {
  /** Text printed before the first field ('' when none). */
  prefix: string;
  tokens: FormatToken[];
}

export function parseFormatString(format: string): ParsedFormat {
  const first = format.indexOf('%');
  if (first < 0) return { prefix: format, tokens: [] };
  const tokens = format
    .slice(first + 1)
    .split('%')
    .filter((raw) => raw !== '')
    .map(parseToken);
  checkLineWidth(tokens);
  return { prefix: format.slice(0, first), tokens };
}

/** Most characters the field widths of one line may add up to. */
export const MAX_LINE_WIDTH = 65_536;

// squeue and sinfo 22.05 crash (SIGSEGV) on a width like 999999999; a JavaScript string cannot
// hold such a line either. Widths this large are mistakes, so they get one line saying so.
function checkLineWidth(tokens: ReadonlyArray<{ width: number }>): void {
  let total = 0;
  for (const { width } of tokens) {
    total += width;
    if (total > MAX_LINE_WIDTH) {
      const what = width > MAX_LINE_WIDTH ? `field width ${width} is too large` : 'field widths are too large';
      throw new UserError(`Invalid format: ${what} (a line may be at most ${MAX_LINE_WIDTH} characters wide)`);
    }
  }
}

function parseToken(raw: string): FormatToken {
  let i = 0;
  const right = raw[0] === '.';
  if (right) i += 1;
  let width = 0;
  while (i < raw.length && raw[i]! >= '0' && raw[i]! <= '9') {
    width = width * 10 + Number(raw[i]);
    i += 1;
  }
  return { letter: raw[i] ?? '', width, right, suffix: raw.slice(i + 1), raw };
}

/** `-O/--Format` entries: `name[:[.]width[suffix]]`, comma-separated; width 20 when not given. */
export interface LongFormatToken {
  name: string;
  width: number;
  right: boolean;
  suffix: string;
}

export function parseLongFormat(format: string): LongFormatToken[] {
  const tokens = format
    .split(',')
    .filter((t) => t !== '')
    .map((token) => {
      const colon = token.indexOf(':');
      if (colon < 0) return { name: token, width: 20, right: false, suffix: '' };
      let rest = token.slice(colon + 1);
      const right = rest.startsWith('.');
      if (right) rest = rest.slice(1);
      // strtol(): optional sign and digits; anything after them is the suffix.
      const digits = /^\s*[+-]?\d*/.exec(rest)![0];
      const width = Number.parseInt(digits, 10);
      return { name: token.slice(0, colon), width: Number.isNaN(width) ? 0 : Math.max(0, width), right, suffix: rest.slice(digits.length) };
    });
  checkLineWidth(tokens);
  return tokens;
}
