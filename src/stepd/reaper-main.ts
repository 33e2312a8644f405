// The Node reaper: a small process tsrun (and tsstepd) starts beside its tasks, when the native
// step guard (native/step-guard/tsstep_guard.c, the same program in C) was not built. The step
// daemon records each task's process group ("+pgid", "-pgid" lines), each step container's cgroup
// ("+cgroup DIR") and environment mark ("+environ VAR=value"), and "done" at a normal end.
// When the daemon dies in any way, even by SIGKILL, the reaper's stdin ends; if the file does
// not say "done", everything still recorded is ended: SIGTERM, then after KillWait SIGKILL
// until nothing is left (a cgroup through cgroup.kill, then its directory removed), so no
// task, and none of its setsid or double-forked children a cgroup or a mark holds, outlives
// the daemon.
import { readFileSync, readdirSync, rmdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const killWaitMs = Math.max(0, Number.parseFloat(process.argv[2] ?? '30') || 0) * 1000;
const registry = process.argv[3] ?? '';
// How long SIGKILL is repeated for what keeps appearing (a fork racing the kill), at most.
const KILL_ROUNDS_MS = 10_000;

interface Recorded {
  done: boolean;
  groups: Set<number>;
  cgroups: Set<string>;
  marks: Set<string>;
}

function recorded(): Recorded {
  const found: Recorded = { done: false, groups: new Set(), cgroups: new Set(), marks: new Set() };
  let text = '';
  try {
    text = readFileSync(registry, 'utf8');
  } catch {
    return { ...found, done: true }; // nothing recorded: nothing to end
  }
  for (const line of text.split('\n')) {
    if (line === 'done') found.done = true;
    const sign = line[0];
    if (sign !== '+' && sign !== '-') continue;
    const [kind, value] = entryOf(line.slice(1));
    const set: Set<string | number> = kind === 'cgroup' ? found.cgroups : kind === 'environ' ? found.marks : found.groups;
    const item = kind === 'pgid' ? Number.parseInt(value, 10) : value;
    if (kind === 'pgid' && !(Number(item) > 1)) continue;
    if (sign === '+') set.add(item);
    else set.delete(item);
  }
  return found;
}

/** "cgroup DIR", "environ VAR=value", or a bare process group id. */
function entryOf(rest: string): ['cgroup' | 'environ' | 'pgid', string] {
  for (const kind of ['cgroup', 'environ'] as const) if (rest.startsWith(`${kind} `)) return [kind, rest.slice(kind.length + 1)];
  return ['pgid', rest];
}

function kill(pid: number, signal: NodeJS.Signals): boolean {
  try {
    process.kill(pid, signal);
    return true;
  } catch {
    return false;
  }
}

function live(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
    const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
    return state !== 'Z' && state !== 'X';
  } catch {
    return false;
  }
}

/** Every live process of the recorded cgroups and marks (never this reaper). */
function members(r: Recorded): number[] {
  const pids = new Set<number>();
  for (const dir of r.cgroups) {
    try {
      for (const pid of readFileSync(path.join(dir, 'cgroup.procs'), 'utf8').split('\n').filter(Boolean)) pids.add(Number(pid));
    } catch {
      // gone
    }
  }
  if (r.marks.size > 0) {
    for (const name of readdirSync('/proc')) {
      if (!/^\d+$/.test(name)) continue;
      try {
        const environ = readFileSync(`/proc/${name}/environ`, 'latin1').split('\0');
        if (environ.some((entry) => r.marks.has(entry))) pids.add(Number(name));
      } catch {
        // gone, or not ours to read
      }
    }
  }
  pids.delete(process.pid);
  return [...pids].filter(live);
}

function signalAll(r: Recorded, signal: NodeJS.Signals): void {
  for (const pgid of r.groups) kill(-pgid, signal);
  if (signal === 'SIGKILL') {
    for (const dir of r.cgroups) {
      try {
        writeFileSync(path.join(dir, 'cgroup.kill'), '1');
      } catch {
        // no cgroup.kill (older kernel) or gone: the members are killed one by one below
      }
    }
  }
  for (const pid of members(r)) kill(pid, signal);
}

// The step's directory, then its job and node levels once no other step uses them.
function removeCgroups(r: Recorded): void {
  for (const dir of r.cgroups) {
    for (let level = dir, i = 0; i < 3; level = path.dirname(level), i++) {
      try {
        rmdirSync(level);
      } catch {
        break;
      }
    }
  }
}

function forget(): void {
  if (registry) rmSync(path.dirname(registry), { recursive: true, force: true });
}

function finish(r: Recorded): void {
  removeCgroups(r);
  forget();
  process.exit(0);
}

process.stdin.resume();
process.stdin.on('end', () => {
  const r = recorded();
  if (r.done || r.groups.size + r.cgroups.size + r.marks.size === 0) {
    forget();
    process.exit(0);
  }
  signalAll(r, 'SIGTERM');
  setTimeout(() => {
    const until = Date.now() + KILL_ROUNDS_MS;
    let rounds = 0;
    // A few rounds at least: a process forking while its group is killed leaves a child.
    const round = (): void => {
      signalAll(r, 'SIGKILL');
      rounds++;
      if ((rounds >= 3 && members(r).length === 0) || Date.now() > until) return finish(r);
      setTimeout(round, 100);
    };
    round();
  }, killWaitMs);
});
// tsrun's terminal signals are not ours to act on: only the end of stdin is.
process.on('SIGINT', () => {});
process.on('SIGHUP', () => {});
