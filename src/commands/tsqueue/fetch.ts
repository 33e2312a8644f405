// tsqueue's question to the controller. tsqueue never starts one: with no controller running
// on the state directory there are no pending or running jobs, so the listing is empty.
import { UserError } from '../../core/errors.js';
import { connectController } from '../../client/ctld-client.js';
import { cannotLoad, noLocalController } from '../../client/controller-absent.js';
import type { JobView } from '../../protocol/job-view.js';
import type { ClusterConfig } from '../../config/types.js';

export interface FetchOptions {
  config: ClusterConfig;
  stateDir: string;
  clusterFile: string | undefined;
  /** -j with one id: ask for that job (or array) alone, as slurm_load_job() does. */
  singleJob: number | undefined;
}

export async function fetchJobs(options: FetchOptions): Promise<JobView[]> {
  let client;
  try {
    client = await connectController({ config: options.config, stateDir: options.stateDir, clusterFile: options.clusterFile, autostart: false });
  } catch (error) {
    // No controller on the state directory: no jobs. One that cannot be reached: squeue's line.
    if (noLocalController(options.config, error)) return noController(options);
    throw cannotLoad('slurm_load_jobs error:', error);
  }
  try {
    if (options.singleJob === undefined) return await client.call<JobView[]>('jobs', {});
    try {
      return await client.call<JobView[]>('jobs', { ids: [String(options.singleJob)] });
    } catch (error) {
      if (error instanceof UserError && error.code === 'ESLURM_INVALID_JOB_ID') throw invalidJobId();
      throw error;
    }
  } finally {
    client.close();
  }
}

function noController(options: FetchOptions): JobView[] {
  // No controller, no job: one asked for by id is unknown, as the controller would say.
  if (options.singleJob !== undefined) throw invalidJobId();
  return [];
}

// slurm_perror()'s line, without squeue's name in front (observed: `squeue -j 99999`).
function invalidJobId(): UserError {
  return new UserError('slurm_load_jobs error: Invalid job id specified', { bare: true, code: 'ESLURM_INVALID_JOB_ID' });
}
