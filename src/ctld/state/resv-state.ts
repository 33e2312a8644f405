// The reservations' own state file, as slurmctld keeps them apart from the jobs (resv_state):
// reservations change seldom, so every change rewrites the whole file the way job_state is
// written (record-file.ts) before the change is acknowledged.
import path from 'node:path';
import { readRecordFile, writeRecordFile, type RecordFileFormat } from './record-file.js';
import type { ReservationView } from '../../protocol/reservation.js';

const RESV_MAGIC = 'TSLURM_RESV_STATE';

/** A reservation on disk: nodes by name, so a reordered cluster file keeps them. */
export type StoredReservation = Omit<ReservationView, 'nodeList' | 'cpus'>;

export function resvStateFile(ctldDir: string): string {
  return path.join(ctldDir, 'resv_state');
}

const FORMAT: RecordFileFormat<StoredReservation> = { magic: RESV_MAGIC, key: 'resv', what: 'reservation state' };

export function writeResvState(file: string, reservations: readonly StoredReservation[]): void {
  writeRecordFile(file, FORMAT, reservations);
}

/** The saved reservations: from the file, else from `.old`; problems are reported, not thrown. */
export function readResvState(file: string, onProblem: (message: string) => void): StoredReservation[] {
  return readRecordFile(file, FORMAT, onProblem);
}
