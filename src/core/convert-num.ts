// convert_num_unit() with CONVERT_NUM_UNIT_EXACT (src/common/proc_args.c), as sinfo prints CPU,
// socket and job-size counts: scaled by 1024 only while that loses nothing, so 4 → `4`,
// 1024 → `1K`, 1536 → `1.50K`, 1000 → `1000`.

const UNITS = ['', 'K', 'M', 'G', 'T', 'P'] as const;

/** `unit` is where `num` starts: 0 for a plain count, 2 for megabytes (`100` → `100M`). */
export function convertNumUnit(num: number, unit = 0): string {
  if (num === 0) return '0';
  let value = num;
  while (value >= 1024 && Math.trunc(value) % 512 === 0) {
    value /= 1024;
    unit += 1;
  }
  const suffix = UNITS[unit] ?? '?';
  return Number.isInteger(value) ? `${value}${suffix}` : `${value.toFixed(2)}${suffix}`;
}
