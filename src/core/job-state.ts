// Job states as Slurm names them (job_state_string / job_state_string_compact in
// src/common/slurm_protocol_defs.c): the base state, with COMPLETING shown instead while
// the job's processes are still being cleaned up.
import {
  JOB_CANCELLED,
  JOB_COMPLETE,
  JOB_COMPLETING,
  JOB_FAILED,
  JOB_NODE_FAIL,
  JOB_OOM,
  JOB_PENDING,
  JOB_RUNNING,
  JOB_STATE_BASE,
  JOB_SUSPENDED,
  JOB_TIMEOUT,
  JOB_PREEMPTED,
  JOB_BOOT_FAIL,
  JOB_DEADLINE,
} from '../plugin-api/records.js';

const names: Record<number, [string, string]> = {
  [JOB_PENDING]: ['PENDING', 'PD'],
  [JOB_RUNNING]: ['RUNNING', 'R'],
  [JOB_SUSPENDED]: ['SUSPENDED', 'S'],
  [JOB_COMPLETE]: ['COMPLETED', 'CD'],
  [JOB_CANCELLED]: ['CANCELLED', 'CA'],
  [JOB_FAILED]: ['FAILED', 'F'],
  [JOB_TIMEOUT]: ['TIMEOUT', 'TO'],
  [JOB_NODE_FAIL]: ['NODE_FAIL', 'NF'],
  [JOB_PREEMPTED]: ['PREEMPTED', 'PR'],
  [JOB_BOOT_FAIL]: ['BOOT_FAIL', 'BF'],
  [JOB_DEADLINE]: ['DEADLINE', 'DL'],
  [JOB_OOM]: ['OUT_OF_MEMORY', 'OOM'],
};

/** `RUNNING`, `COMPLETED`, ... or `COMPLETING` while the job is being cleaned up. */
export function jobStateString(state: number): string {
  if ((state & JOB_COMPLETING) !== 0) return 'COMPLETING';
  return names[state & JOB_STATE_BASE]?.[0] ?? '?';
}

/** squeue's `%t`: `R`, `PD`, `CG`, ... */
export function jobStateCompact(state: number): string {
  if ((state & JOB_COMPLETING) !== 0) return 'CG';
  return names[state & JOB_STATE_BASE]?.[1] ?? '?';
}

/** The base state for a name (`TIMEOUT`, `CD`, `completed`), or undefined. */
export function jobStateFromName(name: string): number | undefined {
  const upper = name.toUpperCase();
  for (const [value, [long, short]] of Object.entries(names)) {
    if (upper === long || upper === short) return Number(value);
  }
  return undefined;
}

/** The job has ended (whatever the cleanup still does). */
export function isFinished(state: number): boolean {
  const base = state & JOB_STATE_BASE;
  return base !== JOB_PENDING && base !== JOB_RUNNING && base !== JOB_SUSPENDED;
}
