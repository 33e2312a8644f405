// A new job for tsrun on the embedded controller (DESIGN.md §3 step 2): the partition and its
// limits checked, then the select plugin's flow — job_test RUN_NOW, TEST_ONLY to tell "never"
// from "not now", job_begin, job_ready. What can never run is refused with Slurm's message
// (Slurm with EnforcePartLimits=ALL); see the README for why we do not queue it forever.
import { UserError } from '../../core/errors.js';
import { errnoName, slurm_strerror } from '../../core/errno.js';
import { INFINITE } from '../../core/slurm-constants.js';
import type { Logger } from '../../core/log.js';
import type { ClusterConfig, PartitionConfig } from '../../config/types.js';
import { NodeTable } from '../../ctld/node-table.js';
import { takeNextJobId } from '../../ctld/id-counters.js';
import { checkKnownToCluster } from '../../ctld/request-checks.js';
import { Select } from '../../interfaces/select.js';
import type { PluginRegistry } from '../../plugin-host/registry.js';
import type { SelectOps } from '../../interfaces/select-defaults.js';
import type { Bitstr } from '../../core/bitstr.js';
import { NODE_STATE_BASE, NODE_STATE_DOWN, NODE_STATE_DRAIN, type job_record_t, type job_resources_t } from '../../plugin-api/records.js';
import { jobRecordFor } from './job-request.js';
import type { StepRequest } from './request.js';

export interface Allocation {
  job: job_record_t;
  resources: job_resources_t;
  partition: PartitionConfig;
  table: NodeTable;
  select: Select;
}

const unable = (code: Parameters<typeof UserError.fromErrno>[0]): UserError => UserError.fromErrno(code, 'Unable to allocate resources');

export async function allocateJob(
  req: StepRequest,
  config: ClusterConfig,
  registry: PluginRegistry,
  log: Logger,
  stateDir: string,
): Promise<Allocation> {
  const partition = choosePartition(req, config, log);
  const table = NodeTable.fromConfig(config);
  checkPartitionLimits(req, partition);
  const plugin = await registry.get('select', config.plugins.select);
  const select = new Select(plugin.module as unknown as SelectOps, { pluginType: plugin.type, stateDir, hookTimeoutMs: registry.timeoutMs });
  await select.init(table.nodes, []);

  const job = withAllocatePrefix(() => {
    const record = jobRecordFor(req, takeNextJobId(stateDir), partition, table, Math.floor(Date.now() / 1000));
    checkKnownToCluster(record, table);
    return record;
  });
  const inPartition = table.partitionBitmap(partition.name)!;
  if (job.details.req_node_bitmap && !job.details.req_node_bitmap.isSubsetOf(inPartition)) {
    throw unable('ESLURM_REQUESTED_NODES_NOT_IN_PARTITION');
  }
  const configured = inPartition.copy();
  if (job.details.exc_node_bitmap) configured.andNot(job.details.exc_node_bitmap);
  if (job.details.req_node_bitmap && job.details.exc_node_bitmap?.overlap(job.details.req_node_bitmap)) {
    throw unable('ESLURM_INVALID_NODE_NAME');
  }
  const usable = configured.copy();
  for (const index of configured.setBits()) {
    const state = table.nodes[index]!.node_state;
    if ((state & NODE_STATE_BASE) === NODE_STATE_DOWN || (state & NODE_STATE_DRAIN) !== 0) usable.clear(index);
  }

  const result = await select.allocate(job, usable, configured);
  if (result.status === 'allocated') {
    return { job: result.job, resources: result.job_resources, partition, table, select };
  }
  if (result.status === 'rejected') {
    if (job.details.pn_min_memory > 0 || job.details.mem_per_cpu > 0) memoryCheck(job, table, configured, log);
    tmpDiskCheck(req, table, configured, log);
    throw rejection(result.rc);
  }
  // Nothing else runs in an embedded cluster, so "not now" means nodes are down or drained:
  // Slurm would wait for them; we say so instead of waiting forever.
  throw unable('ESLURM_NODE_NOT_AVAIL');
}

function choosePartition(req: StepRequest, config: ClusterConfig, log: Logger): PartitionConfig {
  if (req.partition === undefined) {
    const fallback = config.partitions.find((p) => p.isDefault);
    if (!fallback) throw unable('ESLURM_DEFAULT_PARTITION_NOT_SET');
    return fallback;
  }
  const named = config.partitions.find((p) => p.name === req.partition);
  if (!named) {
    // srun prints both lines (observed on Slurm 22.05).
    log.error(`invalid partition specified: ${req.partition}`);
    throw unable('ESLURM_INVALID_PARTITION_NAME');
  }
  return named;
}

function checkPartitionLimits(req: StepRequest, partition: PartitionConfig): void {
  if (partition.state === 'DOWN') throw unable('ESLURM_PARTITION_DOWN');
  if (partition.state === 'INACTIVE' || partition.state === 'DRAIN') throw unable('ESLURM_PARTITION_NOT_AVAIL');
  if (req.timeLimit !== INFINITE && partition.maxTime !== INFINITE && req.timeLimit > partition.maxTime) {
    throw unable('ESLURM_INVALID_TIME_LIMIT');
  }
  if (partition.maxNodes !== INFINITE && (req.minNodes ?? 1) > partition.maxNodes) {
    throw unable('ESLURM_INVALID_NODE_COUNT');
  }
}

/** srun's extra line when no node of the partition has the memory asked for. */
function memoryCheck(job: job_record_t, table: NodeTable, configured: Bitstr, log: Logger): void {
  const perNode = job.details.pn_min_memory || job.details.mem_per_cpu * job.details.cpus_per_task;
  const most = Math.max(0, ...[...configured.setBits()].map((i) => table.nodes[i]!.real_memory));
  if (perNode > most) log.error('Memory specification can not be satisfied');
}

/** srun's extra line when no node of the partition has the TmpDisk --tmp asks for. */
function tmpDiskCheck(req: StepRequest, table: NodeTable, configured: Bitstr, log: Logger): void {
  const most = Math.max(0, ...[...configured.setBits()].map((i) => table.nodes[i]!.tmp_disk ?? 0));
  if ((req.extras.tmpDisk ?? 0) > most) log.error('Temporary disk specification can not be satisfied');
}

function rejection(rc: number): UserError {
  const name = errnoName(rc);
  if (name) return unable(name);
  return new UserError(`Unable to allocate resources: ${slurm_strerror(rc)}`);
}

/** Request errors found while building the job come out as the controller's answer, as srun prints it. */
function withAllocatePrefix<T>(build: () => T): T {
  try {
    return build();
  } catch (error) {
    const code = error instanceof UserError ? error.code : undefined;
    // srun checks gres itself ("Invalid generic resource (gres) specification", no prefix);
    // node names and features are the controller's answer (observed on Slurm 22.05).
    if (code === 'ESLURM_INVALID_NODE_NAME' || code === 'ESLURM_INVALID_FEATURE') throw unable(code);
    throw error;
  }
}
