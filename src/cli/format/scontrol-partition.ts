// `scontrol show partition` for one partition, line by line as Slurm 22.05's
// slurm_sprint_partition_info() builds it; settings tslurm does not have print Slurm's defaults.
import { compressHostlistSorted } from '../../core/hostlist.js';
import { INFINITE, NO_VAL } from '../../core/slurm-constants.js';
import { minsToTimeStr } from '../../core/time-string.js';
import type { PartitionInfo } from '../../protocol/node-info.js';
import { oversubscribeText } from './partition-values.js';
import { partitionTres } from './tres.js';

export function partitionRecordLines(part: PartitionInfo): string[] {
  const defaultTime = part.defaultTime === NO_VAL ? 'NONE' : minsToTimeStr(part.defaultTime);
  const maxNodes = part.maxNodes === INFINITE ? 'UNLIMITED' : String(part.maxNodes);
  const nodes = part.nodes.length > 0 ? compressHostlistSorted(part.nodes) : '(null)';
  const lines = [
    `PartitionName=${part.name}`,
    'AllowGroups=ALL AllowAccounts=ALL AllowQos=ALL',
    `AllocNodes=ALL Default=${part.isDefault ? 'YES' : 'NO'} QoS=N/A`,
    `DefaultTime=${defaultTime} DisableRootJobs=NO ExclusiveUser=NO GraceTime=0 Hidden=NO`,
    `MaxNodes=${maxNodes} MaxTime=${minsToTimeStr(part.maxTime)} MinNodes=${part.minNodes} LLN=NO MaxCPUsPerNode=UNLIMITED`,
    `Nodes=${nodes}`,
    `PriorityJobFactor=1 PriorityTier=${part.priorityTier ?? 1} RootOnly=NO ReqResv=NO OverSubscribe=${oversubscribeText(part)}`,
    `OverTimeLimit=NONE PreemptMode=${part.preemptMode ?? 'OFF'}`,
    `State=${part.state} TotalCPUs=${part.totalCpus} TotalNodes=${part.totalNodes} SelectTypeParameters=NONE`,
    'JobDefaults=(null)',
    'DefMemPerNode=UNLIMITED MaxMemPerNode=UNLIMITED',
  ];
  const tres = partitionTres(part);
  if (tres !== '') lines.push(`TRES=${tres}`);
  return lines;
}
