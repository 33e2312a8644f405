// A step host's side of the reaper: start it, record each task's process group and
// each step container's orphan plan (a cgroup, an environment mark) in a file with synchronous
// writes (so a host killed right after a spawn has already told it), and mark the file "done"
// when the host stopped with nothing left. The reaper's stdin is only a lifeline: it ends when
// the host ends, however it ends. The reaper is the native step guard (native/step-guard), an exec
// rather than a second Node start-up before the first task; reaper-main.ts is the same program
// in Node, used when the guard was not built (no C compiler) or TSLURM_NODE_REAPER=1 asks.
import { startDetached, type ChildProcess } from '../os/spawn.js';
import { closeSync, mkdtempSync, openSync, writeSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ProctrackOrphanPlan } from '../plugin-api/proctrack.js';
import { runtimeBase } from '../os/runtime-dir.js';
import { nativeHelper } from './native-helper.js';

export interface Reaper {
  track(pgid: number): void;
  untrack(pgid: number): void;
  /** A step container's plan (proctrack_p_orphan_plan): tracked while `open`, forgotten after. */
  container(plan: ProctrackOrphanPlan, open: boolean): void;
  /** The step is over: the reaper exits without killing anything. */
  done(): void;
}

/** Starts the reaper; it lives in its own session so a Ctrl-C at the terminal leaves it alone. */
export function startReaper(killWaitSeconds: number): Reaper {
  let child: ChildProcess | undefined;
  let fd: number | undefined;
  try {
    const registry = path.join(mkdtempSync(path.join(runtimeBase(), 'tslurm-reaper-')), 'groups');
    fd = openSync(registry, 'a', 0o600);
    const argv = [...reaperCommand(), String(killWaitSeconds), registry];
    child = startDetached(argv, { stdio: ['pipe', 'ignore', 'ignore'] });
  } catch {
    child = undefined; // without a reaper tsrun still works; only the SIGKILL case is unguarded
  }
  const record = (line: string): void => {
    if (fd === undefined) return;
    try {
      writeSync(fd, `${line}\n`);
    } catch {
      // a full /tmp: the step runs on, unguarded against a SIGKILL of its daemon, like one without a reaper
    }
  };
  return {
    track: (pgid) => record(`+${pgid}`),
    untrack: (pgid) => record(`-${pgid}`),
    container: (plan, open) => {
      // One entry a line: a path or an environment entry with a newline cannot be recorded.
      const sign = open ? '+' : '-';
      if (plan.cgroup !== undefined && !plan.cgroup.includes('\n')) record(`${sign}cgroup ${plan.cgroup}`);
      if (plan.environ !== undefined && !plan.environ.includes('\n')) record(`${sign}environ ${plan.environ}`);
    },
    done: () => {
      record('done');
      if (fd !== undefined) closeSync(fd);
      fd = undefined;
      child?.stdin?.end();
    },
  };
}

let command: string[] | undefined;

/** The native step guard when it is built, else the Node reaper. */
function reaperCommand(): string[] {
  if (command) return command;
  const guard = process.env.TSLURM_NODE_REAPER === '1' ? undefined : nativeHelper('tsstep_guard');
  command = guard ? [guard] : [process.execPath, fileURLToPath(new URL('../stepd/reaper.js', import.meta.url))];
  return command;
}

