// A tsrun request as the controller's job record (job_record_t with job_details_t), the
// form the select plugin reads. Node lists are resolved against the node table here, so an
// unknown node is refused with Slurm's "Invalid node name specified" before anything runs.
import path from 'node:path';
import { INFINITE } from '../../core/slurm-constants.js';
import { buildGresRequest } from '../../ctld/gres-request.js';
import type { NodeTable } from '../../ctld/node-table.js';
import type { PartitionConfig } from '../../config/types.js';
import { JOB_PENDING, type job_record_t } from '../../plugin-api/records.js';
import type { StepRequest } from './request.js';

export function jobRecordFor(
  req: StepRequest,
  jobId: number,
  partition: PartitionConfig,
  table: NodeTable,
  now: number,
): job_record_t {
  const gres = buildGresRequest({ gres: req.gres, gpus: req.gpus });
  const minNodes = req.minNodes ?? 0;
  const numTasks = req.ntasks ?? (req.ntasksPerNode ?? 1) * Math.max(minNodes, 1);
  return {
    job_id: jobId,
    // srun's default job name is the program's base name (observed: `srun /usr/bin/env` → env).
    name: req.jobName ?? path.basename(req.command[0] ?? 'tsrun'),
    user_id: process.getuid?.() ?? 0,
    group_id: process.getgid?.() ?? 0,
    partition: partition.name,
    job_state: JOB_PENDING,
    priority: 1,
    time_limit: req.timeLimit === INFINITE ? partition.maxTime : req.timeLimit,
    submit_time: now,
    start_time: 0,
    end_time: 0,
    gres_list: gres.perNode,
    gres_per_job: gres.perJob,
    node_bitmap: null,
    nodes: null,
    job_resrcs: null,
    details: {
      min_nodes: minNodes,
      max_nodes: req.maxNodes ?? 0,
      min_cpus: req.overcommit ? Math.max(minNodes, 1) : numTasks * req.cpusPerTask,
      num_tasks: numTasks,
      cpus_per_task: req.cpusPerTask,
      ntasks_per_node: req.ntasksPerNode ?? 0,
      pn_min_memory: req.memPerNode ?? 0,
      mem_per_cpu: req.memPerCpu ?? 0,
      req_node_bitmap: req.nodelist === undefined ? null : table.bitmapFromHostlist(req.nodelist),
      exc_node_bitmap: req.exclude === undefined ? null : table.bitmapFromHostlist(req.exclude),
      features: req.constraint ?? null,
      contiguous: false,
      share_res: req.exclusive ? false : undefined,
      whole_node: req.exclusive,
      overcommit: req.overcommit,
    },
  };
}
