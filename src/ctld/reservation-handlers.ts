// The controller's answers to `tscontrol create|update|delete reservation` and `show
// reservation` (slurmctld's create_resv, update_resv, delete_resv). Only root may change
// reservations, as only SlurmUser and root may in Slurm. Nodes come from `Nodes=` or, for
// `NodeCnt=`, from the select plugin's select_p_resv_test over the partition's nodes that are
// usable and not held by a running job or another reservation for the window.
import { UserError } from '../core/errors.js';
import { INFINITE } from '../core/slurm-constants.js';
import { uidForName } from '../os/users.js';
import { isAdministrator } from './administrators.js';
import { NODE_STATE_BASE, NODE_STATE_DOWN, NODE_STATE_DRAIN, NODE_STATE_FUTURE, type Bitstr } from '../plugin-api/records.js';
import type { ReservationRequest, ReservationView, ResvFlag } from '../protocol/reservation.js';
import type { CtldHandlers } from './ctld-handlers.js';
import type { Controller } from './controller.js';
import type { Scheduler } from './scheduler.js';
import type { Reservation } from './reservations.js';

/** Durations beyond this count as UNLIMITED (Slurm makes such a reservation last a year). */
const YEAR = 365 * 24 * 3600;

export function reservationHandlers(ctl: Controller, scheduler: Scheduler): Pick<CtldHandlers, 'resv_list' | 'resv_create' | 'resv_update' | 'resv_delete'> {
  const resvs = ctl.reservations;
  return {
    resv_list: async (): Promise<ReservationView[]> => {
      resvs.purgeEnded(nowSec());
      return resvs.list().map((r) => resvs.view(r));
    },

    resv_create: async (body) => {
      checkAdmin(body.userId);
      const req = body.request;
      const users = checkUsers(req.users ?? []);
      const name = req.name || resvs.generatedName(users[0] ?? req.accounts?.[0] ?? 'resv');
      if (resvs.get(name)) throw UserError.fromErrno('ESLURM_RESERVATION_NAME_DUP');
      const start = req.start ?? nowSec();
      const end = endOf(start, req);
      const flags = new Set<ResvFlag>(req.flags ?? []);
      const partition = req.partition ?? (req.nodes === undefined ? defaultPartition(ctl) : null);
      if (partition !== null && ctl.table.partitionBitmap(partition) === undefined) throw UserError.fromErrno('ESLURM_INVALID_PARTITION_NAME');
      let bits: Bitstr;
      if (req.nodes !== undefined) {
        bits = namedNodes(ctl, req.nodes, flags);
        checkNodesFree(ctl, { start, end, flags, bits }, undefined);
      } else {
        bits = await pickNodes(ctl, { name, start, end, partition, flags, nodeCnt: req.nodeCnt ?? 1 });
      }
      resvs.put({ name, start, end, nodes: ctl.table.namesFromBitmap(bits), partition, users, accounts: req.accounts ?? [], flags: [...flags] });
      scheduler.kick();
      return { name };
    },

    resv_update: async (body) => {
      checkAdmin(body.userId);
      const req = body.request;
      const old = resvs.get(req.name ?? '');
      if (old === undefined) throw UserError.fromErrno('ESLURM_RESERVATION_INVALID');
      const start = req.start ?? old.start;
      const end = req.end ?? (req.duration !== undefined ? endOf(start, req) : old.end + (start - old.start));
      if (end <= start) throw UserError.fromErrno('ESLURM_INVALID_TIME_VALUE');
      const flags = new Set<ResvFlag>(old.flags);
      for (const f of req.flags ?? []) flags.add(f);
      for (const f of req.clearFlags ?? []) flags.delete(f);
      let bits = old.bits;
      if (req.nodes !== undefined) bits = namedNodes(ctl, req.nodes, flags);
      else if (req.nodeCnt !== undefined && req.nodeCnt !== old.nodes.length) {
        bits = await pickNodes(ctl, { name: old.name, start, end, partition: req.partition ?? old.partition, flags, nodeCnt: req.nodeCnt });
      }
      checkNodesFree(ctl, { start, end, flags, bits }, old.name, req.nodes === undefined && req.nodeCnt === undefined);
      const users = req.users !== undefined ? checkUsers(req.users) : old.users;
      resvs.put(
        { ...old, start, end, nodes: ctl.table.namesFromBitmap(bits), partition: req.partition ?? old.partition, users, accounts: req.accounts ?? old.accounts, flags: [...flags] },
        old.name,
      );
      scheduler.kick();
      return {};
    },

    resv_delete: async (body) => {
      checkAdmin(body.userId);
      const resv = resvs.get(body.name);
      if (resv === undefined) throw UserError.fromErrno('ESLURM_RESERVATION_INVALID');
      if (ctl.runningJobs().some((job) => job.desc.reservation === resv.name)) throw UserError.fromErrno('ESLURM_RESERVATION_BUSY');
      resvs.remove(resv.name);
      scheduler.kick();
      return {};
    },
  };
}

