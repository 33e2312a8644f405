// proctrack/cgroup: each step's processes live in a cgroup v2 directory of their own
// (Slurm's src/plugins/proctrack/cgroup), so nothing a task starts can leave the step:
// setsid, double forks and re-parenting do not move a process out of its cgroup. SIGKILL goes
// through `cgroup.kill` (the kernel kills every member at once, no race with forks); other
// signals to every member; the step is empty when `cgroup.procs` lists no live process.
//
// Layout: <root>/tslurm/stepd_<pid>_<start>/node_<node>/job_<job>/step_<step>: the level of
// the step host that made it (lib/cgroup-owner.ts: several step hosts and state directories,
// whose job ids repeat, share the tree), the node level because emulated nodes of one step
// share a host. A step directory still in use (a requeued batch job's old launch ending) is
// never shared: the next free `step_<step>.<n>` is taken instead (mkdir is the lock). A job's
// directory goes with its last step, the host's level when it ends; what a dead host left
// empty (killed with its guard, a step whose end never ran) is removed by the next process to
// load the plugin. `proctrack_p_orphan_plan` names the directory, so that
// tslurm's reaper can empty it (cgroup.kill) if the step daemon is killed. <root> is the `cgroup_root` option, else the first writable
// cgroup v2 hierarchy among /sys/fs/cgroup and /sys/fs/cgroup/unified. The container id is
// the step directory's inode number. Without a writable cgroup v2 hierarchy `init` fails with
// the reason, so a cluster configured for this plugin says at once why it cannot run.
//
// Memory (cgroup.conf's names, as Slurm's task/cgroup does it): with `constrain_ram_space`
// a step is limited to its memory on the node (`step_mem`, from --mem or --mem-per-cpu) times
// `allowed_ram_space` percent (default 100), at least `min_ram_space` MB (default 30), swap
// included; see lib/cgroup-memory.ts for where. A step without a memory request is not
// limited. `proctrack_p_oom_events` counts the oom kills so that the step ends OUT_OF_MEMORY.
// With `constrain_ram_space` and no writable memory controller `init` fails and says why.
//
// The cgroup and /proc files are read and written synchronously: they are the kernel's, never
// a disk's, and answer in microseconds, where a trip through Node's thread pool costs a wake-up
// of the step host each (milliseconds on a loaded host, a dozen of them per step).
import { constants } from 'node:os';
import { existsSync, mkdirSync, readFileSync, rmdirSync, statSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import {
  SLURM_BATCH_SCRIPT,
  SLURM_ERROR,
  SLURM_EXTERN_CONT,
  SLURM_SUCCESS,
  SLURM_VERSION_NUMBER,
  type PluginHost,
  type ContainerTask,
  type ProctrackStep,
  type Rc,
} from '../src/plugin-api/index.js';
import { killUntilEmpty } from './lib/kill-wait.js';
import { isLive, readProcSync } from './lib/proc-table.js';
import { findMemoryHierarchy, limitStep, oomKills, removeV1, type MemoryHierarchy } from './lib/cgroup-memory.js';
import { ownLevel, removeOwnLevel, sweepDeadOwners } from './lib/cgroup-owner.js';

export const plugin_name = 'Process tracking via linux cgroup freezer subsystem';
export const plugin_type = 'proctrack/cgroup';
export const plugin_version = SLURM_VERSION_NUMBER(0, 1, 0);

const { ESRCH, EINVAL, EBUSY } = constants.errno;
const CANDIDATE_ROOTS = ['/sys/fs/cgroup', '/sys/fs/cgroup/unified'];
const DEFAULT_UNKILLABLE_TIMEOUT = 60;
const V1_MEMORY_ROOTS = ['/sys/fs/cgroup/memory'];

let host: PluginHost | undefined;
/** This process's level of the tree: <root>/tslurm/stepd_<pid>_<start>. */
let base = '';
let unkillableTimeout = DEFAULT_UNKILLABLE_TIMEOUT;
/** Set when memory is constrained: where, and cgroup.conf's AllowedRAMSpace / MinRAMSpace. */
let memory: { hierarchy: MemoryHierarchy; allowedPercent: number; minMb: number } | undefined;

/** A step's cgroup directory, and its v1 memory directory when memory is limited there. */
interface Container {
  dir: string;
  memoryDir?: string;
}
/** Container id (inode) → the step's directories. */
const containers = new Map<bigint, Container>();

export function init(h: PluginHost): Rc {
  host = h;
  const root = typeof h.options['cgroup_root'] === 'string' ? [h.options['cgroup_root']] : CANDIDATE_ROOTS;
  const usable = root.find((dir) => writableV2(dir));
  if (usable === undefined) {
    h.log.error(`proctrack/cgroup: no writable cgroup v2 hierarchy (looked at ${root.join(', ')})`);
    return SLURM_ERROR;
  }
  base = path.join(usable, 'tslurm', ownLevel());
  const timeout = h.options['unkillable_timeout'];
  if (typeof timeout === 'number' && Number.isFinite(timeout) && timeout >= 0) unkillableTimeout = timeout;
  h.log.debug(`proctrack/cgroup: steps under ${base}`);
  const rc = initMemory(h, usable);
  // Off the start-up path: the first step does not wait for the leftovers of others.
  const trees = [path.dirname(base), ...(memory?.hierarchy.version === 1 ? [path.join(memory.hierarchy.root, 'tslurm')] : [])];
  void Promise.all(trees.map((tree) => sweepDeadOwners(tree))).then(
    (counts) => counts.some((n) => n > 0) && h.log.debug(`proctrack/cgroup: removed ${counts.join(' + ')} empty cgroups of step hosts no longer running`),
    () => {},
  );
  return rc;
}

// constrain_ram_space and its companions; a memory controller we cannot use is a refusal.
function initMemory(h: PluginHost, v2Root: string): Rc {
  const o = h.options;
  memory = undefined;
  if (o['constrain_ram_space'] === undefined || o['constrain_ram_space'] === false) return SLURM_SUCCESS;
  if (o['constrain_ram_space'] !== true) return fail(EINVAL, 'proctrack/cgroup: constrain_ram_space must be true or false');
  const allowed = o['allowed_ram_space'] ?? 100;
  const min = o['min_ram_space'] ?? 30;
  if (typeof allowed !== 'number' || !(allowed > 0)) return fail(EINVAL, 'proctrack/cgroup: allowed_ram_space must be a percentage above 0');
  if (typeof min !== 'number' || !(min >= 0)) return fail(EINVAL, 'proctrack/cgroup: min_ram_space must be a number of MB');
  const v1Roots = typeof o['memory_root'] === 'string' ? [o['memory_root']] : V1_MEMORY_ROOTS;
  const hierarchy = findMemoryHierarchy(v2Root, v1Roots);
  if (hierarchy === undefined) {
    return fail(EINVAL, `proctrack/cgroup: constrain_ram_space: no writable memory controller (not in cgroup v2 ${v2Root}, no cgroup v1 memory hierarchy at ${v1Roots.join(', ')})`);
  }
  memory = { hierarchy, allowedPercent: allowed, minMb: min };
  h.log.debug(`proctrack/cgroup: memory limited through cgroup v${hierarchy.version} ${hierarchy.root}`);
  return SLURM_SUCCESS;
}

// A cgroup v2 hierarchy (cgroup.controllers is v2's mark) where we may make directories.
function writableV2(dir: string): boolean {
  if (!existsSync(path.join(dir, 'cgroup.controllers')) || !existsSync(path.join(dir, 'cgroup.procs'))) return false;
  try {
    mkdirSync(path.join(dir, 'tslurm'), { recursive: true });
    return true;
  } catch {
    return false;
  }
}

export function fini(): void {
  containers.clear();
  // What this host's steps left empty goes with it (a cgroup with a process stays).
  if (base === '') return;
  removeOwnLevel(base);
  if (memory?.hierarchy.version === 1) removeOwnLevel(path.join(memory.hierarchy.root, 'tslurm', path.basename(base)));
}

function fail(errnum: number, message?: string): typeof SLURM_ERROR {
  if (message !== undefined) host?.log.error(message);
  host?.slurm_seterrno(errnum);
  return SLURM_ERROR;
}

function stepName(stepid: number): string {
  if (stepid === SLURM_BATCH_SCRIPT) return 'step_batch';
  if (stepid === SLURM_EXTERN_CONT) return 'step_extern';
  return `step_${stepid}`;
}

export async function proctrack_p_create(step: ProctrackStep): Promise<bigint | null> {
  const root = path.dirname(path.dirname(base));
  const parent = path.join(base, `node_${step.node_name}`, `job_${step.jobid}`);
  let dir = path.join(parent, stepName(step.stepid));
  try {
    dir = makeOwnDir(parent, stepName(step.stepid));
    const rel = path.relative(root, dir);
    const id = BigInt(statSync(dir).ino);
    const container: Container = { dir };
    containers.set(id, container);
    const limitMb = memoryLimitMb(step.step_mem ?? 0);
    if (memory && limitMb > 0) container.memoryDir = await limitStep(memory.hierarchy, dir, rel, limitMb * 1024 * 1024);
    return id;
  } catch (error) {
    fail(EINVAL, `proctrack/cgroup: cannot make ${dir}: ${(error as Error).message}`);
    return null;
  }
}

// A new directory `leaf` (else `leaf.1`, `leaf.2`, ...) under `parent`: one that exists belongs
// to another step. A parent removed meanwhile by another step's end is made again.
function makeOwnDir(parent: string, leaf: string): string {
  for (let attempt = 0, n = 0; attempt < 1000; attempt++) {
    const dir = path.join(parent, n === 0 ? leaf : `${leaf}.${n}`);
    try {
      mkdirSync(parent, { recursive: true });
      mkdirSync(dir);
      return dir;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'EEXIST') n++;
      else if (code !== 'ENOENT') throw error;
    }
  }
  throw new Error(`no free directory for ${leaf} in ${parent}`);
}

