// Slurm's duration strings, as `-t/--time`, `--time-min` and slurm.conf take them
// (src/common/parse_time.c: time_str2secs, time_str2mins), and the three ways Slurm
// prints durations and dates back (squeue's _print_secs, secs2time_str/mins2time_str,
// slurm_make_time_str).
import { UserError } from './errors.js';
import { INFINITE, NO_VAL } from './slurm-constants.js';

const SECONDS_PER_DAY = 86_400;
// Slurm computes in a C int, so longer durations wrap into garbage there
// (observed on 22.05: -t 24856-0 became TimeLimit=2981813-22:48:00). We refuse them.
const MAX_SECONDS = 0x7fff_ffff;

// Exactly the shapes _is_valid_timespec() lets through to sscanf, except "-D" (a negative
// day count, which Slurm accepts and wraps to a huge limit; -t -5 gave 2982611-04:17:00).
const WITH_DAYS = /^(\d+)-(?:(\d+)(?::(\d+)(?::(\d+))?)?)?$/; // D-  D-H  D-H:M  D-H:M:S
const WITHOUT_DAYS = /^(\d+)(?::(\d+)(?::(\d+))?)?$/; // M  M:S  H:M:S

/**
 * A duration in seconds, or INFINITE for "-1", "INFINITE" or "UNLIMITED" (any case).
 * `option` names the flag in the error, which is srun's: "Invalid --time specification".
 */
export function parseTimeToSeconds(text: string, option = '--time'): number {
  const lower = text.toLowerCase();
  if (lower === '-1' || lower === 'infinite' || lower === 'unlimited') return INFINITE;
  const seconds = durationSeconds(text);
  if (seconds === undefined || seconds > MAX_SECONDS) {
    // srun and sbatch exit(-1) here, so the shell sees 255 (observed on Slurm 22.05).
    throw new UserError(`Invalid ${option} specification`, {
      code: 'ESLURM_INVALID_TIME_VALUE',
      exitCode: 255,
    });
  }
  return seconds;
}

/** A duration in whole minutes, seconds rounded up as time_str2mins does ("0:90" → 2). */
export function parseTimeToMinutes(text: string, option = '--time'): number {
  const seconds = parseTimeToSeconds(text, option);
  return seconds === INFINITE ? INFINITE : Math.ceil(seconds / 60);
}

/** srun/sbatch `--time`: minutes, where a limit of zero means no limit (slurm_opt.c). */
export function parseTimeLimitOption(text: string, option = '--time'): number {
  const minutes = parseTimeToMinutes(text, option);
  return minutes === 0 ? INFINITE : minutes;
}

function durationSeconds(text: string): number | undefined {
  const days = WITH_DAYS.exec(text);
  if (days) {
    const [d, h, m, s] = days.slice(1).map(toInt);
    return d! * SECONDS_PER_DAY + h! * 3600 + m! * 60 + s!;
  }
  const plain = WITHOUT_DAYS.exec(text);
  if (!plain) return undefined;
  const [a, b, c] = plain.slice(1).map(toInt);
  // Two fields are minutes:seconds and only three are hours:minutes:seconds.
  return plain[3] === undefined ? a! * 60 + b! : a! * 3600 + b! * 60 + c!;
}

function toInt(field: string | undefined): number {
  return field === undefined ? 0 : Number.parseInt(field, 10);
}

const pad2 = (n: number): string => String(n).padStart(2, '0');

function splitSeconds(total: number): [days: number, hours: number, minutes: number, seconds: number] {
  const t = Math.trunc(total);
  return [Math.trunc(t / SECONDS_PER_DAY), Math.trunc(t / 3600) % 24, Math.trunc(t / 60) % 60, t % 60];
}

/**
 * squeue's TIME, TIME_LIMIT and TIME_LEFT form: `0:00`, `1:05`, `1:00:00`, `1-00:00:00`.
 * Hours appear only when non-zero, days likewise; negative or over 365 days is `INVALID`.
 */
export function formatSlurmTime(seconds: number): string {
  if (seconds === INFINITE) return 'UNLIMITED';
  if (!Number.isFinite(seconds) || seconds < 0 || seconds > 365 * SECONDS_PER_DAY) return 'INVALID';
  const [d, h, m, s] = splitSeconds(seconds);
  if (d) return `${d}-${pad2(h)}:${pad2(m)}:${pad2(s)}`;
  if (h) return `${h}:${pad2(m)}:${pad2(s)}`;
  return `${m}:${pad2(s)}`;
}

/** secs2time_str(), scontrol's RunTime= form: always `HH:MM:SS`, `D-HH:MM:SS` past a day. */
export function secsToTimeStr(seconds: number): string {
  if (seconds === INFINITE) return 'UNLIMITED';
  if (!Number.isFinite(seconds) || seconds < 0) return 'INVALID';
  const [d, h, m, s] = splitSeconds(seconds);
  const clock = `${pad2(h)}:${pad2(m)}:${pad2(s)}`;
  return d ? `${d}-${clock}` : clock;
}

/** mins2time_str(), scontrol's TimeLimit= form: `00:01:00`, `1-00:00:00`, `UNLIMITED`. */
export function minsToTimeStr(minutes: number): string {
  return minutes === INFINITE ? 'UNLIMITED' : secsToTimeStr(minutes * 60);
}

/**
 * slurm_make_time_str() with the default SLURM_TIME_FORMAT: local `YYYY-MM-DDTHH:MM:SS`;
 * 0 and INFINITE print `Unknown`, NO_VAL prints `None` (scontrol's StartTime=Unknown).
 */
export function formatSlurmDate(epochSeconds: number): string {
  if (epochSeconds === 0 || epochSeconds === INFINITE) return 'Unknown';
  if (epochSeconds === NO_VAL) return 'None';
  const t = new Date(epochSeconds * 1000);
  const date = `${t.getFullYear()}-${pad2(t.getMonth() + 1)}-${pad2(t.getDate())}`;
  return `${date}T${pad2(t.getHours())}:${pad2(t.getMinutes())}:${pad2(t.getSeconds())}`;
}
