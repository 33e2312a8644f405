// What reservations mean for one pending job in a scheduling pass (slurmctld's job_test_resv):
// a job in a reservation may use only its nodes, and only while it is active; any other job
// may not use nodes reserved for any part of its own run (now until now + its time limit).
import { INFINITE } from '../core/slurm-constants.js';
import type { Bitstr } from '../plugin-api/records.js';
import type { Controller } from './controller.js';
import type { CtldJob } from './job.js';
import { isActive } from './reservations.js';

export interface ReservationLimits {
  /** Why the job must wait whatever the nodes (`Reservation`, `ReservationDeleted`). */
  wait?: string;
  /** The only nodes the job may use (its reservation's), or null for no such limit. */
  only: Bitstr | null;
  /** Nodes other reservations hold during the job's run; null for none. */
  blocked: Bitstr | null;
  /** Those of `blocked` that MAINT reservations hold; null for none. */
  maint: Bitstr | null;
}

// Most jobs of most passes meet no reservation at all: one shared answer, no bitmap built
// (100,000 pending jobs a pass made two empty bitmaps each otherwise).
const NO_LIMITS: ReservationLimits = Object.freeze({ only: null, blocked: null, maint: null });

export function reservationLimits(ctl: Controller, job: CtldJob, now: number): ReservationLimits {
  const name = job.desc.reservation;
  if (name !== undefined) {
    const resv = ctl.reservations.get(name);
    if (resv === undefined) return { wait: 'ReservationDeleted', only: ctl.table.emptyBitmap(), blocked: null, maint: null };
    if (!isActive(resv, now)) return { wait: 'Reservation', only: resv.bits.copy(), blocked: null, maint: null };
    return { only: resv.bits.copy(), blocked: null, maint: null };
  }
  if (ctl.reservations.count === 0) return NO_LIMITS;
  const limit = job.record.time_limit;
  const end = limit === INFINITE ? Infinity : now + limit * ctl.options.minuteSeconds;
  let blocked: Bitstr | null = null;
  let maint: Bitstr | null = null;
  for (const resv of ctl.reservations.list()) {
    if (!(resv.start < end && now < resv.end)) continue;
    (blocked ??= ctl.table.emptyBitmap()).or(resv.bits);
    if (resv.flags.includes('MAINT')) (maint ??= ctl.table.emptyBitmap()).or(resv.bits);
  }
  return blocked === null ? NO_LIMITS : { only: null, blocked, maint };
}

/** Narrows `candidates` (in place) to what the reservations leave the job. */
export function applyReservationLimits(candidates: Bitstr, limits: ReservationLimits): Bitstr {
  if (limits.only) candidates.and(limits.only);
  if (limits.blocked) candidates.andNot(limits.blocked);
  return candidates;
}
