// The controller's state snapshot, written the way slurmctld writes job_state: to `.new`,
// fsynced, the current file kept as `.old`, then `.new` renamed into place. The first line
// names the format (magic and version) so a foreign or newer file is refused, and the last
// line counts the records so a file cut short is noticed rather than half-loaded.
import { closeSync, fsyncSync, openSync, readFileSync, renameSync, writeSync, existsSync } from 'node:fs';
import path from 'node:path';
import { TSLURM_PROTOCOL_VERSION, isSupportedProtocolVersion } from '../../core/protocol-version.js';
import type { StoredJob } from './stored-job.js';

export const STATE_MAGIC = 'TSLURM_CTLD_STATE';

export interface NodeStateRecord {
  name: string;
  state: number;
  reason: string | null;
  /** When the reason was set, and by whom (absent in files of older builds). */
  time?: number;
  uid?: number;
}

export interface Snapshot {
  /** Every journal record up to this sequence number is contained in the snapshot. */
  seq: number;
  nextJobId: number;
  savedAt: number;
  jobs: StoredJob[];
  nodes: NodeStateRecord[];
}

interface Header {
  magic: string;
  version: number;
  seq: number;
  next_job_id: number;
  saved_at: number;
}

export function writeSnapshot(file: string, snapshot: Snapshot): void {
  const header: Header = {
    magic: STATE_MAGIC,
    version: TSLURM_PROTOCOL_VERSION,
    seq: snapshot.seq,
    next_job_id: snapshot.nextJobId,
    saved_at: snapshot.savedAt,
  };
  const lines = [
    JSON.stringify(header),
    ...snapshot.jobs.map((job) => JSON.stringify({ job })),
    ...snapshot.nodes.map((node) => JSON.stringify({ node })),
    JSON.stringify({ end: snapshot.jobs.length + snapshot.nodes.length }),
  ];
  const fresh = `${file}.new`;
  const fd = openSync(fresh, 'w', 0o600);
  try {
    writeSync(fd, `${lines.join('\n')}\n`);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  if (existsSync(file)) renameSync(file, `${file}.old`);
  renameSync(fresh, file);
  syncDir(path.dirname(file));
}

/** Reads a snapshot; throws an Error saying what is wrong with the file. */
export function readSnapshot(file: string): Snapshot {
  const text = readFileSync(file, 'utf8');
  const lines = text.split('\n').filter((line) => line !== '');
  let header: Header;
  try {
    header = JSON.parse(lines[0] ?? '') as Header;
  } catch {
    throw new Error('not a tslurm controller state file');
  }
  if (header.magic !== STATE_MAGIC) throw new Error('not a tslurm controller state file');
  if (!isSupportedProtocolVersion(header.version)) {
    throw new Error(`state file version ${header.version >> 8}.${header.version & 0xff} is not one this build reads`);
  }
  const jobs: StoredJob[] = [];
  const nodes: NodeStateRecord[] = [];
  let end: number | undefined;
  for (const [i, line] of lines.slice(1).entries()) {
    let entry: { job?: StoredJob; node?: NodeStateRecord; end?: number };
    try {
      entry = JSON.parse(line) as typeof entry;
    } catch {
      throw new Error(`damaged record on line ${i + 2}`);
    }
    if (entry.job) jobs.push(entry.job);
    else if (entry.node) nodes.push(entry.node);
    else if (typeof entry.end === 'number') end = entry.end;
  }
  if (end !== jobs.length + nodes.length) throw new Error('the file is incomplete (cut short while being written?)');
  return { seq: header.seq, nextJobId: header.next_job_id, savedAt: header.saved_at, jobs, nodes };
}

function syncDir(dir: string): void {
  try {
    const fd = openSync(dir, 'r');
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  } catch {
    // Some file systems cannot fsync a directory; the renames are still ordered.
  }
}
