// Memory limits for proctrack/cgroup (what Slurm's task/cgroup does with ConstrainRAMSpace):
// where a step's memory can be limited, setting the limit, and counting the oom kills.
//
// cgroup v2 first: when the hierarchy the steps live in offers the `memory` controller, it is
// enabled down to each step's parent and the step directory itself gets `memory.max` (and
// `memory.swap.max` 0). Otherwise a cgroup v1 `memory` hierarchy: a directory per step with
// the same layout, `memory.limit_in_bytes` and `memory.memsw.limit_in_bytes` (RAM + swap, so
// no swap either), which the tasks join as well as their v2 directory.
import { existsSync, mkdirSync, readFileSync, rmdirSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';

export type MemoryHierarchy = { version: 2; root: string } | { version: 1; root: string };

/** Where memory can be limited: v2 when `v2Root` offers the controller, else the first writable v1 memory hierarchy. */
export function findMemoryHierarchy(v2Root: string, v1Candidates: readonly string[]): MemoryHierarchy | undefined {
  if (offersMemory(v2Root)) return { version: 2, root: v2Root };
  const v1 = v1Candidates.find((dir) => writableV1Memory(dir));
  return v1 === undefined ? undefined : { version: 1, root: v1 };
}

function offersMemory(v2Root: string): boolean {
  try {
    return readFileSync(path.join(v2Root, 'cgroup.controllers'), 'utf8').split(/\s+/).includes('memory');
  } catch {
    return false;
  }
}

// A v1 memory hierarchy (memory.limit_in_bytes is its mark) where we may make directories.
function writableV1Memory(dir: string): boolean {
  if (!existsSync(path.join(dir, 'memory.limit_in_bytes'))) return false;
  try {
    mkdirSync(path.join(dir, 'tslurm'), { recursive: true });
    return true;
  } catch {
    return false;
  }
}

/**
 * Limits step directory `stepDir` (`rel` below the hierarchy's root, e.g.
 * tslurm/node_n1/job_5/step_0) to `bytes`. @returns the v1 directory the tasks must join too,
 * or undefined on v2 (the step's own directory carries the limit).
 */
export async function limitStep(hierarchy: MemoryHierarchy, stepDir: string, rel: string, bytes: number): Promise<string | undefined> {
  if (hierarchy.version === 2) {
    // Each level hands the controller to its children, from the root down to the step's parent.
    let dir = hierarchy.root;
    await enableMemory(dir);
    for (const level of rel.split('/').slice(0, -1)) {
      dir = path.join(dir, level);
      await enableMemory(dir);
    }
    await writeFile(path.join(stepDir, 'memory.max'), String(bytes));
    await writeFile(path.join(stepDir, 'memory.swap.max'), '0').catch(() => {}); // no swap accounting: nothing to forbid
    return undefined;
  }
  const dir = path.join(hierarchy.root, rel);
  mkdirSync(dir, { recursive: true });
  await writeFile(path.join(dir, 'memory.limit_in_bytes'), String(bytes));
  // RAM + swap may not exceed RAM: no swapping out of the limit. Absent without swap accounting.
  const memsw = path.join(dir, 'memory.memsw.limit_in_bytes');
  if (existsSync(memsw)) await writeFile(memsw, String(bytes));
  return dir;
}

async function enableMemory(dir: string): Promise<void> {
  const control = path.join(dir, 'cgroup.subtree_control');
  const enabled = (await readFile(control, 'utf8')).split(/\s+/);
  if (!enabled.includes('memory')) await writeFile(control, '+memory');
}

/**
 * How many processes the oom killer ended in the step: v2 `memory.events`, v1
 * `memory.oom_control` (its oom_kill line, kernel 4.13 and later), else v1 `memory.failcnt`.
 */
export async function oomKills(hierarchy: MemoryHierarchy, stepDir: string, v1Dir: string | undefined): Promise<number> {
  if (hierarchy.version === 2) return counter(path.join(stepDir, 'memory.events'), 'oom_kill');
  if (v1Dir === undefined) return 0;
  const kills = await counter(path.join(v1Dir, 'memory.oom_control'), 'oom_kill', -1);
  if (kills >= 0) return kills;
  return counter(path.join(v1Dir, 'memory.failcnt'), '');
}

// A "key value" line of a cgroup file (or, with key '', the file's single number).
async function counter(file: string, key: string, missing = 0): Promise<number> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch {
    return missing;
  }
  const line = key === '' ? text.trim() : text.split('\n').find((l) => l.startsWith(`${key} `))?.slice(key.length + 1);
  const value = Number.parseInt(line ?? '', 10);
  return Number.isFinite(value) ? value : missing;
}

/** Removes a v1 step directory, then its job and node levels once no other step uses them. */
export function removeV1(dir: string): void {
  for (let level = dir, i = 0; i < 3; level = path.dirname(level), i++) {
    try {
      rmdirSync(level);
    } catch {
      break;
    }
  }
}
