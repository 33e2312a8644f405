// Retention of accounting records: slurmdbd.conf's PurgeJobAfter (also taken from slurm.conf
// and the cluster YAML's accounting.purge_after, tslurm having no slurmdbd.conf). As Slurm
// reads it: a number of months, or of hours or days with that word after it (`12hours`,
// `30days`, `6months`).
import { BadValue, describe } from './schema-kit.js';

export interface PurgeAfter {
  amount: number;
  unit: 'hours' | 'days' | 'months';
}

export function purgeAfter(value: string | number): PurgeAfter {
  const match = /^\s*(\d+)\s*(hours?|days?|months?)?\s*$/i.exec(String(value));
  if (!match || Number(match[1]) < 1) {
    throw new BadValue(`expected a number of months, or of hours or days (12hours, 30days, 6months), got ${describe(value)}`);
  }
  const word = (match[2] ?? 'months').toLowerCase();
  const unit = word.startsWith('hour') ? 'hours' : word.startsWith('day') ? 'days' : 'months';
  return { amount: Number(match[1]), unit };
}

/** The time before which ended jobs are purged, counting months on the calendar. */
export function purgeCutoff(keep: PurgeAfter, now: number): number {
  if (keep.unit === 'hours') return now - keep.amount * 3600;
  if (keep.unit === 'days') return now - keep.amount * 86_400;
  const date = new Date(now * 1000);
  date.setMonth(date.getMonth() - keep.amount);
  return Math.floor(date.getTime() / 1000);
}

/** As slurm.conf writes it back. */
export function purgeAfterText(keep: PurgeAfter): string {
  return `${keep.amount}${keep.unit}`;
}
