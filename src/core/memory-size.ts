// Memory sizes as `--mem`, `--mem-per-cpu` and `--mem-per-gpu` take them
// (src/common/proc_args.c str_to_mbytes), and the two ways Slurm prints megabytes back.
import { UserError } from './errors.js';

const MB_PER_UNIT: Record<string, number> = { m: 1, g: 1024, t: 1024 * 1024 };

// strtoll() semantics: leading white space and a sign, then digits. After the digits Slurm
// takes an optional K/M/G/T unit (any case) that may itself be followed by "B" or "b", so
// "100MB" is 100 MB but "100B", "1.5G" and "1P" are rejected.
const MEMORY = /^[ \t\n\v\f\r]*([+-]?)(\d+)(?:([kmgt])b?)?$/i;

/**
 * Megabytes from a memory size; a bare number is already megabytes and K rounds up to a
 * whole megabyte ("1K" and "1023K" are 1, "1025K" is 2, as str_to_mbytes does).
 * `option` names the flag in the error: srun prints "Invalid --mem specification".
 */
export function parseMemoryMB(text: string, option = '--mem'): number {
  const match = MEMORY.exec(text);
  const digits = match?.[2];
  const value = digits === undefined ? NaN : Number(digits);
  // "-0" passes: strtoll gives 0 and Slurm only refuses a result below zero.
  if (!match || (match[1] === '-' && value !== 0) || !Number.isSafeInteger(value)) {
    throw invalid(option);
  }
  const unit = match[3]?.toLowerCase() ?? 'm';
  const mb = unit === 'k' ? Math.ceil(value / 1024) : value * MB_PER_UNIT[unit]!;
  if (!Number.isSafeInteger(mb)) throw invalid(option);
  return mb;
}

function invalid(option: string): UserError {
  // srun and sbatch exit(-1) on a bad size, so the shell sees 255 (observed on Slurm 22.05).
  return new UserError(`Invalid ${option} specification`, { exitCode: 255 });
}

const UNITS = ['', 'K', 'M', 'G', 'T', 'P'] as const;
const MEGA = 2;

/**
 * scontrol's MinMemoryNode=/MinMemoryCPU= and squeue's MIN_MEMORY (convert_num_unit with
 * CONVERT_NUM_UNIT_EXACT): scaled by 1024 while exact or exactly half, so 4000 → `4000M`,
 * 1024 → `1G`, 1536 → `1.50G`, 1280 → `1280M`, and 0 → `0`.
 */
export function formatMemSuffix(mb: number): string {
  if (Math.trunc(mb) === 0) return '0';
  let num = mb;
  let unit = MEGA;
  while (num >= 1024 && Math.trunc(num) % 512 === 0) {
    num /= 1024;
    unit += 1;
  }
  const suffix = UNITS[unit] ?? '?';
  return Number.isInteger(num) ? `${num}${suffix}` : `${num.toFixed(2)}${suffix}`;
}

/**
 * mbytes_to_str(): the largest unit that divides evenly, with megabytes left bare, so
 * 4000 → `4000`, 16384 → `16G`, 1048576 → `1T`. Slurm prints 0 as "0?" (its loop never
 * finds a unit); we print `0`.
 */
export function formatMemoryMB(mb: number): string {
  if (mb === 0) return '0';
  let value = mb;
  let unit = 0;
  const units = ['', 'G', 'T', 'P'];
  while (unit < units.length - 1 && value % 1024 === 0) {
    value /= 1024;
    unit += 1;
  }
  return `${value}${units[unit]}`;
}