const nowSec = (): number => Math.floor(Date.now() / 1000);

function checkAdmin(userId: number): void {
  if (!isAdministrator(userId)) throw UserError.fromErrno('ESLURM_ACCESS_DENIED');
}

function checkUsers(users: readonly string[]): string[] {
  for (const user of users) if (uidForName(user) === undefined) throw UserError.fromErrno('ESLURM_USER_ID_MISSING');
  return [...users];
}

function endOf(start: number, req: ReservationRequest): number {
  if (req.end !== undefined) {
    if (req.end <= start) throw UserError.fromErrno('ESLURM_INVALID_TIME_VALUE');
    return req.end;
  }
  const minutes = req.duration ?? 0;
  if (minutes === INFINITE) return start + YEAR;
  if (minutes <= 0) throw UserError.fromErrno('ESLURM_INVALID_TIME_VALUE');
  return start + minutes * 60;
}

function defaultPartition(ctl: Controller): string {
  const part = ctl.options.config.partitions.find((p) => p.isDefault) ?? ctl.options.config.partitions[0];
  if (!part) throw UserError.fromErrno('ESLURM_DEFAULT_PARTITION_NOT_SET');
  return part.name;
}

// `Nodes=ALL` reserves every node (Flags ALL_NODES); a hostlist names them (SPEC_NODES).
function namedNodes(ctl: Controller, text: string, flags: Set<ResvFlag>): Bitstr {
  flags.delete('ALL_NODES');
  flags.add('SPEC_NODES');
  if (text.toUpperCase() === 'ALL') {
    flags.add('ALL_NODES');
    return ctl.table.allBitmap();
  }
  return ctl.table.bitmapFromHostlist(text);
}

interface Window {
  start: number;
  end: number;
  flags: ReadonlySet<ResvFlag>;
  bits: Bitstr;
}

// Another reservation on the same nodes for part of the window is an overlap unless this one
// may overlap (OVERLAP, MAINT); running jobs on the nodes make them busy unless the
// reservation ignores jobs (IGNORE_JOBS, MAINT). A window-only update skips the job check.
function checkNodesFree(ctl: Controller, w: Window, self: string | undefined, skipJobs = false): void {
  const mayOverlap = w.flags.has('OVERLAP') || w.flags.has('MAINT');
  if (!mayOverlap && ctl.reservations.overlapping(w.start, w.end, self).some((r) => r.bits.overlap(w.bits) > 0)) {
    throw UserError.fromErrno('ESLURM_RESERVATION_OVERLAP');
  }
  if (skipJobs || w.flags.has('IGNORE_JOBS') || w.flags.has('MAINT')) return;
  if (busyNodes(ctl, w.start, self).overlap(w.bits) > 0) throw UserError.fromErrno('ESLURM_NODES_BUSY');
}

// Nodes of running jobs that have not ended by `start` (jobs of the reservation itself aside).
function busyNodes(ctl: Controller, start: number, self: string | undefined): Bitstr {
  const busy = ctl.table.emptyBitmap();
  for (const job of ctl.runningJobs()) {
    if (job.record.node_bitmap === null || (self !== undefined && job.desc.reservation === self)) continue;
    const limit = job.record.time_limit;
    const end = limit === INFINITE ? Infinity : job.record.start_time + limit * ctl.options.minuteSeconds;
    if (end > start) busy.or(job.record.node_bitmap);
  }
  return busy;
}

interface Placement {
  name: string;
  start: number;
  end: number;
  partition: string | null;
  flags: ReadonlySet<ResvFlag>;
  nodeCnt: number;
}

// NodeCnt=: the partition's usable nodes, free for the window, handed to select_p_resv_test.
async function pickNodes(ctl: Controller, p: Placement): Promise<Bitstr> {
  const avail = p.partition === null ? ctl.table.allBitmap() : ctl.table.partitionBitmap(p.partition)!;
  for (const node of ctl.table.nodes) {
    const base = node.node_state & NODE_STATE_BASE;
    if (base === NODE_STATE_DOWN || base === NODE_STATE_FUTURE || (node.node_state & NODE_STATE_DRAIN) !== 0) avail.clear(node.index);
  }
  if (!(p.flags.has('OVERLAP') || p.flags.has('MAINT'))) {
    for (const other of ctl.reservations.overlapping(p.start, p.end, p.name)) avail.andNot(other.bits);
  }
  if (!(p.flags.has('IGNORE_JOBS') || p.flags.has('MAINT'))) avail.andNot(busyNodes(ctl, p.start, p.name));
  if (avail.setCount() < p.nodeCnt) throw UserError.fromErrno('ESLURM_NODES_BUSY');
  const desc = { name: p.name, start_time: p.start, end_time: p.end, partition: p.partition, features: null, node_list: null };
  const picked = await ctl.select.resvTest(desc, p.nodeCnt, avail);
  if (picked === null) throw UserError.fromErrno('ESLURM_NODES_BUSY');
  return picked;
}
