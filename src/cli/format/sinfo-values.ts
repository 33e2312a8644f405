// The small value formats of sinfo's print.c: ranges over a line's nodes (`4`, `4+`,
// `1-infinite`), durations (`infinite`, `10:00`, `1-00:00:00`), reason authors and times.
import { convertNumUnit } from '../../core/convert-num.js';
import { INFINITE, NO_VAL } from '../../core/slurm-constants.js';
import { formatSlurmDate } from '../../core/time-string.js';
import type { PartitionInfo } from '../../protocol/node-info.js';
import type { SinfoRecord } from './sinfo-records.js';

/**
 * _build_min_max_32_string(): one value when min = max, else `min+` (or `min-max` with
 * `range`, `min-infinite` for an INFINITE max); `suffix` scales by 1024 (`1K`).
 */
export function minMax(min: number, max: number, range: boolean, suffix: boolean): string {
  const text = (n: number): string => (suffix ? convertNumUnit(n) : String(n));
  if (min === max) return text(max);
  if (!range) return `${text(min)}+`;
  return max === INFINITE ? `${text(min)}-infinite` : `${text(min)}-${text(max)}`;
}

/** _print_secs(): `M:SS`, `H:MM:SS`, `D-HH:MM:SS`. */
export function printSecs(seconds: number): string {
  const pad2 = (n: number): string => String(n).padStart(2, '0');
  const days = Math.trunc(seconds / 86_400);
  const hours = Math.trunc(seconds / 3600) % 24;
  const minutes = Math.trunc(seconds / 60) % 60;
  const secs = seconds % 60;
  if (days) return `${days}-${pad2(hours)}:${pad2(minutes)}:${pad2(secs)}`;
  if (hours) return `${hours}:${pad2(minutes)}:${pad2(secs)}`;
  return `${minutes}:${pad2(secs)}`;
}

/** TIMELIMIT / DEFAULTTIME: `infinite`, `n/a` when not set, else a duration. */
export function partitionTime(minutes: number): string {
  if (minutes === INFINITE) return 'infinite';
  if (minutes === NO_VAL) return 'n/a';
  return printSecs(minutes * 60);
}

/** JOB_SIZE: `1-infinite`, `1-2`; a partition with MinNodes=0 shows 1. */
export function jobSize(part: PartitionInfo): string {
  const min = part.minNodes < 1 && part.maxNodes > 0 ? 1 : part.minNodes;
  return minMax(min, part.maxNodes, true, true);
}

/** The partition name, with `*` for the default one (replacing the last character that fits). */
export function partitionLabel(part: PartitionInfo, width: number): string {
  if (!part.isDefault) return part.name;
  if (width === 0 || part.name.length < width) return `${part.name}*`;
  return `${part.name.slice(0, width - 1)}*`;
}

/** USER (%u) and the long form (%U, `root(0)`), `Unknown` when nobody set the reason. */
export function reasonUser(rec: SinfoRecord, long: boolean): string {
  if (rec.reasonUid === NO_VAL) return 'Unknown';
  const name = userName(rec.reasonUid);
  return long ? `${name}(${rec.reasonUid})` : name;
}

/** TIMESTAMP: when the reason was set, `Unknown` when not known. */
export function reasonTimestamp(rec: SinfoRecord): string {
  return rec.reasonTime ? formatSlurmDate(rec.reasonTime) : 'Unknown';
}

// getpwuid() without a passwd lookup: root, and the user running the command; sinfo prints
// `Unk(<uid>)` for a uid it cannot resolve.
function userName(uid: number): string {
  if (uid === 0) return 'root';
  if (process.getuid?.() === uid) return process.env.USER || process.env.LOGNAME || `Unk(${uid})`;
  return `Unk(${uid})`;
}
