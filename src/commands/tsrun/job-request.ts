// A tsrun request as the controller's job record (job_record_t with job_details_t), the
// form the select plugin reads: the same submission a controller would get (jobDescFor),
// made into a record the same way (jobRecordFromDesc). Node lists are resolved against the
// node table, so an unknown node is refused with Slurm's "Invalid node name specified".
import { jobRecordFromDesc } from '../../ctld/job-from-desc.js';
import type { NodeTable } from '../../ctld/node-table.js';
import type { PartitionConfig } from '../../config/types.js';
import type { job_record_t } from '../../plugin-api/records.js';
import { jobDescFor } from './ctld-request.js';
import type { StepRequest } from './request.js';

export function jobRecordFor(req: StepRequest, jobId: number, partition: PartitionConfig, table: NodeTable, now: number): job_record_t {
  return jobRecordFromDesc(jobDescFor(req), jobId, partition, table, now);
}
