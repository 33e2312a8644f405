// scontrol's record layout (slurm_sprint_*_info): `Key=Value` words in fixed lines; the lines
// of a record are joined by a newline and three spaces, or by one space with -o/--oneliner,
// and a record ends with a blank line (one newline with -o). Trailing spaces inside a line
// (`CoresPerSocket=4 `) are Slurm's own and kept.
export function renderKvRecord(lines: readonly string[], oneLiner: boolean): string {
  return lines.join(oneLiner ? ' ' : '\n   ') + (oneLiner ? '\n' : '\n\n');
}
