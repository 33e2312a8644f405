// sacct's SubmitLine: the submitting command line as the user typed it (Slurm joins argv with
// spaces), under the name the command was run by (`sbatch` through the drop-in, or `tsbatch`).
import path from 'node:path';
import { isSlurmName } from './slurm-names.js';

export function submitLine(argv: readonly string[] = process.argv): string {
  const script = path.basename(argv[1] ?? 'tslurm').replace(/\.js$/, '');
  // The drop-in wrappers run as `slurm-name.js sbatch ARGS...`, or as `sbatch` with the name
  // put in again as the first argument.
  const named = script === 'slurm-name' || (argv[2] === script && isSlurmName(script));
  const words = named ? argv.slice(2) : [script, ...argv.slice(2)];
  return words.join(' ');
}
