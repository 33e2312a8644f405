// One field of a Slurm listing, padded and cut as sinfo/squeue's _print_str() does with printf:
// right-justified `%<w>s`, left-justified `%.<w>s` (always cut to the width) padded with
// spaces; width 0 prints the whole value. `cut` false lets a right-justified value overflow
// (the NODELIST header is printed that way). A null value is glibc's NULL string: `(null)`,
// or nothing when a precision below 6 would cut it (observed: `sinfo -o '%3f|'` prints `   |`).
export function printStr(value: string | null, width: number, right: boolean, cut = true): string {
  if (width === 0) return value ?? '(null)';
  if (right) {
    const padded = (value ?? '(null)').padStart(width);
    return cut ? padded.slice(0, width) : padded;
  }
  const text = value ?? (width >= 6 ? '(null)' : '');
  return text.slice(0, width).padEnd(width);
}
