// How sacct prints values (src/sacct/print.c): durations, CPU times with milliseconds, sizes
// through convert_num_unit (exact by default, or in the unit --units names), exit codes.
import { INFINITE, NO_VAL } from '../../core/slurm-constants.js';

const UNITS = ['', 'K', 'M', 'G', 'T', 'P'] as const;

/** How sizes are scaled: exact (sacct's default), into one unit (--units), or not at all (--noconvert). */
export type SizeMode = { kind: 'exact' } | { kind: 'unit'; unit: number } | { kind: 'none' };

/** convert_num_unit(): `value` counted in UNITS[unit] (1 = KiB, 2 = MiB). */
export function sizeText(value: number, unit: number, mode: SizeMode): string {
  let num = value;
  let at = unit;
  if (mode.kind === 'unit') {
    while (at < mode.unit) {
      num /= 1024;
      at += 1;
    }
    while (at > mode.unit) {
      num *= 1024;
      at -= 1;
    }
  } else if (mode.kind === 'exact') {
    // As sinfo (core/convert-num.ts): scaled while that loses nothing beyond a half.
    while (num >= 1024 && Math.trunc(num) % 512 === 0 && at < UNITS.length - 1) {
      num /= 1024;
      at += 1;
    }
  }
  const suffix = UNITS[at] ?? '?';
  return Number.isInteger(num) ? `${num}${suffix}` : `${num.toFixed(2)}${suffix}`;
}

/** The unit letter --units takes (K, M, G, T, P), as an index into UNITS. */
export function unitIndex(letter: string): number | undefined {
  const i = UNITS.indexOf(letter.toUpperCase() as (typeof UNITS)[number]);
  return i > 0 ? i : undefined;
}

/** sacct's _elapsed_time(): `D-HH:MM:SS`, `HH:MM:SS`, `MM:SS.mmm` under an hour with a fraction, else `00:MM:SS`. */
export function cpuTimeText(usec: number): string {
  const secs = Math.floor(usec / 1e6);
  const msec = Math.floor((usec % 1e6) / 1000);
  const s = secs % 60;
  const m = Math.floor(secs / 60) % 60;
  const h = Math.floor(secs / 3600) % 24;
  const d = Math.floor(secs / 86400);
  if (d) return `${d}-${pad2(h)}:${pad2(m)}:${pad2(s)}`;
  if (h) return `${pad2(h)}:${pad2(m)}:${pad2(s)}`;
  if (msec) return `${pad2(m)}:${pad2(s)}.${String(msec).padStart(3, '0')}`;
  return `00:${pad2(m)}:${pad2(s)}`;
}

/** A time limit: `UNLIMITED`, `Partition_Limit` when unset, else mins2time_str(). */
export function timelimitText(minutes: number, secsToTime: (s: number) => string): string {
  if (minutes === INFINITE) return 'UNLIMITED';
  if (minutes === NO_VAL) return 'Partition_Limit';
  return secsToTime(minutes * 60);
}

/** `code:signal` from a wait status. */
export function exitCodeText(status: number): string {
  return `${(status >> 8) & 0xff}:${status & 0x7f}`;
}

function pad2(n: number): string {
  return String(n).padStart(2, '0');
}
