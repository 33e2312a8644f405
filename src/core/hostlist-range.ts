// Slurm's hostrange_t and the two operations `scontrol show hostlist` needs: pushing host names
// (each joins the previous range when it continues it) and printing the ranged string.
// Semantics follow src/common/hostlist.c of Slurm 22.05, checked against its scontrol.
import { strnatcmp } from './strnatcmp.js';

/** A run of hosts prefix+lo .. prefix+hi, numbers zero-padded to `width`. */
export interface HostRange {
  prefix: string;
  lo: number;
  hi: number;
  width: number;
  /** No numeric suffix: the whole name is `prefix`, and lo/hi/width are 0 (Slurm's singlehost). */
  single: boolean;
}

/** `n` zero-padded to `width` digits, like printf("%0*lu"). */
export function formatHostNumber(n: number, width: number): string {
  const digits = String(n);
  return digits.length >= width ? digits : '0'.repeat(width - digits.length) + digits;
}

/** Splits a name into prefix and trailing number, like Slurm's hostname_create(). */
export function rangeFromName(name: string): HostRange {
  let end = name.length;
  while (end > 0 && name.charCodeAt(end - 1) >= 48 && name.charCodeAt(end - 1) <= 57) end--;
  const digits = name.slice(end);
  const num = Number(digits);
  // Slurm keeps up to 2^64 here; past 2^53 we treat the name as having no number at all.
  if (digits === '' || num > Number.MAX_SAFE_INTEGER) {
    return { prefix: name, lo: 0, hi: 0, width: 0, single: true };
  }
  return { prefix: name.slice(0, end), lo: num, hi: num, width: digits.length, single: false };
}

const POW10 = Array.from({ length: 23 }, (_, i) => 10 ** i);

// Slurm's _width_equiv(): two widths are compatible if one of them can be applied to both
// numbers without changing either's zero padding. Like Slurm it then rewrites the other width;
// that never changes what is printed, but keeping it makes later comparisons identical to Slurm's.
// With W the larger width, applying W changes n's padding exactly when n has fewer than W
// digits, i.e. n < 10^(W-1); that shortcut keeps sorting 100k names fast.
export function widthsCombine(a: HostRange, b: HostRange): boolean {
  if (a.width === b.width) return true;
  const wider = Math.max(a.width, b.width);
  const limit = wider <= POW10.length ? POW10[wider - 1]! : Infinity;
  const aChanges = a.lo < limit;
  const bChanges = b.lo < limit;
  if (aChanges && bChanges) return false;
  if (aChanges) b.width = a.width;
  else a.width = b.width;
  return true;
}

/** hostrange_prefix_cmp(): natural order of prefixes, a numberless name before a range. */
export function prefixCmp(a: HostRange, b: HostRange): number {
  const cmp = a.prefix === b.prefix ? 0 : strnatcmp(a.prefix, b.prefix);
  return cmp === 0 ? (b.single ? 1 : 0) - (a.single ? 1 : 0) : cmp;
}

/** hostrange_within_range(): may share one bracket when printed. */
export function withinRange(a: HostRange, b: HostRange): boolean {
  return !a.single && !b.single && prefixCmp(a, b) === 0;
}

/** hostlist_push_range(): extends the last range when `r` continues it, else appends `r` itself. */
export function pushRange(ranges: HostRange[], r: HostRange): void {
  const tail = ranges[ranges.length - 1];
  if (tail && tail.hi === r.lo - 1 && prefixCmp(tail, r) === 0 && widthsCombine(tail, r)) {
    tail.hi = r.hi;
  } else {
    ranges.push(r);
  }
}

/** hostlist_shift() until empty: every name, in order. */
export function namesOf(ranges: readonly HostRange[]): string[] {
  const names: string[] = [];
  for (const r of ranges) {
    if (r.single) {
      names.push(r.prefix);
      continue;
    }
    for (let n = r.lo; n <= r.hi; n++) names.push(r.prefix + formatHostNumber(n, r.width));
  }
  return names;
}

/**
 * pushRange(ranges, rangeFromName(name)) without allocating when the name continues the last
 * range, which is the common case for long lists (n1, n2, ... n100000).
 */
export function pushName(ranges: HostRange[], name: string): void {
  const tail = ranges[ranges.length - 1];
  let end = name.length;
  while (end > 0 && name.charCodeAt(end - 1) >= 48 && name.charCodeAt(end - 1) <= 57) end--;
  if (tail && !tail.single && end < name.length && end === tail.prefix.length) {
    let num = 0;
    for (let i = end; i < name.length; i++) num = num * 10 + name.charCodeAt(i) - 48;
    const width = name.length - end;
    if (
      num === tail.hi + 1 &&
      num <= Number.MAX_SAFE_INTEGER &&
      name.startsWith(tail.prefix) &&
      (width === tail.width || widthsCombine(tail, { ...tail, lo: num, hi: num, width }))
    ) {
      tail.hi = num;
      return;
    }
  }
  // Every other way to join needs the same prefix and the next number, handled above.
  ranges.push(rangeFromName(name));
}

function numberText(r: HostRange): string {
  const lo = formatHostNumber(r.lo, r.width);
  return r.lo < r.hi ? `${lo}-${formatHostNumber(r.hi, r.width)}` : lo;
}

// hostlist_ranged_string(): consecutive ranges with the same prefix share one bracket; a
// bracket is printed when that group has several ranges or its first range several hosts.
export function rangedString(ranges: readonly HostRange[]): string {
  const parts: string[] = [];
  let i = 0;
  while (i < ranges.length) {
    const first = ranges[i]!;
    const next = ranges[i + 1];
    if (first.single) {
      parts.push(first.prefix);
      i++;
      continue;
    }
    // Slurm counts hi - lo + 1 unsigned, so a range its sort left with hi < lo also counts as many.
    const bracket = first.lo !== first.hi || (next !== undefined && withinRange(first, next));
    const numbers = [numberText(first)];
    for (i++; i < ranges.length && withinRange(ranges[i]!, ranges[i - 1]!); i++) {
      numbers.push(numberText(ranges[i]!));
    }
    const body = numbers.join(',');
    parts.push(bracket ? `${first.prefix}[${body}]` : first.prefix + body);
  }
  return parts.join(',');
}