/** tslurm's hook: the step's cgroup, which tslurm's reaper empties if the step daemon dies. */
export function proctrack_p_orphan_plan(cont_id: bigint): { cgroup: string } | null {
  const container = containers.get(cont_id);
  return container === undefined ? null : { cgroup: container.dir };
}

// task_cgroup_memory.c's limit: the step's memory times AllowedRAMSpace, at least MinRAMSpace.
function memoryLimitMb(stepMem: number): number {
  if (!memory || !(stepMem > 0)) return 0;
  return Math.max(Math.floor((stepMem * memory.allowedPercent) / 100), memory.minMb);
}

/** tslurm's hook: the oom kills of the step's memory cgroup (0 when memory is not limited). */
export async function proctrack_p_oom_events(cont_id: bigint): Promise<number> {
  const container = containers.get(cont_id);
  if (!memory || container === undefined) return 0;
  return oomKills(memory.hierarchy, container.dir, container.memoryDir);
}

/**
 * The task joins its cgroup itself before it execs (it writes its own pid to cgroup.procs,
 * then execs the task): nothing it forks can start outside the step. The host's task exec
 * helper does it when built, leaving the environment in the order the step daemon made it; a
 * shell otherwise (same cgroups, but it re-exports the environment in its own order).
 */
export function proctrack_p_join(step: ProctrackStep, task: ContainerTask): Rc {
  const container = step.cont_id === null ? undefined : containers.get(step.cont_id);
  if (container === undefined) return fail(EINVAL, `proctrack/cgroup: step ${step.jobid}.${step.stepid} has no container`);
  // The v1 memory cgroup first: nothing the task allocates is charged outside its limit.
  const procs = [container.memoryDir, container.dir].filter((d) => d !== undefined).map((d) => path.join(d, 'cgroup.procs'));
  if (task.taskExec !== undefined) {
    task.argv.splice(0, 0, task.taskExec, ...procs.flatMap((file) => ['--procs', file]), '--');
  } else {
    const writes = procs.map((_, i) => `echo $$ > "$${i + 1}"`).join(' && ');
    task.argv.splice(0, 0, '/bin/sh', '-c', `${writes} && shift ${procs.length} && exec "$@"`, 'proctrack/cgroup', ...procs);
  }
  return SLURM_SUCCESS;
}

