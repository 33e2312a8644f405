// tsacct's (sacct's) options: names, letters and argument kinds as sacct 22.05's getopt takes
// them (`-h` is --help, `-n` --noheader, `-N` --nodelist), descriptions in our own words.
import { commonOptions, hidden, infoOptions, option } from '../../cli/slurm-opt/command-cli.js';
import type { OptionSpec } from '../../cli/slurm-opt/spec.js';

export const TSACCT_OPTIONS: readonly OptionSpec[] = [
  option('allusers', 'a', 'none', '', 'jobs of every user (root sees them all anyway)'),
  option('accounts', 'A', 'required', 'account_list', 'only jobs charged to these accounts'),
  option('brief', 'b', 'none', '', 'only JobID, State and ExitCode'),
  option('delimiter', '', 'required', 'characters', 'what separates fields with -p or -P (default "|")'),
  option('helpformat', 'e', 'none', '', 'list the fields --format takes'),
  option('endtime', 'E', 'required', 'time', 'jobs submitted before this time (default: now)'),
  option('jobs', 'j', 'required', 'job(.step)', 'only these jobs or steps: 7,8_2,9.batch,10.0'),
  option('json', '', 'none', '', "print the jobs as JSON (Slurm's data_parser shape)"),
  option('long', 'l', 'none', '', "sacct's long list of fields"),
  option('name', '', 'required', 'jobname_list', 'only jobs with these names'),
  option('noheader', 'n', 'none', '', 'no header lines'),
  option('nodelist', 'N', 'required', 'node_list', 'only jobs that ran on these nodes'),
  option('noconvert', '', 'none', '', 'sizes in the unit they are kept in (KiB, MiB), unscaled'),
  option('format', 'o', 'required', 'field_list', 'fields to print: JobID,State,Elapsed,MaxRSS%12,...'),
  option('parsable', 'p', 'none', '', 'fields separated by "|", one after the last too'),
  option('parsable2', 'P', 'none', '', 'fields separated by "|", none after the last'),
  option('partition', 'r', 'required', 'partition_list', 'only jobs of these partitions'),
  option('state', 's', 'required', 'state_list', 'only jobs in these states within the window (CD,F,CA,TO,OOM,R,PD,...)'),
  option('starttime', 'S', 'required', 'time', 'jobs that had not ended by this time (default: midnight today)'),
  option('user', 'u', 'required', 'user_list', 'only jobs of these users (names or uids)'),
  option('units', '', 'required', '[KMGTP]', 'sizes in this unit'),
  option('allocations', 'X', 'none', '', 'jobs only, not their steps'),
  option('yaml', '', 'none', '', 'print the jobs as YAML'),
  hidden('uid', 'required', 'user'),
  hidden('local', 'none'),
  hidden('fields', 'required', 'format'),
  ...infoOptions({ shortHelp: true, usage: true }),
  ...commonOptions(),
];
