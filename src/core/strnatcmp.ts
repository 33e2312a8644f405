// Natural-order string comparison, as Slurm's src/common/strnatcmp.c (Martin Pool's algorithm).
// Slurm sorts hostlist prefixes with it, so "rack2-n" sorts before "rack10-n". We keep its quirks:
// a digit run starting with '0' is compared digit by digit ("fractional"), others by magnitude,
// and white space is skipped. Characters compare by UTF-16 code unit, which equals Slurm's
// byte order for ASCII host names.

const NUL = 0;
const ZERO = 48;

function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}

function isSpace(c: number): boolean {
  return c === 32 || (c >= 9 && c <= 13);
}

function codeAt(s: string, i: number): number {
  return i < s.length ? s.charCodeAt(i) : NUL;
}

// Right-aligned runs: the longer run wins; at equal length the first differing digit decides.
function compareRight(a: string, ai: number, b: string, bi: number): number {
  let bias = 0;
  for (;; ai++, bi++) {
    const ca = codeAt(a, ai);
    const cb = codeAt(b, bi);
    if (!isDigit(ca) && !isDigit(cb)) return bias;
    if (!isDigit(ca)) return -1;
    if (!isDigit(cb)) return 1;
    if (bias === 0 && ca !== cb) bias = ca < cb ? -1 : 1;
  }
}

// Left-aligned runs (one starts with '0'): the first differing digit decides.
function compareLeft(a: string, ai: number, b: string, bi: number): number {
  for (;; ai++, bi++) {
    const ca = codeAt(a, ai);
    const cb = codeAt(b, bi);
    if (!isDigit(ca) && !isDigit(cb)) return 0;
    if (!isDigit(ca)) return -1;
    if (!isDigit(cb)) return 1;
    if (ca !== cb) return ca < cb ? -1 : 1;
  }
}

/** Slurm's strnatcmp(a, b): negative, zero or positive. */
export function strnatcmp(a: string, b: string): number {
  let ai = 0;
  let bi = 0;
  for (;;) {
    let ca = codeAt(a, ai);
    let cb = codeAt(b, bi);
    while (isSpace(ca)) ca = codeAt(a, ++ai);
    while (isSpace(cb)) cb = codeAt(b, ++bi);

    if (isDigit(ca) && isDigit(cb)) {
      const fractional = ca === ZERO || cb === ZERO;
      const result = fractional ? compareLeft(a, ai, b, bi) : compareRight(a, ai, b, bi);
      if (result !== 0) return result;
    }
    if (ca === NUL && cb === NUL) return 0;
    if (ca !== cb) return ca < cb ? -1 : 1;
    ai++;
    bi++;
  }
}
