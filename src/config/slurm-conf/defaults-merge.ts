// `NodeName=DEFAULT` and `PartitionName=DEFAULT` lines: each sets defaults for the records
// after it; a later DEFAULT line changes the keys it names and keeps the others (Slurm's
// s_p_hashtbl_merge of the new table over the old one).
import type { ConfRecord } from './read.js';

/** The records of one kind with the DEFAULT lines before each folded in (own keys win). */
export function withDefaults(records: readonly ConfRecord[]): ConfRecord[] {
  let defaults = new Map<string, string>();
  const out: ConfRecord[] = [];
  for (const record of records) {
    if (record.name.toUpperCase() === 'DEFAULT') {
      defaults = new Map([...defaults, ...record.keys]);
      continue;
    }
    out.push({ ...record, keys: new Map([...defaults, ...record.keys]) });
  }
  return out;
}
