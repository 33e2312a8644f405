// Parsing a hostlist expression into host ranges, as Slurm 22.05's hostlist_create(): a bracket
// group becomes ranges under the prefix written before it ("node0[61-65]" keeps prefix "node0"
// and width 2), a plain name is split into prefix and number. Slurm accepts some garbage that we
// refuse on purpose, because its results are accidents of C string handling:
//   `n[1-`  -> "n]"   (an unclosed '[' gets a ']' appended)   `n]`, `a[b[1-2]` -> literal brackets
//   `n[1-]` -> n1     `n[1a-3]`, `n[+1-3]`, `n[ 1-3]` -> n01..n03 (width counts the junk)
//   numbers past 2^64 clamp to 18446744073709551615          a newline is part of a name
//   with 3+ groups, a bad group before the last two is logged but ignored (token yields nothing)
// We throw HostlistError for those instead, and also split on newlines.
import { HOSTLIST_LIMITS, HostlistError } from './hostlist-error.js';
import {
  formatHostNumber,
  type HostRange,
  pushRange,
  rangeFromName,
} from './hostlist-range.js';

/** One `lo-hi` item of a bracket group; width is the length of lo as written ("01" -> 2). */
export interface RangeSpec {
  lo: number;
  hi: number;
  width: number;
}

const SEPARATORS = new Set([' ', '\t', ',', '\n', '\r']);

/** A token, or null for one whose brackets do not pair up (or nest). */
type Token = string | null;

/** Splits at separators outside brackets. Bad tokens fail only when reached, as in Slurm. */
function splitTokens(expr: string): Token[] {
  const tokens: Token[] = [];
  let start = -1;
  let inBracket = false;
  let bad = false;
  for (let i = 0; i <= expr.length; i++) {
    const c = i < expr.length ? expr[i]! : ',';
    if (c === '[' || c === ']') {
      if (inBracket === (c === '[')) bad = true;
      inBracket = c === '[';
    }
    if ((!inBracket || i === expr.length) && SEPARATORS.has(c)) {
      if (start >= 0) tokens.push(bad || inBracket ? null : expr.slice(start, i));
      start = -1;
      bad = false;
    } else if (start < 0) {
      start = i;
    }
  }
  return tokens;
}

// Digits from `at` to the first non-digit; [value, end]. No digits gives end === at.
function readNumber(text: string, at: number): [number, number] {
  let value = 0;
  let end = at;
  for (; end < text.length; end++) {
    const digit = text.charCodeAt(end) - 48;
    if (digit < 0 || digit > 9) break;
    value = value * 10 + digit;
  }
  return [value, end];
}

// Slurm's _parse_single_range() for "lo" or "lo-hi"; the detail strings are its error() lines.
function parseItem(item: string, expr: string): RangeSpec {
  const [lo, loEnd] = readNumber(item, 0);
  let hi = lo;
  let end = loEnd;
  if (loEnd > 0 && item.charCodeAt(loEnd) === 45 /* '-' */) {
    const [value, hiEnd] = readNumber(item, loEnd + 1);
    hi = hiEnd > loEnd + 1 ? value : NaN;
    end = hiEnd;
  }
  if (loEnd === 0 || end !== item.length || !(lo <= hi) || hi > Number.MAX_SAFE_INTEGER) {
    throw new HostlistError(expr, `_parse_single_range: Invalid range: \`${item}'`);
  }
  if (hi - lo + 1 > HOSTLIST_LIMITS.maxRange) {
    throw new HostlistError(expr, `_parse_single_range: Too many hosts in range \`${item}'`);
  }
  return { lo, hi, width: loEnd };
}

function parseGroup(text: string, expr: string): RangeSpec[] {
  return text.split(',').map((item) => parseItem(item, expr));
}

function countOf(group: readonly RangeSpec[]): number {
  return group.reduce((sum, r) => sum + r.hi - r.lo + 1, 0);
}

function valuesOf(group: readonly RangeSpec[]): string[] {
  const values: string[] = [];
  for (const r of group) {
    for (let n = r.lo; n <= r.hi; n++) values.push(formatHostNumber(n, r.width));
  }
  return values;
}

/** A token cut into its literal texts and bracket groups: texts[0] [groups[0]] texts[1] ... */
interface Pattern {
  texts: string[];
  groups: RangeSpec[][];
}

function parsePattern(token: string, expr: string): Pattern {
  const texts: string[] = [];
  const bodies: string[] = [];
  let at = 0;
  for (let open = token.indexOf('['); open >= 0; open = token.indexOf('[', at)) {
    const close = token.indexOf(']', open);
    texts.push(token.slice(at, open));
    bodies.push(token.slice(open + 1, close));
    at = close + 1;
  }
  // Slurm allows text after a bracket only when another bracket follows ("rack[1-2]-n[1-3]").
  if (at !== token.length) throw new HostlistError(expr);
  // Slurm parses the last group first, then the others from right to left.
  const groups: RangeSpec[][] = new Array<RangeSpec[]>(bodies.length);
  for (let g = bodies.length - 1; g >= 0; g--) {
    groups[g] = parseGroup(bodies[g]!, expr);
    if (g < bodies.length - 1 && countOf(groups[g]!) > HOSTLIST_LIMITS.maxPrefixCount) {
      throw new HostlistError(expr);
    }
  }
  return { texts, groups };
}

// Slurm substitutes the groups before the last one from the right (recursing on the prefix), so
// the next-to-last group varies slowest, then leftwards to the first, and the last fastest:
// a[1-2]b[3-4]c[5-6] -> a1b3c5 a1b3c6 a2b3c5 a2b3c6 a1b4c5 ...
function prefixesOf(pattern: Pattern): string[] {
  const { texts, groups } = pattern;
  const lastPrefix = groups.length - 1;
  const values = groups.slice(0, lastPrefix).map(valuesOf);
  const chosen = new Array<string>(lastPrefix);
  const prefixes: string[] = [];
  const walk = (g: number): void => {
    if (g < 0) {
      let s = texts[0]!;
      for (let i = 0; i < lastPrefix; i++) s += chosen[i]! + texts[i + 1]!;
      prefixes.push(s);
      return;
    }
    for (const v of values[g]!) {
      chosen[g] = v;
      walk(g - 1);
    }
  };
  walk(lastPrefix - 1);
  return prefixes;
}

function hostCount(pattern: Pattern | string): number {
  if (typeof pattern === 'string') return 1;
  return pattern.groups.map(countOf).reduce((a, b) => a * b, 1);
}

/** The ranges `expr` denotes, in Slurm's order, duplicates kept. */
export function parseHostlist(expr: string): HostRange[] {
  const patterns = splitTokens(expr).map((token) => {
    if (token === null) throw new HostlistError(expr);
    return token.includes('[') ? parsePattern(token, expr) : token;
  });
  const total = patterns.reduce((sum, p) => sum + hostCount(p), 0);
  if (total > HOSTLIST_LIMITS.maxExpandedHosts) throw new HostlistError(expr);

  const ranges: HostRange[] = [];
  for (const p of patterns) {
    if (typeof p === 'string') {
      pushRange(ranges, rangeFromName(p));
      continue;
    }
    const last = p.groups[p.groups.length - 1]!;
    for (const prefix of prefixesOf(p)) {
      for (const { lo, hi, width } of last) {
        pushRange(ranges, { prefix, lo, hi, width, single: false });
      }
    }
  }
  return ranges;
}
