// The partitions' own state file: what `tscontrol update PartitionName=` changed (State,
// MaxTime, Nodes), so that a restarted controller keeps it over the cluster file, as
// slurmctld keeps part_state. Written like resv_state (`.new`, fsync, `.old`, rename) before
// the change is acknowledged; the first line names the format, the last counts the records.
import { closeSync, existsSync, fsyncSync, openSync, readFileSync, renameSync, rmSync, writeSync } from 'node:fs';
import path from 'node:path';
import { TSLURM_PROTOCOL_VERSION, isSupportedProtocolVersion } from '../../core/protocol-version.js';
import type { ClusterConfig, PartitionConfig, PartitionState } from '../../config/types.js';

const PART_MAGIC = 'TSLURM_PART_STATE';

/** One partition's changed settings; what is absent keeps the cluster file's value. */
export interface StoredPartition {
  name: string;
  state?: PartitionState;
  /** Minutes, or INFINITE. */
  maxTime?: number;
  /** Node names. */
  nodes?: string[];
}

export function partStateFile(ctldDir: string): string {
  return path.join(ctldDir, 'part_state');
}

export function writePartState(file: string, partitions: readonly StoredPartition[]): void {
  const lines = [
    JSON.stringify({ magic: PART_MAGIC, version: TSLURM_PROTOCOL_VERSION }),
    ...partitions.map((part) => JSON.stringify({ part })),
    JSON.stringify({ end: partitions.length }),
  ];
  const fresh = `${file}.new`;
  const fd = openSync(fresh, 'w', 0o600);
  try {
    const bytes = Buffer.from(`${lines.join('\n')}\n`);
    for (let at = 0; at < bytes.length; ) at += writeSync(fd, bytes, at);
    fsyncSync(fd);
  } catch (error) {
    // A full disk: the current file stays as it is, and no half-written one is left.
    closeSync(fd);
    rmSync(fresh, { force: true });
    throw error;
  }
  closeSync(fd);
  if (existsSync(file)) renameSync(file, `${file}.old`);
  renameSync(fresh, file);
}

/** The saved changes: from the file, else from `.old`; problems are reported, not thrown. */
export function readPartState(file: string, onProblem: (message: string) => void): StoredPartition[] {
  for (const candidate of [file, `${file}.old`]) {
    if (!existsSync(candidate)) continue;
    try {
      return parse(readFileSync(candidate, 'utf8'));
    } catch (error) {
      onProblem(`${candidate}: ${(error as Error).message}; trying the previous state`);
    }
  }
  return [];
}

function parse(text: string): StoredPartition[] {
  const lines = text.split('\n').filter((line) => line !== '');
  const header = JSON.parse(lines[0] ?? '{}') as { magic?: string; version?: number };
  if (header.magic !== PART_MAGIC) throw new Error('not a tslurm partition state file');
  if (!isSupportedProtocolVersion(header.version ?? 0)) throw new Error(`state file version ${header.version} is not one this build reads`);
  const out: StoredPartition[] = [];
  let end: number | undefined;
  for (const line of lines.slice(1)) {
    const entry = JSON.parse(line) as { part?: StoredPartition; end?: number };
    if (entry.part && typeof entry.part.name === 'string') out.push(entry.part);
    else if (typeof entry.end === 'number') end = entry.end;
  }
  if (end !== out.length) throw new Error('the file is incomplete (cut short while being written?)');
  return out;
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
    };
  });
  return Object.freeze({ ...config, partitions });
}
