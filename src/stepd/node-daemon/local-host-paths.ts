// Where the embedded step host lives in a state directory, and how to tell it from a recycled
// pid: shared by the host (local-host.ts) and the controller that starts it (ctld/local-step-host.ts).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { pidAlive } from '../../os/lock-file.js';

/** The embedded step host's socket, pid file and spool in a state directory. */
export function localHostPaths(stateDir: string) {
  return {
    socket: path.join(stateDir, 'tsstepd.sock'),
    pidFile: path.join(stateDir, 'tsstepd.pid'),
    spool: path.join(stateDir, 'stepd'),
    log: path.join(stateDir, 'tsstepd.log'),
  };
}

/** Whether `pid` is a live step host (not a recycled pid). */
export function isStepHost(pid: number): boolean {
  if (!pidAlive(pid)) return false;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // A zombie has ended; only its parent has not collected it yet.
    if (/\) [ZX] /.test(stat)) return false;
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('tsstepd');
  } catch {
    return false;
  }
}

