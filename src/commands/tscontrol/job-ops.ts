// `tscontrol requeue|suspend|resume ID[,ID...]` and `reconfigure`. Each job id
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
    // scontrol reads the id with strtol: text that does not start as a number never reaches
    // the controller (observed on Slurm 22.05: `scontrol resume abc`, `12x`, `1.0`).
    if (!/^[+-]?\d+(_|$)/.test(id)) {
      process.stderr.write(`Invalid job id specified for job ${id}\n`);
      status = 1;
      continue;
    }
    try {
      await callController(cluster, [op, { id }], (message) => `${message} for job ${id}`, absent);
    } catch (error) {
      if (!(error instanceof UserError) || !error.bare) throw error;
      process.stderr.write(`${error.message}\n`);
      status = 1;
    }
  }
  return status;
}

/**
 * scontrol reconfigure: the running controller reads its cluster file again and its plugins
 * their configuration. A setting that waits for a restart is named on stderr; a file that
 * cannot be read (or a change that needs a restart) is the error, and nothing changes.
 */
export async function reconfigure(cluster: string | undefined, bin: string): Promise<number> {
  const client = await openController(cluster, false);
  if (!client) return 0; // nothing runs that could re-read anything
  try {
    const answer = await client.call<{ notes?: string[] }>('reconfigure');
    for (const note of answer.notes ?? []) process.stderr.write(`${bin}: warning: ${note}\n`);
    return 0;
  } finally {
    client.close();
  }
}
