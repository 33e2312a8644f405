// GET /slurm/v0.0.38/jobs and GET /slurm/v0.0.38/job/{job_id}: the controller's jobs, each as
// squeue --json writes it (cli/format/job-data.ts: the v0.0.38 shape, pending array tasks kept
// in one record as slurmctld keeps them). Listings come from tsrestd's copy of the controller's
// list (jobs-mirror.ts), the full one written from kept texts (jobs-listing.ts).
import { buildRecords } from '../../cli/format/squeue-records.js';
import { jobToData } from '../../cli/format/job-data.js';
import { UserError } from '../../core/errors.js';
import type { JobView } from '../../protocol/job-view.js';
import { RestError } from '../errors.js';
import { restMeta } from '../meta.js';
import { pathParam, updateTime, type RestRoute } from '../route.js';
import { jobsListing } from '../jobs-listing.js';
import { jobsMirror } from '../jobs-mirror.js';

export const jobsRoute: RestRoute = {
  method: 'GET',
  path: '/slurm/v0.0.38/jobs',
  operationId: 'slurm_v0_0_38_get_jobs',
  summary: 'get list of jobs',
  parameters: [updateTime],
  response: 'v0.0.38_jobs_response',
  source: 'slurm_load_jobs',
  async handle(request, ctx) {
    const since = Number(request.query.update_time ?? 0);
    if (since <= 0) return jobsListing(ctx);
    const { views } = await jobsMirror(ctx.controller).jobs();
    return { meta: restMeta(), errors: [], jobs: buildRecords(views).filter((rec) => changedSince(rec.members, since)).map((rec) => jobToData(rec, ctx.clusterName)) };
  },
};

export const jobRoute: RestRoute = {
  method: 'GET',
  path: '/slurm/v0.0.38/job/{job_id}',
  operationId: 'slurm_v0_0_38_get_job',
  summary: 'get job info',
  parameters: [pathParam('job_id', 'Slurm JobID')],
  response: 'v0.0.38_jobs_response',
  source: 'slurm_load_job',
  emptyList: 'jobs',
  async handle(request, ctx) {
    const id = request.params.job_id!;
    if (!/^\d+(_\d+)?$/.test(id) || Number.parseInt(id, 10) === 0) {
      throw new RestError('ESLURM_REST_INVALID_JOBS_DESC', `Unable to find JobId=${id}`, '_handle_job_get');
    }
    let views: JobView[];
    try {
      views = await ctx.controller.call<JobView[]>('jobs', { ids: [id] });
    } catch (error) {
      if (error instanceof UserError && error.code === 'ESLURM_INVALID_JOB_ID') throw new RestError('ESLURM_INVALID_JOB_ID', `Unable to find JobId=${id}`, 'slurm_load_job');
      throw error;
    }
    if (views.length === 0) throw new RestError('ESLURM_INVALID_JOB_ID', `Unable to find JobId=${id}`, 'slurm_load_job');
    return { meta: restMeta(), errors: [], jobs: buildRecords(views).map((rec) => jobToData(rec, ctx.clusterName)) };
  },
};

// update_time: only records changed since then. A job changes when it is submitted, becomes
// eligible, starts or ends; those are the times the controller reports.
function changedSince(members: readonly JobView[], since: number): boolean {
  if (since <= 0) return true;
  return members.some((job) => Math.max(job.submitTime, job.eligibleTime, job.startTime, job.endTime) >= since);
}
