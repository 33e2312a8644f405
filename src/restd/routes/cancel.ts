// DELETE /slurm/v0.0.38/job/{job_id}[?signal=NAME]: as slurmrestd 22.05's slurm_kill_job2
// with KILL_FULL_JOB: no signal (or KILL) cancels the job, another signal goes to the whole
// job (its batch shell, what that started, and its steps), as `tscancel -f -s` sends it. The
// authenticated user must own the job (or be an administrator); a job already ended is success.
import { constants } from 'node:os';
import { UserError } from '../../core/errors.js';
import { RestError } from '../errors.js';
import { restMeta } from '../meta.js';
import { pathParam, type RestRoute } from '../route.js';
import { COMPONENTS } from '../openapi/components.js';

interface CancelResult {
  results: Array<{ id: string; error?: { message: string; code?: string } }>;
}

export const cancelRoute: RestRoute = {
  method: 'DELETE',
  path: '/slurm/v0.0.38/job/{job_id}',
  operationId: 'slurm_v0_0_38_cancel_job',
  summary: 'cancel or signal job',
  parameters: [
    pathParam('job_id', 'Slurm Job ID'),
    { name: 'signal', in: 'query', description: 'signal to send to job', schema: COMPONENTS['v0.0.38_signal']! },
  ],
  response: 'v0.0.38_meta_errors',
  source: 'slurm_kill_job',
  async handle(request, ctx) {
    const id = request.params.job_id!;
    const name = request.query.signal as string | undefined;
    const number = name === undefined ? constants.signals.SIGKILL : constants.signals[`SIG${name}` as NodeJS.Signals];
    const result = await ctx.controller.call<CancelResult>('cancel', {
      ids: [id],
      userId: request.user.uid,
      ...(number !== constants.signals.SIGKILL && { signal: number, scope: 'full' as const }),
    });
    const error = result.results[0]?.error;
    // An ended job is not an error here (slurmrestd: "Already signaled jobs are considered a success").
    if (error && error.code !== 'ESLURM_ALREADY_DONE') {
      const failure = new UserError(error.message, error.code ? { code: error.code as never } : {});
      throw new RestError(failure.code ?? 'SLURM_ERROR', `unable to kill JobId=${id} with signal ${number}: ${error.message}`, 'slurm_kill_job');
    }
    return { meta: restMeta(), errors: [] };
  },
};
