// tsrun's options, with srun's names. Values stay raw strings here; request.ts validates them
// with srun's own messages (commander's wrapped InvalidArgumentError text would not match).
import { Option, type Command } from 'commander';

/** srun's input environment variables (srun(1) "INPUT ENVIRONMENT VARIABLES"): option ← variable. */
const envDefaults: Readonly<Record<string, string>> = {
  ntasks: 'SLURM_NTASKS',
  nodes: 'SLURM_NNODES',
  cpusPerTask: 'SLURM_CPUS_PER_TASK',
  ntasksPerNode: 'SLURM_NTASKS_PER_NODE',
  partition: 'SLURM_PARTITION',
  reservation: 'SLURM_RESERVATION',
  constraint: 'SLURM_CONSTRAINT',
  distribution: 'SLURM_DISTRIBUTION',
  time: 'SLURM_TIMELIMIT',
  jobName: 'SLURM_JOB_NAME',
  mem: 'SLURM_MEM_PER_NODE',
  memPerCpu: 'SLURM_MEM_PER_CPU',
  gpus: 'SLURM_GPUS',
  mpi: 'SLURM_MPI_TYPE',
  export: 'SLURM_EXPORT_ENV',
  chdir: 'SLURM_WORKING_DIR',
  output: 'SLURM_STDOUTMODE',
  error: 'SLURM_STDERRMODE',
  input: 'SLURM_STDINMODE',
};

/** Flags srun also takes from the environment when set (to anything). */
const envFlags: Readonly<Record<string, string>> = {
  label: 'SLURM_LABELIO',
  unbuffered: 'SLURM_UNBUFFEREDIO',
  overcommit: 'SLURM_OVERCOMMIT',
  exclusive: 'SLURM_EXCLUSIVE',
};

export function addTsrunOptions(program: Command): Command {
  const option = (flags: string, description: string, key?: string): Option => {
    const opt = new Option(flags, description);
    const variable = key ? (envDefaults[key] ?? envFlags[key]) : undefined;
    return variable ? opt.env(variable) : opt;
  };
  return program
    .addOption(option('-n, --ntasks <number>', 'number of tasks to run', 'ntasks'))
    .addOption(option('-N, --nodes <minnodes[-maxnodes]>', 'number of nodes (a minimum, or min-max)', 'nodes'))
    .addOption(option('-c, --cpus-per-task <ncpus>', 'CPUs each task needs', 'cpusPerTask'))
    .addOption(option('--ntasks-per-node <ntasks>', 'tasks to start on each node', 'ntasksPerNode'))
    .addOption(option('-p, --partition <partition>', 'partition to run in', 'partition'))
    .addOption(option('--reservation <name>', 'run in this advance reservation (needs a controller)', 'reservation'))
    .addOption(option('-w, --nodelist <hosts>', 'nodes the job must use (hostlist)'))
    .addOption(option('-x, --exclude <hosts>', 'nodes the job must not use (hostlist)'))
    .addOption(option('-C, --constraint <list>', 'node features required (a&b, a|b)', 'constraint'))
    .addOption(option('--mem <size[units]>', 'memory per node (MB, or K/M/G/T suffix)', 'mem'))
    .addOption(option('--mem-per-cpu <size[units]>', 'memory per allocated CPU', 'memPerCpu'))
    .addOption(option('--gres <list>', 'generic resources per node (gpu:2)'))
    .addOption(option('-G, --gpus <[type:]number>', 'GPUs for the whole job', 'gpus'))
    .addOption(option('--exclusive', 'whole nodes, shared with no other job', 'exclusive'))
    .addOption(option('-O, --overcommit', 'allow more tasks than CPUs', 'overcommit'))
    .addOption(option('-m, --distribution <type>', 'task layout: block, cyclic, plane=<size>, arbitrary', 'distribution'))
    .addOption(option('-t, --time <time>', 'time limit (minutes, MM:SS, HH:MM:SS, D-HH:MM:SS)', 'time'))
    .addOption(option('-J, --job-name <name>', 'name of the job', 'jobName'))
    .addOption(option('-l, --label', 'prefix every output line with its task number', 'label'))
    .addOption(option('-o, --output <pattern>', 'where stdout goes (file pattern: %j %J %s %t %n %N %x %u %%)', 'output'))
    .addOption(option('-e, --error <pattern>', 'where stderr goes (file pattern)', 'error'))
    .addOption(option('-i, --input <mode>', 'stdin: all (default), none, a task number, or a file pattern', 'input'))
    .addOption(option('-u, --unbuffered', 'pass output on as it comes, not line by line', 'unbuffered'))
    .addOption(option('--export <ALL|NONE|vars>', 'which environment variables the tasks get', 'export'))
    .addOption(option('-D, --chdir <path>', 'working directory of the tasks', 'chdir'))
    .addOption(new Option('-K, --kill-on-bad-exit [0|1]', 'end the step when any task exits non-zero').env('SLURM_KILL_BAD_EXIT'))
    .addOption(option('--multi-prog', 'the command is a config file giving a program per task'))
    .addOption(option('--mpi <type>', 'MPI plugin to use (--mpi=list lists them)', 'mpi'))
    .addOption(option('--test-only', 'say when and where the job would run, and run nothing'))
    .addOption(option('-Q, --quiet', 'say nothing but errors'));
}

/** The raw values commander hands over (before validation). */
export interface RawTsrunOptions {
  ntasks?: string;
  nodes?: string;
  cpusPerTask?: string;
  ntasksPerNode?: string;
  partition?: string;
  reservation?: string;
  nodelist?: string;
  exclude?: string;
  constraint?: string;
  mem?: string;
  memPerCpu?: string;
  gres?: string;
  gpus?: string;
  exclusive?: boolean;
  overcommit?: boolean;
  distribution?: string;
  time?: string;
  jobName?: string;
  label?: boolean;
  output?: string;
  error?: string;
  input?: string;
  unbuffered?: boolean;
  export?: string;
  chdir?: string;
  killOnBadExit?: string | boolean;
  multiProg?: boolean;
  mpi?: string;
  testOnly?: boolean;
  quiet?: boolean;
  cluster?: string;
  verbose: number;
}
