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
  writeFileAtomic(file, [...snapshotPieces(takeSnapshot(snapshot))].join(''), { keepOld: true, syncDir: true });
}

/**
 * A snapshot taken: what changes as jobs move on is in JSON already; each job's submission,
 * which the controller replaces when it changes and never changes in place, is put in as the
 * file is written (snapshotPieces), so that the controller's loop can go on meanwhile.
 */
export interface TakenSnapshot {
  head: string;
  jobs: Array<{ desc: StoredJob['desc']; rest: string }>;
  tail: string;
}

export function takeSnapshot(snapshot: Snapshot): TakenSnapshot {
  const header: Header = {
    magic: STATE_MAGIC,
    version: TSLURM_PROTOCOL_VERSION,
    seq: snapshot.seq,
    next_job_id: snapshot.nextJobId,
    saved_at: snapshot.savedAt,
    jobs: snapshot.jobs.length,
  };
  const nodes = snapshot.nodes.map((node) => `${JSON.stringify({ node })}\n`).join('');
  return {
    head: `${JSON.stringify(header)}\n`,
    jobs: snapshot.jobs.map((job) => ({ desc: job.desc, rest: JSON.stringify({ ...job, desc: undefined }) })),
    tail: `${nodes}${JSON.stringify({ end: snapshot.jobs.length + snapshot.nodes.length })}\n`,
  };
}

// A job's submission (its environment: kilobytes) is most of its line, and the same from one
// snapshot to the next, and for all the tasks of an array: its JSON is kept by object.
const descJson = new WeakMap<object, string>();

/**
 * The file's text in pieces of about `size` characters: a job per line, which reads back as
 * JSON.stringify({ job }) would (the submission first).
 */
export function* snapshotPieces(taken: TakenSnapshot, size = 1 << 20): Generator<string> {
  let piece = taken.head;
  for (const { desc, rest } of taken.jobs) {
    let json = descJson.get(desc);
    if (json === undefined) {
      json = JSON.stringify(desc);
      descJson.set(desc, json);
    }
    piece += `{"job":{"desc":${json},${rest.slice(1)}}\n`;
    if (piece.length >= size) {
      yield piece;
      piece = '';
    }
  }
  yield piece + taken.tail;
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
