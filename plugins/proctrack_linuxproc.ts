// proctrack/linuxproc: a step's processes are the descendants of its tasks, found by walking
// /proc by parent pid (Slurm's src/plugins/proctrack/linuxproc/, kill_proc_tree.c). Unlike
// pgid it follows children that setsid() into a session of their own.
//
// Slurm's container id is the first task's pid. Here proctrack_p_create must return the id
// before any task runs, so it returns a handle (≥ 2^32, never a pid); once a task is added, its
// pid names the same container too, as in Slurm. Ids below 2^32 that name no container are a
// plain process tree (proctrack_p_find of an untracked process).
//
// tslurm goes one step further than Slurm: a daemon whose parent has exited is re-parented to
// PID 1 and leaves the /proc tree (real Slurm 22.05 with linuxproc leaves it running; observed),
// so proctrack_p_create puts a random mark, TSLURM_PROCTRACK_MARK, in the step's environment
// (when the host gives it), and a process whose environment carries the mark is in the step:
// whatever a task starts inherits it unless it clears its environment.
import { randomUUID } from 'node:crypto';
import { constants } from 'node:os';
import {
  SLURM_ERROR,
  SLURM_SUCCESS,
  SLURM_VERSION_NUMBER,
  type PluginHost,
  type ProctrackStep,
  type Rc,
} from '../src/plugin-api/index.js';
import { environOf, isLive, procTable, readProc, type ProcEntry } from './lib/proc-table.js';

import { killUntilEmpty } from './lib/kill-wait.js';

export const plugin_name = 'Process tracking via linux /proc';
export const plugin_type = 'proctrack/linuxproc';
export const plugin_version = SLURM_VERSION_NUMBER(0, 1, 0);

const { ESRCH, EINVAL, EBUSY } = constants.errno;
const HANDLE_BASE = 1n << 32n;
const MARK_VAR = 'TSLURM_PROCTRACK_MARK';
// Slurm's UnkillableStepTimeout default; option `unkillable_timeout` (seconds) overrides it.
const DEFAULT_UNKILLABLE_TIMEOUT = 60;

interface Container {
  roots: Set<number>;
  /** `TSLURM_PROCTRACK_MARK=<random>`: a process whose environment has it is in the step. */
  mark: string | null;
}

let host: PluginHost | undefined;
let unkillableTimeout = DEFAULT_UNKILLABLE_TIMEOUT;
let lastHandle = HANDLE_BASE;
const containers = new Map<bigint, Container>();

