// Which processes of a test are still running: every process whose environment carries
// TSLURM_TEST_MARK=<mark> (tasks get it through --export, and whatever they start inherits it).
// Zombies are left out: an orphan stays as Z where PID 1 does not reap, but it no longer runs.
import { readFileSync, readdirSync } from 'node:fs';

export function liveWithMark(mark: string): number[] {
  const found: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'latin1');
      const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
      if (state === 'Z' || state === 'X') continue;
      if (readFileSync(`/proc/${name}/environ`, 'latin1').split('\0').includes(`TSLURM_TEST_MARK=${mark}`)) found.push(Number(name));
    } catch {
      // gone, or not ours to read
    }
  }
  return found;
}

/** Polls until no process of `mark` runs, or `ms` passed; returns what is left. */
export async function leftovers(mark: string, ms = 3000): Promise<number[]> {
  const end = Date.now() + ms;
  for (;;) {
    const left = liveWithMark(mark);
    if (left.length === 0 || Date.now() > end) return left;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
