// How a refused option reads, by getopt's rules as Slurm's commands print it: getopt's line
// after "<bin>: ", then 'Try "<bin> --help" for more information'. srun, sbatch and salloc
// exit 255, squeue, sinfo, scancel and scontrol 1 (observed, /work/ref/option-errors.txt).
// Under a ts name a near miss also gets a "did you mean" line.
import { UserError } from '../../core/errors.js';
import { isSlurmName } from '../slurm-names.js';
import type { GetoptError } from './getopt.js';

export function usageError(bin: string, error: GetoptError, exitCode = 255): UserError {
  const lines = [`${bin}: ${error.message}`];
  if (!isSlurmName(bin) && error.suggestion) lines.push(`${bin}: did you mean '${error.suggestion}'?`);
  lines.push(`Try "${bin} --help" for more information`);
  return new UserError(lines.join('\n'), { bare: true, exitCode });
}
