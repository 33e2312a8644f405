// tsalloc's (salloc's) options: names, letters and argument kinds as salloc 22.05 takes them
// (salloc(1), /work/ref/salloc.txt), metavariables as its --help prints them, descriptions in
// our own words. The rows have the shape of the shared srun/sbatch table being built in
// src/cli/slurm-opt (OptionSpec: long, short, arg, meta, help, key), so that once it lands
// salloc's rows there (marked for 'salloc') replace this list and its getopt replaces ours.
// Only options tsalloc acts on are listed; others get getopt's "unrecognized option".

export type ArgKind = 'none' | 'required' | 'optional';

export interface SallocOption {
  long: string;
  short?: string;
  arg: ArgKind;
  meta?: string;
  help: string;
  /** The field the value lands in (camelCase of the long name). */
  key: string;
}

type Row = [long: string, short: string, arg: ArgKind, meta: string, help: string];

const ROWS: Row[] = [
  ['chdir', 'D', 'required', 'path', 'working directory of the command'],
  ['cpus-per-task', 'c', 'required', 'ncpus', 'CPUs each task needs'],
  ['constraint', 'C', 'required', 'list', 'node features required (a&b, a|b)'],
  ['exclude', 'x', 'required', 'hosts', 'nodes the allocation must not use (hostlist)'],
  ['exclusive', '', 'none', '', 'whole nodes, shared with no other job'],
  ['gpus', 'G', 'required', 'n', 'GPUs for the whole allocation'],
  ['gres', '', 'required', 'list', 'generic resources per node (gpu:2)'],
  ['hold', 'H', 'none', '', 'queue the allocation held (scontrol release starts it)'],
  ['immediate', 'I', 'optional', 'secs', 'give up unless the allocation is granted within secs (at once when not given)'],
  ['job-name', 'J', 'required', 'jobname', 'name of the job (default: interactive)'],
  ['kill-command', 'K', 'optional', 'signal', 'signal the command gets when the allocation is revoked (default TERM when given)'],
  ['mem', '', 'required', 'MB', 'memory per node (MB, or K/M/G/T suffix)'],
  ['mem-per-cpu', '', 'required', 'MB', 'memory per allocated CPU'],
  ['nodelist', 'w', 'required', 'hosts', 'nodes the allocation must use (hostlist)'],
  ['nodes', 'N', 'required', 'N', 'number of nodes (a minimum, or min-max)'],
  ['no-shell', '', 'none', '', 'allocate and exit at once, running no command; the allocation stays until cancelled or timed out'],
  ['ntasks', 'n', 'required', 'ntasks', 'number of tasks the allocation is for'],
  ['ntasks-per-node', '', 'required', 'n', 'tasks per node'],
  ['overcommit', 'O', 'none', '', 'allow more tasks than CPUs'],
  ['partition', 'p', 'required', 'partition', 'partition to allocate in'],
  ['quiet', 'Q', 'none', '', 'print no informational messages, errors only'],
  ['reservation', '', 'required', 'name', 'allocate in this advance reservation'],
  ['time', 't', 'required', 'minutes', 'time limit (minutes, MM:SS, HH:MM:SS, D-HH:MM:SS)'],
  ['verbose', 'v', 'none', '', 'more messages; repeat for more'],
  ['help', 'h', 'none', '', 'show this help and exit'],
  ['usage', '', 'none', '', 'show a short usage summary and exit'],
  ['version', 'V', 'none', '', 'print the version and exit'],
  // tslurm's own: the cluster file (Slurm has no equivalent).
  ['cluster', '', 'required', 'file', 'cluster YAML to use (default: $TSLURM_CONF, else the built-in cluster)'],
];

const camel = (long: string): string => long.replace(/-([a-z])/g, (_m, c: string) => c.toUpperCase());

export const SALLOC_OPTIONS: readonly SallocOption[] = ROWS.map(([long, short, arg, meta, help]) => ({
  long,
  ...(short !== '' && { short }),
  arg,
  ...(meta !== '' && { meta }),
  help,
  key: camel(long),
}));

/** salloc's --usage (observed on Slurm 22.05: `salloc --usage`), for the options tsalloc takes. */
export const SALLOC_USAGE = [
  'Usage: salloc [-N numnodes|[min nodes]-[max nodes]] [-n num-processors]',
  '              [-c cpus-per-node] [-p partition] [--hold] [-t minutes]',
  '              [--immediate[=secs]] [-D path] [-J jobname] [--verbose]',
  '              [--exclusive] [--overcommit] [--mem=MB] [--mem-per-cpu=MB] [-C list]',
  '              [--nodelist=hosts] [--exclude=hosts] [--reservation=name]',
  '              [--gres=list] [--gpus=n] [--no-shell] [--kill-command[=signal]]',
  '              [command [args...]]',
];
