// A submission as the record the select plugin reads (job_record_t with job_details_t).
// Node lists are resolved against the node table here, so an unknown node is refused with
// Slurm's "Invalid node name specified" before the job is accepted.
import { INFINITE, NO_VAL } from '../core/slurm-constants.js';
import { buildGresRequest } from './gres-request.js';
import type { NodeTable } from './node-table.js';
import type { Bitstr } from '../core/bitstr.js';
import type { PartitionConfig } from '../config/types.js';
import { JOB_PENDING } from '../plugin-api/records.js';
import type { JobDescriptor } from '../protocol/job-desc.js';
import type { MutableJobRecord } from './job.js';

/** The time limit a job gets: its own, else the partition's DefaultTime, else its MaxTime. */
export function effectiveTimeLimit(requested: number, partition: PartitionConfig): number {
  if (requested !== INFINITE) return requested;
  return partition.defaultTime !== NO_VAL ? partition.defaultTime : partition.maxTime;
}

/**
 * -x's nodes, and those too small for --mincpus (CPUs) or --tmp (TmpDisk): every select
 * plugin already leaves excluded nodes out, so the per-node minimums need nothing of them.
 */
function excludedNodes(desc: JobDescriptor, table: NodeTable): Bitstr | null {
  const excluded = desc.exclude === undefined ? null : table.bitmapFromHostlist(desc.exclude);
  const minCpus = desc.minCpusPerNode ?? 0;
  const minTmp = desc.tmpDisk ?? 0;
  if (minCpus === 0 && minTmp === 0) return excluded;
  const out = excluded ?? table.emptyBitmap();
  for (const node of table.nodes) if (node.cpus < minCpus || (node.tmp_disk ?? 0) < minTmp) out.set(node.index);
  return out;
}

// Slurm's OverSubscribe: FORCE shares every job's cores, YES those of jobs that ask
// --oversubscribe, each core with up to the partition's count of jobs (FORCE:8; 4 by default).
function coreShare(desc: JobDescriptor, partition: PartitionConfig): number {
  if (desc.exclusive) return 1;
  if (partition.oversubscribe === 'FORCE') return partition.shareCount;
  if (partition.oversubscribe === 'YES' && desc.recorded?.['oversubscribe'] !== undefined) return partition.shareCount;
  return 1;
}

/** What of a job's details its partition's OverSubscribe decides: whole nodes, and how many jobs may hold its cores. */
export function partitionSharing(desc: JobDescriptor, partition: PartitionConfig): { whole_node: boolean; max_share?: number } {
  const share = coreShare(desc, partition);
  // OverSubscribe=EXCLUSIVE: every job gets whole nodes.
  return { whole_node: desc.exclusive || partition.oversubscribe === 'EXCLUSIVE', ...(share > 1 && { max_share: share }) };
}

export function jobRecordFromDesc(
  desc: JobDescriptor,
  jobId: number,
  partition: PartitionConfig,
  table: NodeTable,
  submitTime: number,
): MutableJobRecord {
  const gres = buildGresRequest({ gres: desc.gres, gpus: desc.gpus, gpusPerNode: desc.gpusPerNode, gpusPerTask: desc.gpusPerTask });
  const minNodes = desc.minNodes ?? 0;
  const cpusPerTask = desc.cpusPerTask ?? 1;
  const numTasks = desc.ntasks ?? (desc.ntasksPerNode ?? 1) * Math.max(minNodes, 1);
  // --gpus-per-task asks for that many GPUs for each task: the job's whole count, unless
  // --gpus gave one (the select plugins place GPUs per node or per job).
  const perJob = gres.perJob.length > 0 ? gres.perJob : gres.perTask.map((spec) => ({ ...spec, count: spec.count * numTasks }));
  return {
    job_id: jobId,
    name: desc.name,
    user_id: desc.userId,
    group_id: desc.groupId,
    partition: partition.name,
    job_state: JOB_PENDING,
    priority: 1,
    time_limit: effectiveTimeLimit(desc.timeLimit, partition),
    ...(desc.timeMin !== undefined && desc.timeMin > 0 && { time_min: desc.timeMin }),
    submit_time: submitTime,
    start_time: 0,
    end_time: 0,
    gres_list: gres.perNode,
    gres_per_job: perJob,
    node_bitmap: null,
    nodes: null,
    job_resrcs: null,
    details: {
      min_nodes: minNodes,
      max_nodes: desc.maxNodes ?? 0,
      min_cpus: desc.overcommit ? Math.max(minNodes, 1) : numTasks * cpusPerTask,
      num_tasks: desc.ntasks ?? 0,
      cpus_per_task: cpusPerTask,
      ntasks_per_node: desc.ntasksPerNode ?? 0,
      pn_min_memory: desc.memPerNode ?? 0,
      mem_per_cpu: desc.memPerCpu ?? 0,
      req_node_bitmap: desc.nodelist === undefined ? null : table.bitmapFromHostlist(desc.nodelist),
      exc_node_bitmap: excludedNodes(desc, table),
      features: desc.constraint ?? null,
      contiguous: desc.contiguous,
      share_res: desc.exclusive ? false : desc.recorded?.['oversubscribe'] !== undefined ? true : undefined,
      overcommit: desc.overcommit,
      ...(desc.nice !== undefined && desc.nice !== 0 && { nice: desc.nice }),
      ...partitionSharing(desc, partition),
    },
  };
}