export function init(h: PluginHost): Rc {
  host = h;
  const opt = h.options['unkillable_timeout'];
  if (opt !== undefined) {
    if (typeof opt !== 'number' || !Number.isFinite(opt) || opt < 0) {
      h.log.error(`invalid unkillable_timeout ${JSON.stringify(opt)}, using ${DEFAULT_UNKILLABLE_TIMEOUT}`);
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

// A handle, or the first task's pid of a container; else a bare process tree.
function containerOf(cont_id: bigint): Container | null {
  const direct = containers.get(cont_id);
  if (direct) return direct;
  if (cont_id <= 1n || cont_id >= HANDLE_BASE) return null;
  const pid = Number(cont_id);
  for (const c of containers.values()) if (c.roots.values().next().value === pid) return c;
  return { roots: new Set([pid]), mark: null };
}

// Every live process of the container: the roots' descendants by ppid, and (with marks) every
// process whose environment carries the marks, with its descendants. Never this daemon itself.
async function members(c: Container): Promise<number[]> {
  const table = await procTable();
  const inside = new Set<number>();
  for (const e of table) if (c.roots.has(e.pid)) inside.add(e.pid);
  const { mark } = c;
  if (mark !== null) {
    const marked = await Promise.all(table.map(async (e) => isLive(e) && (await environOf(e.pid)).includes(mark)));
    table.forEach((e, i) => marked[i] && inside.add(e.pid));
  }
  const children = new Map<number, ProcEntry[]>();
  for (const e of table) children.set(e.ppid, [...(children.get(e.ppid) ?? []), e]);
  const queue = [...inside];
  while (queue.length > 0) {
    for (const child of children.get(queue.pop()!) ?? []) {
      if (!inside.has(child.pid)) {
        inside.add(child.pid);
        queue.push(child.pid);
      }
    }
  }
  const live = new Set(table.filter(isLive).map((e) => e.pid));
  return [...inside].filter((pid) => live.has(pid) && pid !== process.pid && pid > 1).sort((a, b) => a - b);
}

export function proctrack_p_create(step: ProctrackStep): bigint {
  lastHandle += 1n;
  let mark: string | null = null;
  if (step.env) {
    const value = `${step.jobid}.${step.stepid}.${randomUUID()}`;
    step.env.set(MARK_VAR, value);
    mark = `${MARK_VAR}=${value}`;
  }
  containers.set(lastHandle, { roots: new Set(), mark });
  host?.log.debug(`container ${lastHandle} for step ${step.jobid}.${step.stepid}`);
  return lastHandle;
}

/** tslurm's hook: the step's mark, by which tslurm's reaper finds its processes if the step daemon dies. */
export function proctrack_p_orphan_plan(cont_id: bigint): { environ: string } | null {
  const mark = containers.get(cont_id)?.mark;
  return mark ? { environ: mark } : null;
}

export async function proctrack_p_add(step: ProctrackStep, pid: number): Promise<Rc> {
  const c = step.cont_id === null ? undefined : containers.get(step.cont_id);
  if (!c) return fail(EINVAL, `step ${step.jobid}.${step.stepid} has no container`);
  if (!Number.isInteger(pid) || pid <= 1 || pid === process.pid) return fail(EINVAL, `cannot track pid ${pid}`);
  // A task that already ended is not an error worth a log line: the host accepts it.
  if ((await readProc(pid)) === null) return fail(ESRCH);
  c.roots.add(pid);
  return SLURM_SUCCESS;
}

export async function proctrack_p_signal(cont_id: bigint, signal: number): Promise<Rc> {
  const c = containerOf(cont_id);
  if (c === null) return fail(ESRCH);
  const pids = await members(c);
  if (signal === 0) return pids.length > 0 ? SLURM_SUCCESS : fail(ESRCH);
  for (const pid of pids) {
    try {
      process.kill(pid, signal);
    } catch {
      // gone meanwhile
    }
  }
  return SLURM_SUCCESS;
}

export function proctrack_p_destroy(cont_id: bigint): Rc {
  containers.delete(cont_id);
  return SLURM_SUCCESS;
}

export async function proctrack_p_find(pid: number): Promise<bigint | null> {
  if ((await readProc(pid)) === null) return null;
  for (const [handle, c] of containers) if ((await members(c)).includes(pid)) return handle;
  return BigInt(pid);
}

export async function proctrack_p_has_pid(cont_id: bigint, pid: number): Promise<boolean> {
  const c = containerOf(cont_id);
  return c !== null && (await members(c)).includes(pid);
}

export async function proctrack_p_wait(cont_id: bigint): Promise<Rc> {
  const c = containerOf(cont_id);
  if (c === null) return fail(EINVAL);
  const result = await killUntilEmpty(() => members(c), () => proctrack_p_signal(cont_id, constants.signals.SIGKILL), unkillableTimeout);
  if (result.empty) return SLURM_SUCCESS;
  return fail(EBUSY, `Unable to destroy container ${cont_id} in linuxproc plugin, giving up after ${result.elapsedSeconds} sec`);
}

export async function proctrack_p_get_pids(cont_id: bigint): Promise<number[] | null> {
  const c = containerOf(cont_id);
  if (c === null) {
    fail(EINVAL);
    return null;
  }
  return members(c);
}
