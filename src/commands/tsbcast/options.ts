// tsbcast's (sbcast's) options: names, letters and argument kinds as sbcast 22.05's getopt
// takes them (`-C` with an optional argument, attached only), metavariables as its --help
// shows them, descriptions in our own words.
import { commonOptions, infoOptions, option } from '../../cli/slurm-opt/command-cli.js';
import type { OptionSpec } from '../../cli/slurm-opt/spec.js';

export const TSBCAST_OPTIONS: readonly OptionSpec[] = [
  // sbcast's transfer tuning: accepted for compatibility, nothing to tune in a local copy.
  option('compress', 'C', 'optional', 'lib', 'compress the transfer (accepted, no effect here)'),
  option('force', 'f', 'none', '', 'replace the destination file if it exists'),
  option('fanout', 'F', 'required', 'num', 'message fanout (accepted, no effect here)'),
  option('jobid', 'j', 'required', 'id', 'the job (N, N.S or N+0), instead of $SLURM_JOB_ID'),
  option('preserve', 'p', 'none', '', "keep the source's modes and times"),
  option('size', 's', 'required', 'num', 'block size in bytes (accepted, no effect here)'),
  option('timeout', 't', 'required', 'secs', 'message timeout (accepted, no effect here)'),
  ...infoOptions({ shortHelp: true, usage: true }),
  ...commonOptions(),
];

/** What tsbcast's command line gave, by option key (broadcast.ts acts on it). */
export interface TsbcastOptions {
  cluster?: string;
  verbose: number;
  force?: boolean;
  preserve?: boolean;
  jobid?: string;
}
