// tscancel's (scancel's) options: names, letters and argument kinds as scancel 22.05's
// getopt takes them, metavariables as its --help shows them, descriptions in our own words.
import { commonOptions, hidden, infoOptions, option } from '../../cli/slurm-opt/command-cli.js';
import type { OptionSpec } from '../../cli/slurm-opt/spec.js';

export const TSCANCEL_OPTIONS: readonly OptionSpec[] = [
  option('batch', 'b', 'none', '', 'with -s: signal the batch shell alone, not its children or the steps'),
  option('full', 'f', 'none', '', 'with -s: signal the batch shell, everything it started and the steps'),
  option('name', 'n', 'required', 'job_name', 'only jobs with this name (also --jobname)'),
  hidden('jobname', 'required', 'name'),
  option('partition', 'p', 'required', 'partition', 'only jobs in this partition'),
  option('quiet', 'Q', 'none', '', 'no messages about jobs already ended'),
  option('signal', 's', 'required', 'name | integer', 'send this signal instead of cancelling (name or number)'),
  option('state', 't', 'required', 'states', 'only jobs in this state: PENDING, RUNNING or SUSPENDED'),
  option('user', 'u', 'required', 'user_name', 'only jobs of this user'),
  option('nodelist', 'w', 'required', 'hosts', 'only jobs using these nodes'),
  ...infoOptions({ shortHelp: true, usage: false }),
  ...commonOptions(),
];

/** What tscancel's command line gave, by option key (cancel.ts acts on it). */
export interface TscancelOptions {
  cluster?: string;
  verbose: number;
  quiet?: boolean;
  user?: string;
  name?: string;
  partition?: string;
  state?: string;
  signal?: string;
  batch?: boolean;
  full?: boolean;
  nodelist?: string;
}
