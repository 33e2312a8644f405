// Partition settings in the forms Slurm's commands print and sort them.
import type { PartitionInfo } from '../../protocol/node-info.js';

// slurm.h: PARTITION_SUBMIT 0x01, PARTITION_SCHED 0x02; sinfo sorts on these numbers.
const STATE_UP: Record<PartitionInfo['state'], number> = { INACTIVE: 0, DOWN: 0x01, DRAIN: 0x02, UP: 0x03 };

/** part_ptr->state_up, for sorting. */
export function partitionStateUp(part: PartitionInfo): number {
  return STATE_UP[part.state];
}

// OverSubscribe=YES and FORCE without a count mean 4 jobs per resource (slurm.conf).
const SHARED_FORCE = 0x8000;

/** part_ptr->max_share: 0 EXCLUSIVE, 1 NO, 4 YES, FORCE|4. */
export function partitionMaxShare(part: PartitionInfo): number {
  switch (part.oversubscribe) {
    case 'EXCLUSIVE':
      return 0;
    case 'NO':
      return 1;
    case 'YES':
      return 4;
    case 'FORCE':
      return SHARED_FORCE | 4;
  }
}

/** OverSubscribe= and sinfo %h: `NO`, `YES:4`, `FORCE:4`, `EXCLUSIVE`. */
export function oversubscribeText(part: PartitionInfo): string {
  const share = partitionMaxShare(part);
  const count = share & ~SHARED_FORCE;
  if (count === 0) return 'EXCLUSIVE';
  if (share & SHARED_FORCE) return `FORCE:${count}`;
  return count === 1 ? 'NO' : `YES:${count}`;
}
