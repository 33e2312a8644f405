// What Slurm's jobcomp plugins print of a job: exit codes as `code:signal` from a wait
// status, times as ISO 8601 local time (`%FT%T`, `Unknown` for 0), limits as mins2time_str.

const INFINITE = 0xffffffff;
const NO_VAL = 0xfffffffe;

/** `code:signal` of a wait status (WEXITSTATUS, or WTERMSIG when signalled). */
export function exitCodeText(status: number): string {
  if (status === NO_VAL) return '0:0';
  const signal = status & 0x7f;
  return signal !== 0 && signal !== 0x7f ? `0:${signal}` : `${(status >> 8) & 0xff}:0`;
}

/** strftime `%FT%T` in local time; `Unknown` for time 0. */
export function isoLocal(unixSeconds: number): string {
  if (unixSeconds === 0) return 'Unknown';
  const d = new Date(unixSeconds * 1000);
  const two = (n: number): string => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())}T${two(d.getHours())}:${two(d.getMinutes())}:${two(d.getSeconds())}`;
}

/** Slurm's mins2time_str: `UNLIMITED`, `Partition_Limit`, `D-HH:MM:SS` or `HH:MM:SS`. */
export function minutesText(minutes: number): string {
  if (minutes === INFINITE) return 'UNLIMITED';
  if (minutes === NO_VAL) return 'Partition_Limit';
  const secs = minutes * 60;
  const two = (n: number): string => String(n).padStart(2, '0');
  const [days, hours, mins, rest] = [Math.floor(secs / 86400), Math.floor(secs / 3600) % 24, Math.floor(secs / 60) % 60, secs % 60];
  return days > 0 ? `${days}-${two(hours)}:${two(mins)}:${two(rest)}` : `${two(hours)}:${two(mins)}:${two(rest)}`;
}

export { INFINITE, NO_VAL };
