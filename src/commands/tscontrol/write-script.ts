// scontrol write batch_script ID [FILE|-]: the script a batch job was submitted with, written to
// slurm-ID.sh (or FILE, replaced if it exists) with scontrol's confirmation line, or to standard
// output with `-`. A failure is scontrol 22.05's line on stderr, and (observed) exit status 0.
import { writeFileSync } from 'node:fs';
import { UserError } from '../../core/errors.js';
import { callController } from './controller-call.js';

export async function writeBatchScript(words: readonly string[], cluster: string | undefined): Promise<number> {
  const [id, file] = words;
  if (id === undefined) return 0; // scontrol says nothing either
  if (words.length > 2) throw new UserError('too many arguments for keyword:write', { bare: true });
  let script: string;
  try {
    ({ script } = await callController<{ script: string }>(cluster, ['batch_script', { id }], (message) => `job script retrieval failed: ${message}`, 'ESLURM_INVALID_JOB_ID'));
  } catch (error) {
    if (!(error instanceof UserError)) throw error;
    process.stderr.write(`${error.message}\n`);
    return 0;
  }
  if (file === '-') {
    process.stdout.write(script);
    return 0;
  }
  const target = file ?? `slurm-${id}.sh`;
  writeFileSync(target, script);
  process.stdout.write(`batch script for job ${id} written to ${target}\n`);
  return 0;
}
