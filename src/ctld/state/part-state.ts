// The partitions' own state file: what `tscontrol update PartitionName=` changed (State,
// MaxTime, Nodes, OverSubscribe), so that a restarted controller keeps it over the cluster file, as
// slurmctld keeps part_state. Written whole (record-file.ts) before
// the change is acknowledged.
import path from 'node:path';
import { readRecordFile, writeRecordFile, type RecordFileFormat } from './record-file.js';
import type { ClusterConfig, OverSubscribe, PartitionConfig, PartitionState } from '../../config/types.js';

const PART_MAGIC = 'TSLURM_PART_STATE';

/** One partition's changed settings; what is absent keeps the cluster file's value. */
export interface StoredPartition {
  name: string;
  state?: PartitionState;
  /** Minutes, or INFINITE. */
  maxTime?: number;
  /** Node names. */
  nodes?: string[];
  oversubscribe?: OverSubscribe;
  /** Jobs per core under YES or FORCE; stored with `oversubscribe`. */
  shareCount?: number;
}

export function partStateFile(ctldDir: string): string {
  return path.join(ctldDir, 'part_state');
}

const FORMAT: RecordFileFormat<StoredPartition> = {
  magic: PART_MAGIC,
  key: 'part',
  what: 'partition state',
  accept: (part) => typeof part.name === 'string',
};

export function writePartState(file: string, partitions: readonly StoredPartition[]): void {
  writeRecordFile(file, FORMAT, partitions);
}

/** The saved changes: from the file, else from `.old`; problems are reported, not thrown. */
export function readPartState(file: string, onProblem: (message: string) => void): StoredPartition[] {
  return readRecordFile(file, FORMAT, onProblem);
}

/** The cluster with the saved changes over its partitions (unknown partitions and nodes left out). */
export function withStoredPartitions(config: ClusterConfig, changes: readonly StoredPartition[]): ClusterConfig {
  if (changes.length === 0) return config;
  const known = new Set(config.nodes.map((n) => n.name));
  const byName = new Map(changes.map((c) => [c.name, c]));
  const partitions = config.partitions.map((p): PartitionConfig => {
    const change = byName.get(p.name);
    if (change === undefined) return p;
    return {
      ...p,
      ...(change.state !== undefined && { state: change.state }),
      ...(change.maxTime !== undefined && { maxTime: change.maxTime }),
      ...(change.nodes !== undefined && { nodes: change.nodes.filter((n) => known.has(n)) }),
      ...(change.oversubscribe !== undefined && { oversubscribe: change.oversubscribe, shareCount: change.shareCount ?? 1 }),
    };
  });
  return Object.freeze({ ...config, partitions });
}
