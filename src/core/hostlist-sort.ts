// Sorting a list of host ranges the way Slurm 22.05 does for `scontrol show hostlistsorted`
// (hostlist_sort: qsort, then hostlist_coalesce and hostlist_collapse) and for hostlist_uniq.
// Slurm's comparator is not a total order (width compatibility is not transitive) and its
// coalesce step splits overlapping ranges oddly (n[1-3],n[2-4] -> n[1-2,2-3,3-4]), so to print
// what Slurm prints we replay its exact steps, including glibc's merge sort.
import {
  type HostRange,
  prefixCmp,
  widthsCombine,
} from './hostlist-range.js';

/** hostrange_cmp(): prefix, then lowest number if the widths are compatible, else width. */
function hostrangeCmp(a: HostRange, b: HostRange): number {
  const cmp = prefixCmp(a, b);
  if (cmp !== 0) return cmp;
  // Slurm returns the unsigned difference truncated to int; `| 0` truncates the same way.
  return widthsCombine(a, b) ? (a.lo - b.lo) | 0 : a.width - b.width;
}

// glibc's qsort is a top-down merge sort (msort.c) whenever it can allocate the buffer: split
// at n/2, sort both halves, merge taking from the left on ties. Same comparisons, same order.
function mergeSort(items: HostRange[], tmp: HostRange[], start: number, n: number): void {
  if (n <= 1) return;
  const n1 = n >>> 1;
  mergeSort(items, tmp, start, n1);
  mergeSort(items, tmp, start + n1, n - n1);
  let left = start;
  let right = start + n1;
  const leftEnd = right;
  const end = start + n;
  let k = 0;
  while (left < leftEnd && right < end) {
    tmp[k++] = hostrangeCmp(items[left]!, items[right]!) <= 0 ? items[left++]! : items[right++]!;
  }
  while (left < leftEnd) tmp[k++] = items[left++]!;
  for (let i = 0; i < k; i++) items[start + i] = tmp[i]!;
}

function insertAt(items: HostRange[], index: number, added: readonly HostRange[]): void {
  const oldLength = items.length;
  items.length = oldLength + added.length;
  for (let i = oldLength - 1; i >= index; i--) items[i + added.length] = items[i]!;
  for (let i = 0; i < added.length; i++) items[index + i] = added[i]!;
}

// hostrange_intersect(): the common hosts of two adjacent sorted ranges, if any.
function intersect(a: HostRange, b: HostRange): HostRange | undefined {
  if (a.single || b.single) return undefined;
  if (a.hi > b.lo && prefixCmp(a, b) === 0 && widthsCombine(a, b)) {
    return { ...a, lo: b.lo, hi: Math.min(a.hi, b.hi) };
  }
  return undefined;
}

// hostlist_coalesce(): for each overlapping pair (scanning from the end), shrink both ranges to
// touch the overlap and insert the overlapped hosts one by one between them. Slurm restarts the
// scan from the end after each change; pairs right of the change are untouched and were already
// clean, so resuming just right of it finds the same pairs in the same order.
function coalesce(ranges: HostRange[]): void {
  for (let i = ranges.length - 1; i > 0; i--) {
    const prev = ranges[i - 1]!;
    const next = ranges[i]!;
    const common = intersect(prev, next);
    if (!common) continue;
    if (common.hi < prev.hi) next.hi = prev.hi;
    prev.hi = common.lo;
    next.lo = common.hi;
    // Only reachable when the (non-transitive) sort left prev.lo > next.lo: Slurm then deletes
    // index i, i.e. `next`, and keeps reading the freed `next`. In a fresh scontrol glibc hands
    // that memory straight back for the one-host range made in the loop below, so next.lo reads
    // as n and the second test never passes (n0019,n0020,n999,n1000,n999,n1000 ->
    // n[999,999-1000,1000]). In a long-lived process with a full tcache bin it reads the old
    // value instead; Slurm's output here depends on its heap, so we copy the fresh-process case.
    const nextFreed = prev.hi < prev.lo;
    if (nextFreed) ranges.splice(i, 1);
    const added: HostRange[] = [];
    for (let n = common.lo; n <= common.hi; n++) {
      const one = { ...common, lo: n, hi: n };
      if (n > prev.hi) added.push(one);
      if (!nextFreed && n < next.lo) added.push({ ...one });
    }
    insertAt(ranges, i, added);
    i = Math.min(ranges.length, i + added.length + 2);
  }
}

// hostlist_collapse(): from the end, merge each range into its left neighbour when they touch.
function collapse(ranges: readonly HostRange[]): HostRange[] {
  const reversed: HostRange[] = [];
  let next = ranges[ranges.length - 1];
  for (let i = ranges.length - 2; i >= 0 && next; i--) {
    const prev = ranges[i]!;
    if (prev.hi === next.lo - 1 && prefixCmp(prev, next) === 0 && widthsCombine(prev, next)) {
      prev.hi = next.hi;
    } else {
      reversed.push(next);
    }
    next = prev;
  }
  if (next) reversed.push(next);
  return reversed.reverse();
}

/** hostlist_sort(): sorted, overlaps split, touching ranges merged; duplicates are kept. */
export function sortRanges(ranges: HostRange[]): HostRange[] {
  if (ranges.length <= 1) return ranges;
  mergeSort(ranges, new Array<HostRange>(ranges.length), 0, ranges.length);
  coalesce(ranges);
  return collapse(ranges);
}

// hostrange_join(): merges b into a when they touch or overlap (or are the same numberless
// name); returns false when they stay apart.
function join(a: HostRange, b: HostRange): boolean {
  if (prefixCmp(a, b) !== 0 || !widthsCombine(a, b)) return false;
  if (a.single && b.single) return true;
  if (a.hi === b.lo - 1 || a.hi >= b.lo) {
    if (a.hi < b.hi) a.hi = b.hi;
    return true;
  }
  return false;
}

/** hostlist_uniq(): sorted with duplicates and overlaps merged away. */
export function uniqRanges(ranges: HostRange[]): HostRange[] {
  if (ranges.length <= 1) return ranges;
  mergeSort(ranges, new Array<HostRange>(ranges.length), 0, ranges.length);
  const kept: HostRange[] = [];
  let current = ranges[0]!;
  for (let i = 1; i < ranges.length; i++) {
    if (!join(current, ranges[i]!)) {
      kept.push(current);
      current = ranges[i]!;
    }
  }
  kept.push(current);
  return kept;
}
