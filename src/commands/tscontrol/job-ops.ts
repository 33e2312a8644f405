// `tscontrol requeue|suspend|resume ID[,ID...]`, `reconfigure` and `show steps`. Each job id
// is asked for on its own and a refusal is printed as scontrol prints it, "<why> for job <id>"
// on stderr (observed on Slurm 22.05), the exit status 1 when any was refused.
import { UserError } from '../../core/errors.js';
import { callController, openController } from './controller-call.js';

export type JobOp = 'requeue' | 'suspend' | 'resume';

export async function jobOp(op: JobOp, words: readonly string[], cluster: string | undefined): Promise<number> {
  const ids = words.flatMap((w) => w.split(',')).filter(Boolean);
  if (ids.length === 0) throw new UserError(`too few arguments for keyword:${op}`);
  // scontrol suspend/resume answer an unknown job with SLURM_UNEXPECTED_MSG_ERROR.
  const absent = op === 'requeue' ? 'ESLURM_INVALID_JOB_ID' : 'SLURM_UNEXPECTED_MSG_ERROR';
  let status = 0;
  for (const id of ids) {
    try {
      await callController(cluster, op, { id }, (message) => `${message} for job ${id}`, absent);
    } catch (error) {
      if (!(error instanceof UserError) || !error.bare) throw error;
      process.stderr.write(`${error.message}\n`);
      status = 1;
    }
  }
  return status;
}

/** scontrol reconfigure: the running controller's plugins re-read their configuration. */
export async function reconfigure(cluster: string | undefined): Promise<number> {
  const client = await openController(cluster, false);
  if (!client) return 0; // nothing runs that could re-read anything
  try {
    await client.call('reconfigure');
    return 0;
  } finally {
    client.close();
  }
}

/**
 * scontrol show steps: the controller does not track steps yet, so there are none. Slurm
 * prints "No job steps in the system" (exit 0), or "Job step 12. not found" (exit 1) for an id.
 */
export function showSteps(words: readonly string[]): number {
  if (words.length > 1) throw new UserError('too many arguments for keyword:show');
  if (words.length === 0) {
    process.stdout.write('No job steps in the system\n');
    return 0;
  }
  const [job, step = ''] = words[0]!.split('.');
  process.stdout.write(`Job step ${job}.${step} not found\n`);
  return 1;
}
