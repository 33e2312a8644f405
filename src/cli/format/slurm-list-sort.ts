// Slurm's list_sort() is qsort(3), and glibc's qsort is a top-down merge sort (msort.c). We
// sort the same way rather than with Array.prototype.sort because some of Slurm's comparators
// are not consistent (squeue's start-time order says "a > b" for every job not yet started,
// whichever side it is on), so the order of equal keys depends on the algorithm: with this
// one, such jobs come out reversed, as squeue prints them.

export type Comparator<T> = (a: T, b: T) => number;

/** Sorts `items` in place as glibc's msort_with_tmp() does; returns it. */
export function slurmListSort<T>(items: T[], compare: Comparator<T>): T[] {
  const tmp = new Array<T>(items.length);
  msort(items, 0, items.length, compare, tmp);
  return items;
}

function msort<T>(b: T[], start: number, n: number, compare: Comparator<T>, tmp: T[]): void {
  if (n <= 1) return;
  const n1 = Math.floor(n / 2);
  const n2 = n - n1;
  msort(b, start, n1, compare, tmp);
  msort(b, start + n1, n2, compare, tmp);
  let i1 = start;
  let i2 = start + n1;
  const end1 = start + n1;
  const end2 = start + n;
  let t = 0;
  while (i1 < end1 && i2 < end2) {
    if (compare(b[i1]!, b[i2]!) <= 0) tmp[t++] = b[i1++]!;
    else tmp[t++] = b[i2++]!;
  }
  // What is left of the first run goes after the merged part; the rest of the second run
  // is already in place.
  while (i1 < end1) tmp[t++] = b[i1++]!;
  for (let k = 0; k < t; k++) b[start + k] = tmp[k]!;
}
