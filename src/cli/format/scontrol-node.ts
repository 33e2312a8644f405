// `scontrol show node` for one node, line by line as Slurm 22.05's slurm_sprint_node_table()
// builds it. What only a registered slurmd reports (architecture, OS, load, free memory,
// boot time) comes from the controller, live from the host for the nodes it emulates; when
// nobody reported it, it is printed the way scontrol prints a node that has not told it: left
// out, N/A or None.
import { nodeStateStringComplete } from '../../core/node-state.js';
import { NO_VAL } from '../../core/slurm-constants.js';
import { formatSlurmDate } from '../../core/time-string.js';
import type { NodeInfo } from '../../protocol/node-info.js';
import { nodeAllocTres, nodeTres } from './tres.js';

// slurm.conf's SlurmdPort default; scontrol prints Port= only when a node uses another.
const SLURMD_PORT = 6818;

export function nodeRecordLines(node: NodeInfo): string[] {
  const host = node.host;
  const lines = [
    `NodeName=${node.name}${host ? ` Arch=${host.arch}` : ''} CoresPerSocket=${node.cores} `,
    `CPUAlloc=${node.allocCpus} CPUEfctv=${node.cpus} CPUTot=${node.cpus} CPULoad=${host ? host.cpuLoad.toFixed(2) : 'N/A'}`,
    `AvailableFeatures=${node.features ?? '(null)'}`,
    `ActiveFeatures=${node.features ?? '(null)'}`,
    `Gres=${node.gres ?? '(null)'}`,
    addressLine(node),
    // The OS line ends in a space of its own (observed).
    ...(host ? [`OS=${host.os} `] : []),
    `RealMemory=${node.realMemory} AllocMem=${node.allocMemory} FreeMem=${host ? host.freeMem : 'N/A'} Sockets=${node.sockets} Boards=${node.boards}`,
    `State=${nodeStateStringComplete(node.nodeState)} ThreadsPerCore=${node.threads} TmpDisk=${node.tmpDisk} Weight=${node.weight} Owner=N/A MCS_label=N/A`,
  ];
  if (node.partitions.length > 0) lines.push(`Partitions=${node.partitions.join(',')} `);
  lines.push(
    host ? `BootTime=${formatSlurmDate(host.bootTime)} SlurmdStartTime=${formatSlurmDate(host.slurmdStartTime)}` : 'BootTime=None SlurmdStartTime=None',
    'LastBusyTime=Unknown',
    `CfgTRES=${nodeTres(node)}`,
    `AllocTRES=${nodeAllocTres(node)}`,
    'CapWatts=n/a',
    'CurrentWatts=0 AveWatts=0',
    'ExtSensorsJoules=n/s ExtSensorsWatts=0 ExtSensorsTemp=n/s',
  );
  if (node.reason) lines.push(`Reason=${node.reason}${reasonStamp(node)}`);
  return lines;
}

function addressLine(node: NodeInfo): string {
  let line = `NodeAddr=${node.address} NodeHostName=${node.hostname} `;
  if (node.port !== null && node.port !== SLURMD_PORT) line += `Port=${node.port} `;
  return node.version === null ? line : `${line}Version=${node.version}`;
}

// ` [root@2026-11-22T01:03:32]` when who and when are known.
function reasonStamp(node: NodeInfo): string {
  if (!node.reasonTime) return '';
  const user = node.reasonUid === 0 ? 'root' : node.reasonUid === NO_VAL ? 'Unknown' : String(node.reasonUid);
  return ` [${user}@${formatSlurmDate(node.reasonTime)}]`;
}
