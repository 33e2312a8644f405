// A damaged state file, found on recovery: how many jobs it cost, and the file kept aside
// for inspection. Every job id the controller took is below the id counter's controller
// mark (id-counters.ts), and each one taken since the snapshot was written is in the
// journal (a submission, or a `next_job_id` record for an id used up without a job); an id
// in neither was a job acknowledged and then lost with the damaged part.
import { copyFileSync, renameSync } from 'node:fs';
import type { SequencedRecord } from './journal.js';

export interface LossCount {
  /** Jobs that could not be recovered. */
  count: number;
  /** Their ids, as ranges (`219-399`). */
  ids: string;
}

/**
 * The ids in [`from`, `controllerNext`) that no snapshot job and no journal record accounts
 * for; `snapshotIds` are the recovered snapshot's jobs.
 */
export function countLost(from: number, controllerNext: number, snapshotIds: Iterable<number>, records: readonly SequencedRecord[]): LossCount {
  const seen = new Set(snapshotIds);
  let accountedBelow = from;
  for (const record of records) {
    if (record.t === 'submit') seen.add(record.job.id);
    else if (record.t === 'purge') seen.add(record.id);
    else if (record.t === 'next_job_id') accountedBelow = Math.max(accountedBelow, record.next);
  }
  const lost: number[] = [];
  for (let id = accountedBelow; id < controllerNext; id++) if (!seen.has(id)) lost.push(id);
  return { count: lost.length, ids: ranges(lost) };
}

/**
 * Keeps a damaged file for inspection as `<file>.damaged-<UTC time>`: a snapshot is moved
 * (a new one replaces it), a journal copied (the next start still replays what it holds).
 */
export function keepAside(file: string, move: boolean, now = new Date()): string {
  const stamp = now.toISOString().replace(/[-:]/g, '').replace(/\..*$/, '');
  const kept = `${file}.damaged-${stamp}`;
  if (move) renameSync(file, kept);
  else copyFileSync(file, kept);
  return kept;
}

function ranges(ids: readonly number[]): string {
  const out: string[] = [];
  for (let i = 0; i < ids.length; ) {
    let j = i;
    while (j + 1 < ids.length && ids[j + 1] === ids[j]! + 1) j++;
    out.push(i === j ? String(ids[i]) : `${ids[i]}-${ids[j]}`);
    i = j + 1;
  }
  return out.length > 10 ? `${out.slice(0, 10).join(',')},...` : out.join(',');
}
