// The reaper: a small process tsrun starts beside its tasks. tsrun records each task's process
// group in a file ("+pgid", "-pgid" lines, "done" at a normal end). When tsrun dies in any way,
// even by SIGKILL, the reaper's stdin ends; if the file does not say "done", every group still
// recorded is ended (SIGTERM, then SIGKILL after KillWait), so no task outlives tsrun.
import { readFileSync, rmSync } from 'node:fs';
import path from 'node:path';

const killWaitMs = Math.max(0, Number.parseFloat(process.argv[2] ?? '30') || 0) * 1000;
const registry = process.argv[3] ?? '';

function recordedGroups(): { done: boolean; groups: Set<number> } {
  const groups = new Set<number>();
  let done = false;
  let text = '';
  try {
    text = readFileSync(registry, 'utf8');
  } catch {
    return { done: true, groups }; // nothing recorded: nothing to end
  }
  for (const line of text.split('\n')) {
    const pgid = Number.parseInt(line.slice(1), 10);
    if (line === 'done') done = true;
    else if (line.startsWith('+') && pgid > 1) groups.add(pgid);
    else if (line.startsWith('-')) groups.delete(pgid);
  }
  return { done, groups };
}

function signalAll(groups: Set<number>, signal: NodeJS.Signals): void {
  for (const pgid of groups) {
    try {
      process.kill(-pgid, signal);
    } catch {
      groups.delete(pgid); // the group is gone
    }
  }
}

function forget(): void {
  if (registry) rmSync(path.dirname(registry), { recursive: true, force: true });
}

process.stdin.resume();
process.stdin.on('end', () => {
  const { done, groups } = recordedGroups();
  if (done || groups.size === 0) {
    forget();
    process.exit(0);
  }
  signalAll(groups, 'SIGTERM');
  setTimeout(() => {
    signalAll(groups, 'SIGKILL');
    forget();
    process.exit(0);
  }, killWaitMs);
});
// tsrun's terminal signals are not ours to act on: only the end of stdin is.
process.on('SIGINT', () => {});
process.on('SIGHUP', () => {});
