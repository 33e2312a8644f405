// scontrol wait_job ID: "Nodes are ready for job ID" once a running job's nodes are ready,
// which for tslurm's nodes is as soon as the job runs. As scontrol 22.05 answers (observed): a
// job not running (pending, or ended) is "Job ID no longer running", an unknown one "Problem
// running job ID", all with exit status 1; the lines go to stderr with the command's prefix.
import { UserError } from '../../core/errors.js';
import { isFinished } from '../../core/job-state.js';
import { JOB_PENDING, JOB_STATE_BASE } from '../../plugin-api/records.js';
import type { JobView } from '../../protocol/job-view.js';
import { openController } from './controller-call.js';

export async function waitJob(words: readonly string[], cluster: string | undefined, bin: string): Promise<number> {
  if (words.length === 0) throw new UserError('too few arguments for keyword:wait_job', { bare: true });
  if (words.length > 1) throw new UserError('too many arguments for keyword:wait_job', { bare: true });
  const id = words[0]!;
  if (!/^\d+$/.test(id)) throw new UserError(`Invalid job_id ${id}`, { bare: true });
  const say = (line: string, status: number): number => {
    process.stderr.write(`${bin}: ${line}\n`);
    return status;
  };
  const client = await openController(cluster, false);
  if (!client) return say(`Problem running job ${id}`, 1);
  let views: JobView[];
  try {
    views = await client.call<JobView[]>('jobs', { ids: [id] });
  } catch (error) {
    if (!(error instanceof UserError)) throw error;
    return say(`Problem running job ${id}`, 1);
  } finally {
    client.close();
  }
  const running = views.some((v) => (v.state & JOB_STATE_BASE) !== JOB_PENDING && !isFinished(v.state));
  return running ? say(`Nodes are ready for job ${id}`, 0) : say(`Job ${id} no longer running`, 1);
}
