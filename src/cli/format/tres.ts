// Trackable resources as scontrol prints them (CfgTRES=, TRES=): Slurm's default
// AccountingStorageTRES tracks cpu, mem, node and billing, and billing is the CPU count when
// no TRESBillingWeights are set. Memory goes through convert_num_unit (2000 → 2000M, 65536
// → 64G); counts of zero are left out, as assoc_mgr_make_tres_str_from_array does.
import { formatMemSuffix } from '../../core/memory-size.js';
import type { NodeInfo, PartitionInfo } from '../../protocol/node-info.js';

function tresString(entries: ReadonlyArray<[string, number, boolean?]>): string {
  return entries
    .filter(([, count]) => count > 0)
    .map(([name, count, mem]) => `${name}=${mem ? formatMemSuffix(count) : count}`)
    .join(',');
}

/** A node's CfgTRES: `cpu=4,mem=2000M,billing=4`. */
export function nodeTres(node: NodeInfo): string {
  return tresString([
    ['cpu', node.cpus],
    ['mem', node.realMemory, true],
    ['billing', node.cpus],
  ]);
}

/** The resources allocated on a node (AllocTRES=), empty when none. */
export function nodeAllocTres(node: NodeInfo): string {
  return tresString([
    ['cpu', node.allocCpus],
    ['mem', node.allocMemory, true],
  ]);
}

/** A partition's TRES: `cpu=12,mem=6000M,node=3,billing=12`. */
export function partitionTres(part: PartitionInfo): string {
  return tresString([
    ['cpu', part.totalCpus],
    ['mem', part.totalMemory, true],
    ['node', part.totalNodes],
    ['billing', part.totalCpus],
  ]);
}
