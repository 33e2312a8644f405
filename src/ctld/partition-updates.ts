// `tscontrol update PartitionName=P State= MaxTime= Nodes= OverSubscribe=`: the controller's partitions change
// in place (the cluster description it runs with, and the table's partition bitmaps), after the
// change is on disk (state/part-state.ts); a restarted controller puts the saved changes back
// over the cluster file's partitions. Jobs feel it at the next pass: a DOWN or INACTIVE
// partition starts none (Reason=PartitionDown/PartitionInactive), a lower MaxTime holds longer
// jobs (PartitionTimeLimit), new Nodes are where its jobs may run, a new OverSubscribe holds for
// the jobs submitted after it (a job's sharing is fixed when it is submitted). Errors are slurmctld's.
import { isAdministrator } from './administrators.js';
import { UserError } from '../core/errors.js';
import { diskError } from '../core/disk-full.js';
import { expandHostlist } from '../core/hostlist.js';
import type { ClusterConfig } from '../config/types.js';
import type { CtldBody } from '../protocol/ctld-messages.js';
import type { NodeTable } from './node-table.js';
import { partStateFile, readPartState, withStoredPartitions, writePartState, type StoredPartition } from './state/part-state.js';

/** What of the controller a partition change reads and changes (the Controller itself). */
export interface PartitionHost {
  readonly options: { config: ClusterConfig; readonly volatileState?: boolean };
  readonly store: { readonly dir: string };
  readonly table: NodeTable;
  /** Says node information must be refreshed (the partitions' nodes changed). */
  nodesChanged(): void;
}

const changesOf = new WeakMap<PartitionHost, Map<string, StoredPartition>>();

/** Applies an update from an administrator; refused for anyone else, as slurmctld does. */
export function updatePartition(ctl: PartitionHost, body: CtldBody<'update_partition'>): void {
  if (!isAdministrator(body.userId)) throw UserError.fromErrno('ESLURM_ACCESS_DENIED');
  const current = ctl.options.config.partitions.find((p) => p.name === body.name);
  if (current === undefined) throw UserError.fromErrno('ESLURM_INVALID_PARTITION_NAME');
  const change: StoredPartition = { ...changes(ctl).get(body.name), name: body.name };
  if (body.state !== undefined) change.state = body.state;
  if (body.maxTime !== undefined) change.maxTime = body.maxTime;
  if (body.nodes !== undefined) change.nodes = knownNodes(ctl, body.nodes);
  if (body.oversubscribe !== undefined) {
    change.oversubscribe = body.oversubscribe;
    change.shareCount = body.shareCount ?? 1;
  }
  const all = new Map(changes(ctl)).set(body.name, change);
  if (!ctl.options.volatileState) {
    try {
      writePartState(partStateFile(ctl.store.dir), [...all.values()]);
    } catch (error) {
      // A full disk is the user's answer (No space left on device), not an internal error.
      throw diskError(error);
    }
  }
  changesOf.set(ctl, all);
  apply(ctl, change);
}

/** At start: the saved changes over the cluster file's partitions (unknown ones are dropped). */
export function restorePartitions(ctl: PartitionHost, onProblem: (message: string) => void): void {
  if (ctl.options.volatileState) return;
  const saved = readPartState(partStateFile(ctl.store.dir), onProblem);
  const kept = new Map<string, StoredPartition>();
  for (const change of saved) {
    if (!ctl.options.config.partitions.some((p) => p.name === change.name)) continue;
    // A node gone from the cluster file is gone from the partition too.
    const fixed = change.nodes === undefined ? change : { ...change, nodes: change.nodes.filter((n) => ctl.table.indexOf(n) !== undefined) };
    kept.set(change.name, fixed);
    apply(ctl, fixed);
  }
  changesOf.set(ctl, kept);
}

/**
 * `tscontrol reconfigure`: the cluster file's partitions replace every update, as slurmctld
 * 22.05 rebuilds them from slurm.conf (observed: an updated MaxTime is the file's again); the
 * saved updates are dropped first, so a restart after it gives the same partitions.
 */
export function forgetPartitionUpdates(ctl: PartitionHost): void {
  if (changes(ctl).size === 0) return;
  if (!ctl.options.volatileState) {
    try {
      writePartState(partStateFile(ctl.store.dir), []);
    } catch (error) {
      throw diskError(error);
    }
  }
  changesOf.set(ctl, new Map());
}

function changes(ctl: PartitionHost): Map<string, StoredPartition> {
  return changesOf.get(ctl) ?? new Map();
}

// The names of a Nodes= value, each known, in node-table order (Slurm's partition bitmap order).
function knownNodes(ctl: PartitionHost, hostlist: string): string[] {
  if (hostlist === '') return [];
  let names: string[];
  try {
    names = hostlist.toUpperCase() === 'ALL' ? ctl.table.nodes.map((n) => n.name) : expandHostlist(hostlist);
  } catch {
    throw UserError.fromErrno('ESLURM_INVALID_NODE_NAME');
  }
  const indices = names.map((name) => ctl.table.indexOf(name));
  if (indices.some((i) => i === undefined)) throw UserError.fromErrno('ESLURM_INVALID_NODE_NAME');
  return [...new Set(indices as number[])].sort((a, b) => a - b).map((i) => ctl.table.nodes[i]!.name);
}

function apply(ctl: PartitionHost, change: StoredPartition): void {
  ctl.options.config = withStoredPartitions(ctl.options.config, [change]);
  if (change.nodes !== undefined) ctl.table.setPartitionNodes(change.name, change.nodes);
  ctl.nodesChanged();
}
