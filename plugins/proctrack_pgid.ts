// proctrack/pgid: a step's processes are tracked by process group (Slurm's
// src/plugins/proctrack/pgid/proctrack_pgid.c). Whatever a task forks stays in its group
// unless it calls setsid/setpgid itself, which escapes this plugin as it escapes Slurm's.
//
// Slurm's container id is the step's pgid, stored by proctrack_p_add when the first task
// exists. Here proctrack_p_create must return the id before any task runs, so it returns a
// handle (≥ 2^32, never a pid) and proctrack_p_add records the pgid of each task behind it.
// Node's spawn cannot make a task join another's group, so a handle may hold several groups.
// Ids below 2^32 are plain pgids, as in Slurm (proctrack_p_find of an untracked process).
import { constants } from 'node:os';
import {
  SLURM_ERROR,
  SLURM_SUCCESS,
  SLURM_VERSION_NUMBER,
  type PluginHost,
  type ProctrackStep,
  type Rc,
} from '../src/plugin-api/index.js';

import { killUntilEmpty } from './lib/kill-wait.js';
import { isLive, procTable, readProc } from './lib/proc-table.js';

export const plugin_name = 'Process tracking via process group ID plugin';
export const plugin_type = 'proctrack/pgid';
export const plugin_version = SLURM_VERSION_NUMBER(0, 1, 0);

const { ESRCH, EINVAL, EBUSY } = constants.errno;
const HANDLE_BASE = 1n << 32n;
// Slurm's UnkillableStepTimeout default; option `unkillable_timeout` (seconds) overrides it.
const DEFAULT_UNKILLABLE_TIMEOUT = 60;

let host: PluginHost | undefined;
let unkillableTimeout = DEFAULT_UNKILLABLE_TIMEOUT;
let lastHandle = HANDLE_BASE;
const containers = new Map<bigint, Set<number>>();
let ownPgid: number | undefined;

export function init(h: PluginHost): Rc {
  host = h;
  const opt = h.options['unkillable_timeout'];
  if (opt !== undefined) {
    if (typeof opt !== 'number' || !Number.isFinite(opt) || opt < 0) {
      h.log.error(`proctrack/pgid: invalid unkillable_timeout ${JSON.stringify(opt)}, using ${DEFAULT_UNKILLABLE_TIMEOUT}`);
    } else unkillableTimeout = opt;
  }
  return SLURM_SUCCESS;
}

export function fini(): void {
  containers.clear();
}

function fail(errnum: number, message?: string): typeof SLURM_ERROR {
  if (message !== undefined) host?.log.error(message);
  host?.slurm_seterrno(errnum);
  return SLURM_ERROR;
}

async function pgidOf(pid: number): Promise<number | null> {
  if (!Number.isInteger(pid) || pid <= 0) return null;
  return (await readProc(pid))?.pgid ?? null;
}

// Slurm refuses to killpg its own process group ("would kill caller!").
async function isOwnGroup(pgid: number): Promise<boolean> {
  ownPgid ??= (await readProc('self'))?.pgid;
  return pgid <= 1 || pgid === process.pid || pgid === ownPgid;
}

// The process groups behind a container id, or null if the id names none.
function groupsOf(cont_id: bigint): number[] | null {
  if (cont_id >= HANDLE_BASE) {
    const groups = containers.get(cont_id);
    return groups ? [...groups] : null;
  }
  return cont_id > 1n ? [Number(cont_id)] : null;
}

export function proctrack_p_create(step: ProctrackStep): bigint {
  lastHandle += 1n;
  containers.set(lastHandle, new Set());
  host?.log.debug(`proctrack/pgid: container ${lastHandle} for step ${step.jobid}.${step.stepid}`);
  return lastHandle;
}

