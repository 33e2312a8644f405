// `tscontrol update PartitionName=P [State=UP|DOWN|DRAIN|INACTIVE] [MaxTime=T] [Nodes=LIST]
// [OverSubscribe=NO|EXCLUSIVE|YES[:N]|FORCE[:N]]`,
// checked as scontrol 22.05 checks the words (its messages, observed, down to the
// `slurm_update error: No error` it ends a rejected word with), then done by the controller,
// which it starts if need be: the change must outlive any one command.
import { UserError, UserErrorReport } from '../../core/errors.js';
import { parseTimeToMinutes } from '../../core/time-string.js';
import { scontrolOverSubscribe } from '../../config/oversubscribe.js';
import type { PartitionState } from '../../config/types.js';
import type { PartitionUpdate } from '../../protocol/ctld-messages.js';
import { callController } from './controller-call.js';
import type { Pair } from './update-pairs.js';

const STATES: readonly PartitionState[] = ['UP', 'DOWN', 'DRAIN', 'INACTIVE'];

export async function updatePartition(pairs: readonly Pair[], cluster: string | undefined): Promise<number> {
  const error = (lines: string[]): UserError =>
    new UserErrorReport([...lines.map((l) => (l === '' ? { plain: '' } : { error: l })), { plain: 'slurm_update error: No error' }]);
  const body: PartitionUpdate = { name: '' };
  let changes = 0;
  for (const pair of pairs) {
    if (pair.key === 'partitionname') {
      body.name = pair.value;
      continue;
    }
    changes++;
    if (pair.key === 'state') {
      const state = STATES.find((s) => s === pair.value.toUpperCase());
      if (state === undefined) throw error([`Invalid input: ${pair.word}`, 'Acceptable State values are UP, DOWN, DRAIN and INACTIVE']);
      body.state = state;
    } else if (pair.key === 'maxtime') {
      try {
        body.maxTime = parseTimeToMinutes(pair.value, 'MaxTime');
      } catch {
        throw error([`Invalid input ${pair.word}`]);
      }
    } else if (pair.key === 'nodes') {
      body.nodes = pair.value;
    } else if (pair.key === 'oversubscribe' || pair.key === 'shared') {
      // scontrol takes Shared= too, OverSubscribe's older name.
      const setting = scontrolOverSubscribe(pair.value);
      if (setting === undefined) throw error([`Invalid input: ${pair.word}`, 'Acceptable OverSubscribe values are NO, EXCLUSIVE, YES:#, and FORCE:#']);
      body.oversubscribe = setting.oversubscribe;
      body.shareCount = setting.shareCount;
    } else {
      throw error([`Update of this parameter is not supported: ${pair.word}`, '', 'Request aborted']);
    }
  }
  if (changes === 0) throw new UserError('No changes specified');
  await callController(cluster, ['update_partition', body], (message) => `slurm_update error: ${message}`, 'start');
  return 0;
}
