// What each of a child's descriptors is when the spawn server starts it, from Node's `stdio`
// option: 'pipe' a socket the child connects back with, 'ignore' /dev/null, and a descriptor
// of ours the same file opened anew by the child through /proc/<our pid>/fd/N. Reopening makes
// a second open file description, which behaves as the shared one only when offsets cannot
// differ: a file written in append mode (the batch step's output, O_APPEND as slurmstepd opens
// it), a file read from its start, a character device. Anything else (a socket, a pipe, a
// stream, 'inherit') is undefined: Node's spawn starts that child.
import { fstatSync, readFileSync } from 'node:fs';
import { constants } from 'node:fs';
import type { ChildOptions } from './spawn.js';
import type { FdPlan } from './spawn-server-frames.js';

const ACCESS_MODE = 3;

/** The plans for `stdio`, or undefined when one of its entries needs Node's spawn. */
export function fdPlans(stdio: ChildOptions['stdio']): FdPlan[] | undefined {
  const entries = typeof stdio === 'string' || stdio === undefined ? [stdio ?? 'pipe', stdio ?? 'pipe', stdio ?? 'pipe'] : [...stdio];
  while (entries.length < 3) entries.push(undefined);
  const plans: FdPlan[] = [];
  for (const [i, entry] of entries.entries()) {
    const plan = entry === 'pipe' || ((entry === undefined || entry === null) && i < 3) ? { kind: 'connect' as const } : planFor(entry);
    if (!plan) return undefined;
    plans.push(plan);
  }
  return plans;
}

function planFor(entry: unknown): FdPlan | undefined {
  if (entry === 'ignore' || entry === undefined || entry === null) return { kind: 'null' };
  if (typeof entry === 'number') return reopened(entry);
  return undefined;
}

function reopened(fd: number): FdPlan | undefined {
  try {
    const stat = fstatSync(fd);
    const info = readFileSync(`/proc/self/fdinfo/${fd}`, 'latin1');
    const flags = Number.parseInt(/^flags:\s+([0-7]+)/m.exec(info)?.[1] ?? '', 8);
    const pos = Number(/^pos:\s+(\d+)/m.exec(info)?.[1]);
    if (Number.isNaN(flags)) return undefined;
    const access = flags & ACCESS_MODE;
    const append = (flags & constants.O_APPEND) !== 0;
    const same = stat.isCharacterDevice() || (stat.isFile() && (access === constants.O_RDONLY ? pos === 0 : access === constants.O_WRONLY && append));
    if (!same) return undefined;
    return { kind: 'open', path: `/proc/${process.pid}/fd/${fd}`, flags: access | (flags & constants.O_APPEND) };
  } catch {
    return undefined;
  }
}