export async function proctrack_p_add(step: ProctrackStep, pid: number): Promise<Rc> {
  const groups = step.cont_id === null ? undefined : containers.get(step.cont_id);
  if (!groups) return fail(EINVAL, `proctrack/pgid: step ${step.jobid}.${step.stepid} has no container`);
  const stat = Number.isInteger(pid) && pid > 0 ? await readProc(pid) : null;
  // Not logged as an error: a task may end before the host gets here, which the host accepts.
  // A process on its way out (zombie, or dead with its group already released: the kernel
  // then reports pgrp 0 or -1) is such a task too.
  if (stat === null || stat.state === 'Z' || stat.state === 'X' || stat.pgid <= 0) {
    host?.log.debug(`proctrack/pgid: no process ${pid} to track`);
    return fail(ESRCH);
  }
  const pgid = stat.pgid;
  if (await isOwnGroup(pgid)) return fail(EINVAL, `proctrack/pgid: pid ${pid} is in the step daemon's own process group ${pgid}`);
  groups.add(pgid);
  return SLURM_SUCCESS;
}

export async function proctrack_p_signal(cont_id: bigint, signal: number): Promise<Rc> {
  const groups = groupsOf(cont_id);
  if (groups === null) return fail(ESRCH);
  for (const pgid of groups) if (await isOwnGroup(pgid)) return fail(ESRCH, 'slurm_signal_container would kill caller!');
  // Signal 0 asks whether anything is left; zombies do not count (they cannot be signalled
  // away, and they linger under a PID 1 that does not reap).
  if (signal === 0) return (await livePids(groups)).length > 0 ? SLURM_SUCCESS : fail(ESRCH);
  let rc: Rc = SLURM_SUCCESS;
  for (const pgid of groups) {
    try {
      process.kill(-pgid, signal);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'ESRCH') continue; // the group is already gone: nothing to signal
      rc = fail(errnoOf(err));
    }
  }
  return rc;
}

export function proctrack_p_destroy(cont_id: bigint): Rc {
  containers.delete(cont_id);
  return SLURM_SUCCESS;
}

export async function proctrack_p_find(pid: number): Promise<bigint | null> {
  const pgid = await pgidOf(pid);
  if (pgid === null || pgid <= 0) return null;
  for (const [handle, groups] of containers) if (groups.has(pgid)) return handle;
  return BigInt(pgid);
}

export async function proctrack_p_has_pid(cont_id: bigint, pid: number): Promise<boolean> {
  const groups = groupsOf(cont_id);
  const pgid = await pgidOf(pid);
  return groups !== null && pgid !== null && groups.includes(pgid);
}

export async function proctrack_p_wait(cont_id: bigint): Promise<Rc> {
  const groups = groupsOf(cont_id);
  if (groups === null) return fail(EINVAL);
  const result = await killUntilEmpty(() => livePids(groups), () => proctrack_p_signal(cont_id, constants.signals.SIGKILL), unkillableTimeout);
  if (result.empty) return SLURM_SUCCESS;
  return fail(EBUSY, `Unable to destroy container ${cont_id} in pgid plugin, giving up after ${result.elapsedSeconds} sec`);
}

export async function proctrack_p_get_pids(cont_id: bigint): Promise<number[] | null> {
  const groups = groupsOf(cont_id);
  if (groups === null) {
    fail(EINVAL);
    return null;
  }
  try {
    return await livePids(groups);
  } catch (err) {
    fail(errnoOf(err), `opendir(/proc): ${(err as Error).message}`);
    return null;
  }
}

function errnoOf(err: unknown): number {
  const code = (err as NodeJS.ErrnoException).code;
  return (code !== undefined && constants.errno[code as keyof typeof constants.errno]) || EINVAL;
}

// Every process in one of `groups`, zombies left out (Slurm: "Defunct, don't try to kill").
async function livePids(groups: readonly number[]): Promise<number[]> {
  if (groups.length === 0) return [];
  const table = await procTable();
  return table.filter((e) => groups.includes(e.pgid) && isLive(e)).map((e) => e.pid).sort((a, b) => a - b);
}
