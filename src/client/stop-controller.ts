// Stopping a controller this command started on demand only for one answer (tsbatch
// --test-only when none was running): sbatch --test-only leaves nothing behind, so neither does
// tsbatch. SIGTERM makes tsctld save its state and release the state directory.
import { readFileSync } from 'node:fs';
import path from 'node:path';

/** Sends SIGTERM to the state directory's tsctld and waits (up to `timeoutMs`) for it to exit. */
export async function stopController(stateDir: string, timeoutMs = 10_000): Promise<void> {
  let pid: number;
  try {
    pid = Number.parseInt(readFileSync(path.join(stateDir, 'tsctld.pid'), 'utf8'), 10);
  } catch {
    return; // it is gone already
  }
  if (!(pid > 1)) return;
  try {
    process.kill(pid, 'SIGTERM');
  } catch {
    return;
  }
  const deadline = Date.now() + timeoutMs;
  for (let delay = 10; Date.now() < deadline; delay = Math.min(delay * 2, 200)) {
    await new Promise((resolve) => setTimeout(resolve, delay));
    try {
      process.kill(pid, 0);
    } catch {
      return;
    }
  }
}
