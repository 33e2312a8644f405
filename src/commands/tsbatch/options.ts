// tsbatch's options: sbatch's table (cli/slurm-opt/job-options.ts). The same table reads the
// command line and the script's #SBATCH words (without --help, --usage, --version and
// tslurm's --cluster); the SBATCH_* variables are a third source (see env-options.ts).
import { commandSpecs } from '../../cli/slurm-opt/job-cli.js';
import type { OptionSpec } from '../../cli/slurm-opt/spec.js';

/** The raw values of one source (command line, environment or #SBATCH lines). */
export interface RawTsbatchOptions {
  jobName?: string;
  partition?: string;
  ntasks?: string;
  nodes?: string;
  cpusPerTask?: string;
  ntasksPerNode?: string;
  mem?: string;
  memPerCpu?: string;
  nodelist?: string;
  exclude?: string;
  constraint?: string;
  gres?: string;
  gpus?: string;
  /** true for a bare --exclusive, else the mode given. */
  exclusive?: string | boolean;
  overcommit?: boolean;
  contiguous?: boolean;
  time?: string;
  output?: string;
  error?: string;
  input?: string;
  chdir?: string;
  export?: string;
  array?: string;
  dependency?: string;
  hold?: boolean;
  begin?: string;
  parsable?: boolean;
  wait?: boolean;
  testOnly?: boolean;
  wrap?: string;
  requeue?: boolean;
  killOnInvalidDep?: string;
  openMode?: string;
  comment?: string;
  reservation?: string;
  quiet?: boolean;
  verbose?: number;
  cluster?: string;
  /** The shared options (account, --signal, ...), checked by cli/job-extras.ts. */
  [key: string]: string | boolean | number | undefined;
}

/** The command line's options under `bin` (tsbatch or sbatch). */
export function tsbatchSpecs(bin: string): OptionSpec[] {
  return commandSpecs('sbatch', bin);
}

/** The #SBATCH words' options: the command line's without help, usage, version and --cluster. */
export function directiveSpecs(): OptionSpec[] {
  return commandSpecs('sbatch', 'sbatch').filter((s) => !['help', 'usage', 'version', 'cluster'].includes(s.key));
}
