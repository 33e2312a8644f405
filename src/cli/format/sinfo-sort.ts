// sinfo's line order (src/sinfo/sort.c): the -S keys applied right to left, each a stable
// sort, `-` reversing a key and `#` ordering partitions as configured instead of by name.
// Defaults: `#P,-t` (partition order, then state, highest first) and `N` with -N.
import type { SinfoRecord } from './sinfo-records.js';
import { partitionMaxShare, partitionStateUp } from './partition-values.js';
import { INFINITE } from '../../core/slurm-constants.js';

type Compare = (a: SinfoRecord, b: SinfoRecord, partOrder: boolean) => number;

// Slurm subtracts unsigned fields and keeps the int: `| 0` wraps the same way, so an
// UNLIMITED time limit sorts before a finite one, exactly as in sinfo.
const diff = (a: number, b: number): number => (a - b) | 0;
const strcmp = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

const jobSize = (r: SinfoRecord): number =>
  r.part.maxNodes === INFINITE ? r.part.maxNodes : r.part.maxNodes + r.part.minNodes;

// After an earlier `@` (user@time), the time; else the whole reason.
const reasonTime = (r: SinfoRecord): string => {
  const at = r.reason?.lastIndexOf('@') ?? -1;
  return at >= 0 ? r.reason!.slice(at + 1) : (r.reason ?? '');
};

const KEYS: Record<string, Compare> = {
  a: (x, y) => diff(partitionStateUp(x.part), partitionStateUp(y.part)),
  A: (x, y) => diff(x.nodesAlloc, y.nodesAlloc),
  F: (x, y) => diff(x.nodesAlloc, y.nodesAlloc),
  c: (x, y) => diff(x.cpus.min, y.cpus.min),
  d: (x, y) => diff(x.disk.min, y.disk.min),
  D: (x, y) => diff(x.nodesTotal, y.nodesTotal),
  E: (x, y) => strcmp(reasonTime(x), reasonTime(y)),
  f: (x, y) => strcmp(x.features ?? '', y.features ?? ''),
  h: (x, y) => diff(partitionMaxShare(x.part), partitionMaxShare(y.part)),
  l: (x, y) => diff(x.part.maxTime, y.part.maxTime),
  m: (x, y) => diff(x.mem.min, y.mem.min),
  n: (x, y) => hostCmp(firstSorted(x.hostnames), firstSorted(y.hostnames)),
  N: (x, y) => hostCmp(firstSorted(x.nodes), firstSorted(y.nodes)),
  o: (x, y) => hostCmp(firstSorted(x.addrs), firstSorted(y.addrs)),
  P: (x, y, partOrder) => (partOrder ? x.partIndex - y.partIndex : strcmp(x.part.name, y.part.name)),
  R: (x, y) => strcmp(x.reason ?? '', y.reason ?? ''),
  s: (x, y) => diff(jobSize(x), jobSize(y)),
  t: (x, y) => diff(x.nodeState, y.nodeState),
  T: (x, y) => diff(x.nodeState, y.nodeState),
  w: (x, y) => diff(x.weight.min, y.weight.min),
  X: (x, y) => diff(x.sockets.min, y.sockets.min),
  Y: (x, y) => diff(x.cores.min, y.cores.min),
  Z: (x, y) => diff(x.threads.min, y.threads.min),
  z: (x, y) => diff(x.sockets.min, y.sockets.min) || diff(x.cores.min, y.cores.min) || diff(x.threads.min, y.threads.min),
};

/** The default sort keys: `N` with -N, else `#P,-t`. */
export function defaultSinfoSort(nodeFlag: boolean): string {
  return nodeFlag ? 'N' : '#P,-t';
}

/** Sorts the lines in place by an -S specification (unknown letters are ignored, as in sinfo). */
export function sortSinfoRecords(records: SinfoRecord[], spec: string): void {
  for (let i = spec.length - 1; i >= 0; i -= 1) {
    const key = KEYS[spec[i]!];
    if (key === undefined) continue;
    const reverse = i > 0 && spec[i - 1] === '-';
    const partOrder = i > 0 && spec[i - 1] === '#';
    records.sort((a, b) => (reverse ? -key(a, b, partOrder) : key(a, b, partOrder)));
  }
}

// The first name of a line's host list once sorted (hostlist_sort: prefix, then number).
function firstSorted(names: readonly string[]): string {
  let first = '';
  for (const name of names) if (first === '' || hostCmp(name, first) < 0) first = name;
  return first;
}

// sort.c's name comparison: at the first differing character, numbers compare by value.
function hostCmp(a: string, b: string): number {
  for (let i = 0; ; i += 1) {
    const ca = a[i];
    const cb = b[i];
    if (ca === cb) {
      if (ca === undefined) return 0;
      continue;
    }
    if (isDigit(ca) && isDigit(cb)) return Number.parseInt(a.slice(i), 10) - Number.parseInt(b.slice(i), 10);
    return strcmp(a, b);
  }
}

function isDigit(c: string | undefined): boolean {
  return c !== undefined && c >= '0' && c <= '9';
}
