// tscontrol's (scontrol's) global options: names, letters and argument kinds as scontrol
// 22.05's getopt takes them (before or after the command: it permutes), descriptions in our
// own words. --json and --yaml are tslurm's (scontrol 22.05 has neither).
import { commonOptions, infoOptions, option } from '../../cli/slurm-opt/command-cli.js';
import type { OptionSpec } from '../../cli/slurm-opt/spec.js';

export const TSCONTROL_OPTIONS: readonly OptionSpec[] = [
  option('all', 'a', 'none', '', 'every partition, hidden ones too (tslurm hides none)'),
  option('details', 'd', 'none', '', 'more details (jobs: allocated CPUs and memory per node); repeat for more', { counts: true }),
  option('future', 'F', 'none', '', 'include nodes in the FUTURE state'),
  option('clusters', 'M', 'required', 'name', 'the cluster to talk to (only the one in use is reachable)'),
  option('oneliner', 'o', 'none', '', 'one line per record'),
  option('quiet', 'Q', 'none', '', 'print no error messages, only the exit status tells'),
  option('json', '', 'none', '', 'print data as JSON (a tslurm extension: scontrol 22.05 has no --json)'),
  option('yaml', '', 'none', '', 'print data as YAML (a tslurm extension)'),
  ...infoOptions({ shortHelp: true, usage: false }),
  ...commonOptions(),
];

/** The commands, listed after the options by --help. */
export const TSCONTROL_COMMANDS = [
  'Commands:',
  '  show job [ID] | node [NODES] | partition [NAME] | step [ID] | reservation [NAME] | topology',
  '       | daemons | config | plugins | hostnames LIST | hostlist LIST | hostlistsorted LIST',
  '  update Key=Value...      (NodeName=, PartitionName=, JobId=)',
  '  create reservation Key=Value... | delete ReservationName=NAME',
  '  hold | uhold | release | requeue | suspend | resume JOB_ID...',
  '  wait_job JOB_ID | listpids JOB_ID',
  '  write batch_script JOB_ID [FILE|-] | write config [FILE|-]',
  '  reconfigure | ping | version',
  '  token [lifespan=SECONDS] [username=NAME]   (for tsrestd: prints SLURM_JWT=...)',
];
