// The controller's advance reservations (slurmctld's reservation.c, the parts tslurm keeps):
// the table, kept in its own state file (state/resv-state.ts) and rewritten before each change
// is acknowledged, and the questions the scheduler asks of it — which reservations hold which
// nodes at a time, who may use one. A reservation is ACTIVE from StartTime until EndTime and
// is purged at its end, as Slurm removes it.
import { UserError } from '../core/errors.js';
import type { Bitstr } from '../plugin-api/records.js';
import type { ReservationView, ResvFlag } from '../protocol/reservation.js';
import { RESV_FLAGS } from '../protocol/reservation.js';
import type { NodeTable } from './node-table.js';
import { readResvState, resvStateFile, writeResvState, type StoredReservation } from './state/resv-state.js';
import { diskError } from '../core/disk-full.js';

/** A reservation with its nodes as a bitmap of the node table. */
export interface Reservation extends StoredReservation {
  bits: Bitstr;
}

export class Reservations {
  private readonly byName = new Map<string, Reservation>();
  private readonly file: string;
  /** Slurm's resv_id: names made up for unnamed reservations end in it (`root_5`). */
  private lastId = 0;

  constructor(
    ctldDir: string,
    private readonly table: NodeTable,
  ) {
    this.file = resvStateFile(ctldDir);
  }

  /** Reads the saved reservations; nodes no longer in the cluster file are dropped from them. */
  load(onProblem: (message: string) => void): void {
    for (const stored of readResvState(this.file, onProblem)) {
      const known = stored.nodes.filter((name) => this.table.indexOf(name) !== undefined);
      this.byName.set(stored.name, { ...stored, nodes: known, bits: this.table.bitmapFromNames(known) });
      this.lastId = Math.max(this.lastId, idOf(stored.name));
    }
  }

  /** Every reservation, in the order they were created. */
  /** How many reservations there are. */
  get count(): number {
    return this.byName.size;
  }

  list(): Reservation[] {
    return [...this.byName.values()];
  }

  get(name: string): Reservation | undefined {
    return this.byName.get(name);
  }

  /** The next made-up name: the first user's (or account's) name and the next id. */
  generatedName(owner: string): string {
    let id = this.lastId + 1;
    while (this.byName.has(`${owner}_${id}`)) id++;
    return `${owner}_${id}`;
  }

  /** Reservations whose window meets [start, end). */
  overlapping(start: number, end: number, except?: string): Reservation[] {
    return this.list().filter((r) => r.name !== except && r.start < end && start < r.end);
  }

  /** Adds or replaces a reservation and saves the table; resolves once it is on disk. */
  put(resv: Omit<Reservation, 'bits'>, previousName?: string): Reservation {
    const entry: Reservation = { ...resv, flags: sortFlags(resv.flags), bits: this.table.bitmapFromNames(resv.nodes) };
    if (previousName !== undefined && previousName !== resv.name) this.byName.delete(previousName);
    this.byName.set(entry.name, entry);
    this.lastId = Math.max(this.lastId + (previousName === undefined ? 1 : 0), idOf(entry.name));
    this.save();
    return entry;
  }

  remove(name: string): void {
    this.byName.delete(name);
    this.save();
  }

  /** Removes the reservations that have ended; true if any was. */
  purgeEnded(now: number): boolean {
    const ended = this.list().filter((r) => r.end <= now);
    for (const r of ended) this.byName.delete(r.name);
    if (ended.length > 0) this.save();
    return ended.length > 0;
  }

  /** The view the commands get. */
  view(r: Reservation): ReservationView {
    const { bits: _bits, ...stored } = r;
    const cpus = r.nodes.reduce((sum, name) => sum + this.table.nodes[this.table.indexOf(name)!]!.cpus, 0);
    return { ...stored, nodeList: this.table.hostlistFromBitmap(r.bits), cpus };
  }

  private save(): void {
    try {
      writeResvState(
        this.file,
        this.list().map(({ bits: _bits, ...stored }) => stored),
      );
    } catch (error) {
      // A full disk is the user's answer (No space left on device), not an internal error.
      throw diskError(error);
    }
  }
}

/** Whether `r`'s window contains `t`. */
export function isActive(r: StoredReservation, t: number): boolean {
  return r.start <= t && t < r.end;
}

/** Whether a user may run jobs in `r` (jobs carry no account in tslurm: Users= decides). */
export function userMayUse(r: StoredReservation, userName: string, userId: number): boolean {
  return r.users.some((u) => u === userName || u === String(userId));
}

/** Slurm refuses a job in an unknown reservation, or in one the user is not named in. */
export function checkReservationAccess(resv: Reservation | undefined, userName: string, userId: number): Reservation {
  if (resv === undefined) throw UserError.fromErrno('ESLURM_RESERVATION_INVALID');
  if (!userMayUse(resv, userName, userId)) throw UserError.fromErrno('ESLURM_RESERVATION_ACCESS');
  return resv;
}

function sortFlags(flags: readonly ResvFlag[]): ResvFlag[] {
  return RESV_FLAGS.filter((f) => flags.includes(f));
}

function idOf(name: string): number {
  const match = /_(\d+)$/.exec(name);
  return match ? Number(match[1]) : 0;
}
