// tsbatch's options, with sbatch's names. Values stay raw strings here; request.ts validates
// them with sbatch's own messages. The same definitions read the command line and the
// script's #SBATCH words; the SBATCH_* variables are a third source (see envOptions).
import { Command, Option } from 'commander';
import { addCommonOptions, createProgram } from '../../cli/program.js';

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
  /** "exclusive" for a bare --exclusive (see getopt.ts), else the mode given. */
  exclusive?: string;
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
}

export function addTsbatchOptions(program: Command): Command {
  const option = (flags: string, description: string): Option => new Option(flags, description);
  return program
    .addOption(option('-J, --job-name <name>', 'name of the job (default: the script name)'))
    .addOption(option('-p, --partition <partition>', 'partition to run in'))
    .addOption(option('-n, --ntasks <number>', 'number of tasks the script will start'))
    .addOption(option('-N, --nodes <minnodes[-maxnodes]>', 'number of nodes (a minimum, or min-max)'))
    .addOption(option('-c, --cpus-per-task <ncpus>', 'CPUs each task needs'))
    .addOption(option('--ntasks-per-node <ntasks>', 'tasks on each node'))
    .addOption(option('--mem <size[units]>', 'memory per node (MB, or K/M/G/T suffix)'))
    .addOption(option('--mem-per-cpu <size[units]>', 'memory per allocated CPU'))
    .addOption(option('-w, --nodelist <hosts>', 'nodes the job must use (hostlist)'))
    .addOption(option('-x, --exclude <hosts>', 'nodes the job must not use (hostlist)'))
    .addOption(option('-C, --constraint <list>', 'node features required (a&b, a|b)'))
    .addOption(option('--gres <list>', 'generic resources per node (gpu:2)'))
    .addOption(option('-G, --gpus <[type:]number>', 'GPUs for the whole job'))
    .addOption(option('--exclusive [mode]', 'whole nodes, shared with no other job (--exclusive=user: only with your own jobs)'))
    .addOption(option('-O, --overcommit', 'allow more tasks than CPUs'))
    .addOption(option('--contiguous', 'nodes next to each other'))
    .addOption(option('-t, --time <time>', 'time limit (minutes, MM:SS, HH:MM:SS, D-HH:MM:SS)'))
    .addOption(option('-o, --output <pattern>', 'the script\'s stdout (default slurm-%j.out; %j %x %A %a %N %u %%)'))
    .addOption(option('-e, --error <pattern>', 'the script\'s stderr (default: with stdout)'))
    .addOption(option('-i, --input <pattern>', 'the script\'s stdin (default /dev/null)'))
    .addOption(option('-D, --chdir <directory>', 'working directory of the script'))
    .addOption(option('--export <ALL|NONE|vars>', 'which environment variables the script gets'))
    .addOption(option('-a, --array <indexes>', 'a job array: 0-15, 1,3,5, 0-10:2, with %N to run N at a time'))
    .addOption(option('-d, --dependency <list>', 'wait for other jobs (afterok:12:13, afterany:14, singleton)'))
    .addOption(option('-H, --hold', 'submit held (release with tscontrol release)'))
    .addOption(option('-b, --begin <time>', 'start no earlier than (16:00, now+1hour, 2030-01-31T08:00)'))
    .addOption(option('--parsable', 'print only the job id'))
    .addOption(option('-W, --wait', 'wait for the job to end; exit with its status'))
    .addOption(option('--test-only', 'say when and where the job would run, and submit nothing'))
    .addOption(option('--wrap <command>', 'submit a /bin/sh script that runs this command line'))
    .addOption(option('--requeue', 'the job may be requeued'))
    .addOption(option('--no-requeue', 'the job is never requeued'))
    .addOption(option('--kill-on-invalid-dep <yes|no>', 'end the job when its dependency can never be met'))
    .addOption(option('--open-mode <append|truncate>', 'how output files are opened'))
    .addOption(option('--comment <text>', 'a comment kept with the job'))
    .addOption(option('--reservation <name>', 'run in this advance reservation (its nodes, its window)'))
    .addOption(option('-Q, --quiet', 'say nothing but errors'));
}

/** The options commander keeps outside program.options. */
export const HELP_AND_VERSION: readonly string[] = ['-h', '--help', '-V', '--version'];

/** The command line: sbatch's options, then the script and its arguments, left alone. */
export function tsbatchProgram(bin: string, examples: readonly string[] = []): Command {
  return addTsbatchOptions(addCommonOptions(createProgram(bin, 'Submit a batch script (like sbatch).', examples)))
    .argument('[script]', 'the batch script (read from stdin when neither it nor --wrap is given)')
    .argument('[args...]', "the script's arguments")
    .passThroughOptions();
}

/** The #SBATCH words: the same options (no --help, --version or --cluster), any words after. */
export function directiveProgram(): Command {
  return addTsbatchOptions(new Command('tsbatch'))
    .helpOption(false)
    .exitOverride()
    .configureOutput({ writeOut: () => {}, writeErr: () => {}, outputError: () => {} })
    .option('-v, --verbose', 'more messages', (_v: string, prev: number) => prev + 1, 0)
    .argument('[words...]');
}
