// The reaper: a small process tsrun starts beside its tasks. tsrun tells it each task's
// process group ("+pgid", "-pgid" lines on its stdin); if tsrun dies in any way, even by
// SIGKILL, stdin ends without "done" and the reaper ends every group still registered
// (SIGTERM, then SIGKILL after KillWait), so no task outlives tsrun.
import { createInterface } from 'node:readline';

const groups = new Set<number>();
let finished = false;
const killWaitMs = Math.max(0, Number.parseFloat(process.argv[2] ?? '30') || 0) * 1000;

function signalAll(signal: NodeJS.Signals): void {
  for (const pgid of groups) {
    try {
      process.kill(-pgid, signal);
    } catch {
      groups.delete(pgid); // the group is gone
    }
  }
}

const lines = createInterface({ input: process.stdin });
lines.on('line', (line) => {
  const pgid = Number.parseInt(line.slice(1), 10);
  if (line === 'done') finished = true;
  else if (line.startsWith('+') && pgid > 1) groups.add(pgid);
  else if (line.startsWith('-')) groups.delete(pgid);
});
lines.on('close', () => {
  if (finished || groups.size === 0) return;
  signalAll('SIGTERM');
  setTimeout(() => signalAll('SIGKILL'), killWaitMs);
});
// tsrun's terminal signals are not ours to act on: only the end of stdin is.
process.on('SIGINT', () => {});
process.on('SIGHUP', () => {});
