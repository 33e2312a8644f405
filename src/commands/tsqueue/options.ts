// tsqueue's (squeue's) options: names, letters and argument kinds as squeue 22.05's getopt
// takes them (`-j` and `-s` with an optional argument; `-h` is --noheader, help is --help
// only), metavariables as its --help shows them, descriptions in our own words.
import { commonOptions, hidden, infoOptions, option } from '../../cli/slurm-opt/command-cli.js';
import type { OptionSpec } from '../../cli/slurm-opt/spec.js';

export const TSQUEUE_OPTIONS: readonly OptionSpec[] = [
  option('account', 'A', 'required', 'account(s)', 'only jobs of these accounts (tslurm keeps none)'),
  option('all', 'a', 'none', '', 'jobs in hidden partitions too (tslurm has none)'),
  option('array-unique', '', 'none', '', 'one line per pending array task reason'),
  option('noheader', 'h', 'none', '', 'no header line'),
  option('hide', '', 'none', '', 'do not show jobs in hidden partitions'),
  option('iterate', 'i', 'required', 'seconds', 'list again every so many seconds'),
  option('jobs', 'j', 'optional', 'job(s)', 'only these jobs: 12,13_2'),
  option('json', '', 'none', '', "print every job as JSON (Slurm's data_parser shape)"),
  option('long', 'l', 'none', '', 'more columns, and the date'),
  option('licenses', 'L', 'required', '(license names)', 'only jobs using these licenses (tslurm has none)'),
  option('me', '', 'none', '', 'only my jobs'),
  option('name', 'n', 'required', 'job_name(s)', 'only jobs with these names'),
  option('noconvert', '', 'none', '', 'sizes in the unit given: 2048M, not 2G'),
  option('format', 'o', 'required', 'format', "squeue's %-field format"),
  option('Format', 'O', 'required', 'format', 'fields by name: JobID,Name:20,State,...'),
  option('partitions', 'p', 'required', 'partition(s)', 'only jobs in these partitions'),
  option('priority', 'P', 'none', '', 'one line per partition of a multi-partition job'),
  option('qos', 'q', 'required', 'qos(s)', 'only jobs of these QOS (tslurm has none)'),
  option('reservation', 'R', 'required', 'name', 'only jobs in this reservation'),
  option('array', 'r', 'none', '', 'one array task per line'),
  option('steps', 's', 'optional', 'step(s)', 'job steps, in the default format'),
  option('sort', 'S', 'required', 'fields', 'sort keys, e.g. "P,t,-p"'),
  option('start', '', 'none', '', 'expected start times of pending jobs'),
  option('states', 't', 'required', 'states', "only jobs in these states (PD,R,CG,... or 'all')"),
  option('user', 'u', 'required', 'user_name(s)', 'only jobs of these users'),
  option('nodelist', 'w', 'required', 'hostlist', 'only jobs on these nodes'),
  option('yaml', '', 'none', '', 'print every job as YAML'),
  hidden('users', 'required', 'user'),
  hidden('nodes', 'required', 'nodelist'),
  hidden('node', 'required', 'nodelist'),
  hidden('federation', 'none'),
  hidden('local', 'none'),
  hidden('sibling', 'none'),
  hidden('sib', 'none'),
  ...infoOptions({ shortHelp: false, usage: true }),
  ...commonOptions(),
];