export async function proctrack_p_add(step: ProctrackStep, pid: number): Promise<Rc> {
  const container = step.cont_id === null ? undefined : containers.get(step.cont_id);
  if (container === undefined) return fail(EINVAL, `proctrack/cgroup: step ${step.jobid}.${step.stepid} has no container`);
  const { dir, memoryDir } = container;
  // The task is usually there already: the step host's spawn server created it in the cgroup
  // (clone3's CLONE_INTO_CGROUP, for the join proctrack_p_join asked), or joined by itself.
  // Moving a process, even into the cgroup it is in, takes the kernel's lock on every cgroup
  // migration, for milliseconds on a busy host, so only a task not there yet is moved.
  if (memoryDir === undefined && inCgroup(pid, dir)) return SLURM_SUCCESS;
  try {
    if (memoryDir !== undefined) writeFileSync(path.join(memoryDir, 'cgroup.procs'), String(pid));
    writeFileSync(path.join(dir, 'cgroup.procs'), String(pid));
    return SLURM_SUCCESS;
  } catch (error) {
    // A task that already ended cannot be moved; the host accepts that (see proctrack/pgid).
    const code = (error as NodeJS.ErrnoException).code;
    return code === 'ESRCH' ? fail(ESRCH) : fail(EINVAL, `proctrack/cgroup: cannot add ${pid} to ${dir}: ${(error as Error).message}`);
  }
}

