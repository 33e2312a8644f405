// POST /slurm/v0.0.38/job/submit: `{"script": "...", "job": {...}}` submitted as the
// authenticated user, answered as slurmrestd 22.05 answers (observed): the job id and step
// BATCH; a job submitted held carries slurmctld's ESLURM_JOB_HELD note in `errors`; failures
// name the errno as `error_code`, a missing script with 500, a missing job description with 400.
import { UserError } from '../../core/errors.js';
import { errorEntry, RestError } from '../errors.js';
import { restMeta } from '../meta.js';
import type { RestRoute } from '../route.js';
import { jobDescFromProperties, type JobProperties } from '../convert/job-desc.js';

interface Submission {
  script?: string;
  job?: JobProperties;
}

export const submitRoute: RestRoute = {
  method: 'POST',
  path: '/slurm/v0.0.38/job/submit',
  operationId: 'slurm_v0_0_38_submit_job',
  summary: 'submit new job',
  body: 'v0.0.38_job_submission',
  response: 'v0.0.38_job_submission_response',
  source: 'slurm_submit_batch_job',
  style: 'error_code',
  async handle(request, ctx) {
    const { script, job } = request.body as Submission;
    if (script === undefined) throw new RestError('ESLURM_JOB_SCRIPT_MISSING', 'missing script', 'job submission', { style: 'error_code' });
    if (job === undefined) throw new RestError('ESLURM_REST_INVALID_JOBS_DESC', 'missing job specification field', 'job submission', { style: 'error_code' });
    let desc;
    try {
      desc = jobDescFromProperties(script, job, request.user);
    } catch (error) {
      // A value sbatch's parsers refuse (array, dependency, mail type): its words, as a parse failure.
      if (!(error instanceof UserError)) throw error;
      throw new RestError('ESLURM_REST_FAIL_PARSING', error.message, 'job submission', {
        style: 'error_code',
        before: [{ description: error.message, source: 'job submission' }],
      });
    }
    const answer = await ctx.controller.call<{ jobId: number }>('submit', { desc });
    return {
      meta: restMeta(),
      errors: desc.hold ? [errorEntry('ESLURM_JOB_HELD', 'error_code')] : [],
      job_id: answer.jobId,
      step_id: 'BATCH',
      job_submit_user_msg: '',
    };
  },
};
