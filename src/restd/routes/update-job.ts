// POST /slurm/v0.0.38/job/{job_id} with a v0.0.38_job_properties body: slurmrestd 22.05's
// "update job" (slurm_update_job). tsrestd acts on `hold` alone, what the dashboard's Hold and
// Release send: `hold: true` sets the priority to 0 as slurmrestd does (an administrator's
// hold when an administrator asks, as slurmctld's update_job makes it); `hold: false` releases,
// which slurmrestd 22.05 ignores (a difference: it has no release). Any other field is refused
// by name, rather than accepted and not applied. The body is checked here, not by the
// v0.0.38_job_properties schema, which requires the `environment` a submission needs.
import { UserError } from '../../core/errors.js';
import { RestError } from '../errors.js';
import { restMeta } from '../meta.js';
import { pathParam, type RestRoute } from '../route.js';

export const updateJobRoute: RestRoute = {
  method: 'POST',
  path: '/slurm/v0.0.38/job/{job_id}',
  operationId: 'slurm_v0_0_38_update_job',
  summary: 'update job',
  parameters: [pathParam('job_id', 'Slurm Job ID')],
  response: 'v0.0.38_meta_errors',
  source: 'slurm_update_job',
  async handle(request, ctx) {
    const id = request.params.job_id!;
    const body = (request.body ?? {}) as Record<string, unknown>;
    const other = Object.keys(body).filter((key) => key.toLowerCase() !== 'hold');
    if (other.length > 0) throw new RestError('ESLURM_REST_INVALID_QUERY', `tsrestd updates only hold, not ${other.join(', ')}`, 'slurm_update_job', { status: 400 });
    const hold = Object.entries(body).find(([key]) => key.toLowerCase() === 'hold')?.[1];
    if (typeof hold !== 'boolean') throw new RestError('ESLURM_REST_INVALID_QUERY', 'hold (true or false) is required', 'slurm_update_job', { status: 400 });
    try {
      if (hold) await ctx.controller.call('hold', { ids: [id], userId: request.user.uid, admin: true });
      else await ctx.controller.call('release', { ids: [id], userId: request.user.uid });
    } catch (error) {
      if (!(error instanceof UserError)) throw error;
      throw new RestError(error.code ?? 'SLURM_ERROR', `unable to update JobId=${id}: ${error.message}`, 'slurm_update_job');
    }
    return { meta: restMeta(), errors: [] };
  },
};
