// Partition settings in the forms Slurm's commands print and sort them.
import type { PartitionInfo } from '../../protocol/node-info.js';
import { DEFAULT_SHARE_COUNT, overSubscribeText } from '../../config/oversubscribe.js';

// slurm.h: PARTITION_SUBMIT 0x01, PARTITION_SCHED 0x02; sinfo sorts on these numbers.
const STATE_UP: Record<PartitionInfo['state'], number> = { INACTIVE: 0, DOWN: 0x01, DRAIN: 0x02, UP: 0x03 };

/** part_ptr->state_up, for sorting. */
export function partitionStateUp(part: PartitionInfo): number {
  return STATE_UP[part.state];
}

// Slurm's part_ptr->max_share: 0 EXCLUSIVE, 1 NO, the count for YES, the count | 0x8000 for FORCE.
const SHARED_FORCE = 0x8000;

/** part_ptr->max_share (sinfo sorts %h on it). */
export function partitionMaxShare(part: PartitionInfo): number {
  const count = part.shareCount ?? DEFAULT_SHARE_COUNT;
  switch (part.oversubscribe) {
    case 'EXCLUSIVE':
      return 0;
    case 'NO':
      return 1;
    case 'YES':
      return count;
    case 'FORCE':
      return SHARED_FORCE | count;
  }
}

/** OverSubscribe= and sinfo %h: `NO`, `YES:4`, `FORCE:8`, `EXCLUSIVE`. */
export function oversubscribeText(part: PartitionInfo): string {
  return overSubscribeText({ oversubscribe: part.oversubscribe, shareCount: part.shareCount ?? DEFAULT_SHARE_COUNT });
}
