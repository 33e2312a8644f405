// PartitionName lines → partition entries of the cluster description. Values keep Slurm's
// forms (the schema reads YES/NO, UNLIMITED, times in minutes or [d-]h:m:s); only what the
// description spells differently is translated: `Priority` sets PriorityTier (Slurm's older
// key), `Shared` is OverSubscribe's older name, PreemptMode's `GANG` is dropped (tslurm has no gang scheduling), and blanks in Nodes are
// commas, as Slurm reads them.
import type { Where } from './lines.js';
import { num } from './numbers.js';
import type { ConfRecord } from './read.js';

export interface PartitionLine {
  entry: Record<string, unknown>;
  at: Where;
}

export const PARTITION_FIELD_KEYS: Record<string, string> = {
  name: 'PartitionName',
  nodes: 'Nodes',
  default: 'Default',
  max_time: 'MaxTime',
  default_time: 'DefaultTime',
  max_nodes: 'MaxNodes',
  min_nodes: 'MinNodes',
  state: 'State',
  oversubscribe: 'OverSubscribe',
  priority_tier: 'PriorityTier',
  preempt_mode: 'PreemptMode',
};

export function partitionLine(record: ConfRecord): PartitionLine {
  const k = record.keys;
  const entry: Record<string, unknown> = { name: record.name };
  const set = (field: string, value: unknown) => {
    if (value !== undefined) entry[field] = value;
  };
  const nodes = k.get('Nodes')?.trim().replace(/\s+/g, ',');
  set('nodes', nodes === undefined ? undefined : /^ALL$/i.test(nodes) ? 'ALL' : nodes);
  set('default', k.get('Default'));
  set('max_time', k.get('MaxTime'));
  set('default_time', k.get('DefaultTime'));
  set('max_nodes', k.get('MaxNodes'));
  set('min_nodes', num(k.get('MinNodes')));
  set('state', k.get('State'));
  set('oversubscribe', k.get('OverSubscribe') ?? k.get('Shared'));
  set('priority_tier', num(k.get('Priority') ?? k.get('PriorityTier')));
  set('preempt_mode', withoutGang(k.get('PreemptMode')));
  return { entry, at: record.at };
}

/** `SUSPEND,GANG` → `SUSPEND`; `GANG` alone → `OFF`. */
export function withoutGang(mode: string | undefined): string | undefined {
  if (mode === undefined) return undefined;
  const parts = mode.split(',').filter((p) => p.trim().toUpperCase() !== 'GANG');
  return parts.length === 0 ? 'OFF' : parts.join(',');
}
