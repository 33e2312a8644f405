// Job states as Slurm names them (job_state_string / job_state_string_compact in
// src/common/slurm_protocol_defs.c): the base state, unless a state flag (COMPLETING while
// the job's processes are still being cleaned up, REQUEUED, ...) names it instead.
import {
  JOB_CANCELLED,
  JOB_COMPLETE,
  JOB_COMPLETING,
  JOB_CONFIGURING,
  JOB_FAILED,
  JOB_NODE_FAIL,
  JOB_OOM,
  JOB_PENDING,
  JOB_REQUEUE,
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

// The state flags that name a state, in the order Slurm tests them (slurm.h's JOB_* bits;
// only COMPLETING, CONFIGURING and REQUEUE are in the plugin API).
const flagNames: ReadonlyArray<[flag: number, long: string, short: string]> = [
  [JOB_COMPLETING, 'COMPLETING', 'CG'],
  [0x0080_0000, 'STAGE_OUT', 'SO'],
  [JOB_CONFIGURING, 'CONFIGURING', 'CF'],
  [0x0000_2000, 'RESIZING', 'RS'],
  [JOB_REQUEUE, 'REQUEUED', 'RQ'],
  [0x0010_0000, 'REQUEUE_FED', 'RF'],
  [0x0000_0800, 'REQUEUE_HOLD', 'RH'],
  [0x0000_1000, 'SPECIAL_EXIT', 'SE'],
  [0x0001_0000, 'STOPPED', 'ST'],
  [0x0008_0000, 'REVOKED', 'RV'],
  [0x0020_0000, 'RESV_DEL_HOLD', 'RD'],
  [0x0040_0000, 'SIGNALING', 'SI'],
];

/** `RUNNING`, `COMPLETED`, ... or a flag's name (`COMPLETING` while being cleaned up). */
export function jobStateString(state: number): string {
  for (const [flag, long] of flagNames) if ((state & flag) !== 0) return long;
  return names[state & JOB_STATE_BASE]?.[0] ?? '?';
}

/** squeue's `%t`: `R`, `PD`, `CG`, ... */
export function jobStateCompact(state: number): string {
  for (const [flag, , short] of flagNames) if ((state & flag) !== 0) return short;
  return names[state & JOB_STATE_BASE]?.[1] ?? '?';
}

/**
 * job_state_num(): a base state or a state flag for its long or short name, any case
 * (`pd`, `Running`, `CG`, `requeued`); undefined for anything else.
 */
export function jobStateNum(name: string): number | undefined {
  const base = jobStateFromName(name);
  if (base !== undefined) return base;
  const upper = name.toUpperCase();
  return flagNames.find(([, long, short]) => upper === long || upper === short)?.[0];
}

/** Every state name job_state_num() knows, as squeue lists them after a bad `-t`. */
export function jobStateNames(): string[] {
  const order = ['COMPLETING', 'CONFIGURING', 'RESIZING', 'RESV_DEL_HOLD', 'REQUEUED', 'REQUEUE_FED', 'REQUEUE_HOLD', 'REVOKED', 'SIGNALING', 'SPECIAL_EXIT', 'STAGE_OUT', 'STOPPED'];
  return [...Object.values(names).map(([long]) => long), ...order];
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
