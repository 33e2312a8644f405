import { readFileSync } from 'node:fs';
// Reading processes as the tests that kill daemons need: the pid a daemon wrote, and whether a
// pid is still a running process (a zombie or a dead one is not).

/** The number in a pid file, or undefined when there is none. */
export function pidIn(file: string): number | undefined {
  try {
    return Number.parseInt(readFileSync(file, 'utf8'), 10);
  } catch {
    return undefined;
  }
}

/** Whether `pid` runs: it is in /proc and not a zombie (Z) or dead (X). */
export function alive(pid: number): boolean {
  try {
    return !/\) [ZX] /.test(readFileSync(`/proc/${pid}/stat`, 'latin1'));
  } catch {
    return false;
  }
}
