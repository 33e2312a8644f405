// How active reservations show on nodes (sinfo, scontrol show node): RESERVED on every node of
// an active reservation, and MAINTENANCE too for a MAINT one (observed on Slurm 22.05:
// State=IDLE+MAINTENANCE+RESERVED, sinfo `maint`; State=IDLE+RESERVED, sinfo `resv`).
import { NODE_STATE_MAINT, NODE_STATE_RES } from '../plugin-api/records.js';
import type { Controller } from './controller.js';
import { isActive } from './reservations.js';

/** Flags to or onto each node's state, by node index. */
export function reservedNodeFlags(ctl: Controller, now: number): number[] {
  const flags = new Array<number>(ctl.table.size).fill(0);
  for (const resv of ctl.reservations.list()) {
    if (!isActive(resv, now)) continue;
    const flag = NODE_STATE_RES | (resv.flags.includes('MAINT') ? NODE_STATE_MAINT : 0);
    for (let i = resv.bits.nextSet(0); i >= 0; i = resv.bits.nextSet(i + 1)) flags[i]! |= flag;
  }
  return flags;
}
