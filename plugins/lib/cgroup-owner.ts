// Who owns a part of proctrack/cgroup's tree, and the sweep that removes what dead owners left.
// Each process that makes step cgroups (a step host, a node daemon) keeps them under a level of
// its own, `stepd_<pid>_<start>` (its pid and its start time in clock ticks since boot, from
// /proc/<pid>/stat, so that a recycled pid is not taken for the owner): several step hosts,
// of several state directories whose job ids repeat, share one tree without sharing a directory,
// and a level whose owner is gone belongs to nobody. A step host SIGKILLed together with its
// guard, or a step whose end never ran, leaves its directories; the next process to load the
// plugin removes the empty ones of every dead owner, as slurmd cleans the cgroups of jobs it no
// longer runs. A cgroup that still holds a process is never removed (the kernel refuses it).
import { readdirSync, readFileSync, rmdirSync } from 'node:fs';
import { readdir, rmdir, stat } from 'node:fs/promises';
import path from 'node:path';

const OWNER_LEVEL = /^stepd_(\d+)_(\d+)$/;
/**
 * Directories of the layout before the owner level (`node_<node>` right under the tree) have no
 * owner to ask: an empty step directory of theirs is removed once it is this old, when no step
 * of an older step host still running could be about to use it.
 */
export const LEGACY_AGE_MS = 60 * 60 * 1000;

/** This process's level: `stepd_<pid>_<start>`. */
export function ownLevel(): string {
  return `stepd_${process.pid}_${startTime(process.pid) ?? 0}`;
}

/** A process's start time (field 22 of /proc/<pid>/stat), undefined when it is gone or a zombie. */
function startTime(pid: number): string | undefined {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, 'latin1');
  } catch {
    return undefined;
  }
  // Fields are counted from the last ')': comm may hold spaces and parentheses.
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  if (fields[0] === 'Z' || fields[0] === 'X') return undefined;
  return fields[19];
}

/** Whether the owner named by a `stepd_<pid>_<start>` level still runs. */
function ownerAlive(pid: string, start: string): boolean {
  return startTime(Number(pid)) === start;
}

/**
 * Removes, under `tree` (a hierarchy's `tslurm` directory), the empty cgroups of every owner
 * no longer running, and the old layout's empty step directories older than LEGACY_AGE_MS.
 * Asynchronous, one directory at a time: many leftovers must not hold the caller's start-up,
 * nor the kernel's cgroup lock that every task's join into its cgroup waits on.
 * @returns how many directories were removed.
 */
export async function sweepDeadOwners(tree: string, now = Date.now()): Promise<number> {
  let removed = 0;
  for (const name of await readdir(tree).catch(() => [] as string[])) {
    const owner = OWNER_LEVEL.exec(name);
    if (owner) {
      if (!ownerAlive(owner[1]!, owner[2]!)) removed += await removeEmpty(path.join(tree, name), () => true);
    } else if (name.startsWith('node_')) {
      removed += await removeEmpty(path.join(tree, name), async (dir, depth) => depth < 2 || (await stat(dir)).mtimeMs < now - LEGACY_AGE_MS);
    }
  }
  return removed;
}

/**
 * `dir` and every directory under it that holds no process, children first; `removable` says
 * whether one at that depth (0: `dir`) may go. A cgroup with a process, or with a child left,
 * is refused by the kernel (EBUSY, ENOTEMPTY) and stays.
 */
async function removeEmpty(dir: string, removable: (dir: string, depth: number) => boolean | Promise<boolean>, depth = 0): Promise<number> {
  let removed = 0;
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
  for (const entry of entries) if (entry.isDirectory()) removed += await removeEmpty(path.join(dir, entry.name), removable, depth + 1);
  try {
    if (!(await removable(dir, depth))) return removed;
    await rmdir(dir);
    return removed + 1;
  } catch {
    return removed;
  }
}

/** This process's own level at its end: what is empty goes (synchronous: the process is ending). */
export function removeOwnLevel(dir: string): void {
  for (const entry of safeReaddir(dir)) if (entry.isDirectory()) removeOwnLevel(path.join(dir, entry.name));
  try {
    rmdirSync(dir);
  } catch {
    // a cgroup with a process, or gone already
  }
}

function safeReaddir(dir: string) {
  try {
    return readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
}