// Whether `pid`'s cgroup v2 (its /proc/PID/cgroup line `0::PATH`, PATH from the hierarchy's
// root or the host's cgroup namespace) is `dir`.
function inCgroup(pid: number, dir: string): boolean {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/cgroup`, 'utf8');
  } catch {
    return false;
  }
  const v2 = text.split('\n').find((line) => line.startsWith('0::'))?.slice(3);
  return v2 !== undefined && v2 !== '/' && dir.endsWith(v2);
}

export async function proctrack_p_signal(cont_id: bigint, signal: number): Promise<Rc> {
  const dir = containers.get(cont_id)?.dir;
  if (dir === undefined) return fail(ESRCH);
  // SIGKILL needs no list of members: the kernel kills them all, an empty cgroup included.
  if (signal === constants.signals.SIGKILL) {
    // An empty one (the usual end of a step whose processes have all exited) is left alone:
    // writing cgroup.kill takes the kernel's cgroup lock, which every task's move into its
    // step's cgroup waits on (a drain of short batch jobs wrote it once a job). Nothing can
    // join an empty cgroup but what the step host puts there.
    if (!populated(dir)) return SLURM_SUCCESS;
    try {
      writeFileSync(path.join(dir, 'cgroup.kill'), '1');
      return SLURM_SUCCESS;
    } catch {
      // an older kernel without cgroup.kill: one kill per member, as below
    }
  }
  const pids = livePids(dir);
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

// Whether a cgroup v2 holds a process, from its cgroup.events; true when that cannot be read.
function populated(dir: string): boolean {
  try {
    return !/^populated 0$/m.test(readFileSync(path.join(dir, 'cgroup.events'), 'utf8'));
  } catch {
    return true;
  }
}

export function proctrack_p_destroy(cont_id: bigint): Rc {
  const container = containers.get(cont_id);
  containers.delete(cont_id);
  if (container === undefined) return SLURM_SUCCESS;
  if (container.memoryDir !== undefined) removeV1(container.memoryDir);
  const { dir } = container;
  // The step, then its job and node levels once no other step uses them; the host's own
  // level stays until its end (fini), sparing each step a mkdir and an rmdir of it.
  for (let level = dir, i = 0; i < 3; level = path.dirname(level), i++) {
    try {
      rmdirSync(level);
    } catch {
      break;
    }
  }
  return SLURM_SUCCESS;
}

export async function proctrack_p_find(pid: number): Promise<bigint | null> {
  let text: string;
  try {
    text = await readFile(`/proc/${pid}/cgroup`, 'utf8');
  } catch {
    return null;
  }
  const v2 = text.split('\n').find((line) => line.startsWith('0::'))?.slice(3);
  if (v2 === undefined) return null;
  for (const [id, { dir }] of containers) if (dir.endsWith(v2)) return id;
  return null;
}

export async function proctrack_p_has_pid(cont_id: bigint, pid: number): Promise<boolean> {
  const dir = containers.get(cont_id)?.dir;
  return dir !== undefined && livePids(dir).includes(pid);
}

export async function proctrack_p_wait(cont_id: bigint): Promise<Rc> {
  const dir = containers.get(cont_id)?.dir;
  if (dir === undefined) return fail(EINVAL);
  const result = await killUntilEmpty(async () => livePids(dir), () => proctrack_p_signal(cont_id, constants.signals.SIGKILL), unkillableTimeout);
  if (result.empty) return SLURM_SUCCESS;
  return fail(EBUSY, `Unable to destroy container ${cont_id} in cgroup plugin, giving up after ${result.elapsedSeconds} sec`);
}

export async function proctrack_p_get_pids(cont_id: bigint): Promise<number[] | null> {
  const dir = containers.get(cont_id)?.dir;
  if (dir === undefined) {
    fail(EINVAL);
    return null;
  }
  return livePids(dir);
}

// The members of a cgroup still running (zombies left out: they cannot be killed away).
function livePids(dir: string): number[] {
  let text: string;
  try {
    text = readFileSync(path.join(dir, 'cgroup.procs'), 'utf8');
  } catch {
    return [];
  }
  const pids = text.split('\n').filter(Boolean).map(Number);
  const live: number[] = [];
  for (const pid of pids) {
    const entry = readProcSync(pid);
    if (entry && isLive(entry)) live.push(pid);
  }
  return live.sort((a, b) => a - b);
}
