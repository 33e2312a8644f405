// The controller's state snapshot, written the way slurmctld writes job_state: to `.new`,
// fsynced, the current file kept as `.old`, then `.new` renamed into place. The first line
// names the format (magic and version) so a foreign or newer file is refused, and the last
// line counts the records so a file cut short is noticed rather than half-loaded.
import { readFileSync } from 'node:fs';
import { writeFileAtomic } from '../../os/atomic-write.js';
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
  /** Every job id below this one was taken when the snapshot was written (0: not known, older files). */
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
  /** How many jobs follow (absent in files of older builds). */
  jobs?: number;
}

export function writeSnapshot(file: string, snapshot: Snapshot): void {
  const header: Header = {
    magic: STATE_MAGIC,
    version: TSLURM_PROTOCOL_VERSION,
    seq: snapshot.seq,
    next_job_id: snapshot.nextJobId,
    saved_at: snapshot.savedAt,
    jobs: snapshot.jobs.length,
  };
  const lines = [
    JSON.stringify(header),
    ...snapshot.jobs.map((job) => JSON.stringify({ job })),
    ...snapshot.nodes.map((node) => JSON.stringify({ node })),
    JSON.stringify({ end: snapshot.jobs.length + snapshot.nodes.length }),
  ];
  writeFileAtomic(file, `${lines.join('\n')}\n`, { keepOld: true, syncDir: true });
}

/** Reads a snapshot; throws an Error saying what is wrong with the file. */
export function readSnapshot(file: string): Snapshot {
  const { snapshot, damage } = parseSnapshot(readFileSync(file, 'utf8'));
  if (damage !== undefined) throw new Error(damage);
  return snapshot;
}

/** What a damaged snapshot still holds, and how many of the jobs its header counts are not there (when it says). */
export interface Salvage {
  snapshot: Snapshot;
  missingJobs: number | undefined;
}

/** The readable part of a damaged snapshot; undefined when not even its header can be read. */
export function salvageSnapshot(file: string): Salvage | undefined {
  try {
    const { snapshot, expectedJobs } = parseSnapshot(readFileSync(file, 'utf8'));
    return { snapshot, missingJobs: expectedJobs === undefined ? undefined : Math.max(0, expectedJobs - snapshot.jobs.length) };
  } catch {
    return undefined;
  }
}

// Throws when the header is not a readable one; reads on past a damaged record, saying so.
function parseSnapshot(text: string): { snapshot: Snapshot; damage?: string; expectedJobs?: number } {
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
  let damage: string | undefined;
  for (const [i, line] of lines.slice(1).entries()) {
    let entry: { job?: StoredJob; node?: NodeStateRecord; end?: number };
    try {
      entry = JSON.parse(line) as typeof entry;
    } catch {
      damage ??= `damaged record on line ${i + 2}`;
      continue;
    }
    if (entry.job) jobs.push(entry.job);
    else if (entry.node) nodes.push(entry.node);
    else if (typeof entry.end === 'number') end = entry.end;
  }
  if (damage === undefined && end !== jobs.length + nodes.length) damage = 'the file is incomplete (cut short while being written?)';
  const snapshot = { seq: header.seq, nextJobId: header.next_job_id, savedAt: header.saved_at, jobs, nodes };
  return { snapshot, damage, expectedJobs: header.jobs };
}
