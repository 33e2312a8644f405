// The reservations' own state file, as slurmctld keeps them apart from the jobs (resv_state):
// reservations change seldom, so every change rewrites the whole file the way job_state is
// written (`.new`, fsync, the current one kept as `.old`, rename) before the change is
// acknowledged. The first line names the format; the last counts the records.
import { closeSync, existsSync, fsyncSync, openSync, readFileSync, renameSync, rmSync, writeSync } from 'node:fs';
import path from 'node:path';
import { TSLURM_PROTOCOL_VERSION, isSupportedProtocolVersion } from '../../core/protocol-version.js';
import type { ReservationView } from '../../protocol/reservation.js';

const RESV_MAGIC = 'TSLURM_RESV_STATE';

/** A reservation on disk: nodes by name, so a reordered cluster file keeps them. */
export type StoredReservation = Omit<ReservationView, 'nodeList' | 'cpus'>;

export function resvStateFile(ctldDir: string): string {
  return path.join(ctldDir, 'resv_state');
}

export function writeResvState(file: string, reservations: readonly StoredReservation[]): void {
  const lines = [
    JSON.stringify({ magic: RESV_MAGIC, version: TSLURM_PROTOCOL_VERSION }),
    ...reservations.map((resv) => JSON.stringify({ resv })),
    JSON.stringify({ end: reservations.length }),
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

/** The saved reservations: from the file, else from `.old`; problems are reported, not thrown. */
export function readResvState(file: string, onProblem: (message: string) => void): StoredReservation[] {
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

function parse(text: string): StoredReservation[] {
  const lines = text.split('\n').filter((line) => line !== '');
  const header = JSON.parse(lines[0] ?? '{}') as { magic?: string; version?: number };
  if (header.magic !== RESV_MAGIC) throw new Error('not a tslurm reservation state file');
  if (!isSupportedProtocolVersion(header.version ?? 0)) throw new Error(`state file version ${header.version} is not one this build reads`);
  const out: StoredReservation[] = [];
  let end: number | undefined;
  for (const line of lines.slice(1)) {
    const entry = JSON.parse(line) as { resv?: StoredReservation; end?: number };
    if (entry.resv) out.push(entry.resv);
    else if (typeof entry.end === 'number') end = entry.end;
  }
  if (end !== out.length) throw new Error('the file is incomplete (cut short while being written?)');
  return out;
}
