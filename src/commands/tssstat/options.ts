// tssstat's (sstat's) options: names, letters and argument kinds as sstat 22.05 takes them
// (sstat --help, /work/ref/sstat.txt), descriptions in our own words.
import { commonOptions, infoOptions, option } from '../../cli/slurm-opt/command-cli.js';
import type { OptionSpec } from '../../cli/slurm-opt/spec.js';

export const TSSSTAT_OPTIONS: readonly OptionSpec[] = [
  option('allsteps', 'a', 'none', '', 'every running step of a job named without a step'),
  option('helpformat', 'e', 'none', '', 'list the fields --format takes'),
  option('pidformat', 'i', 'none', '', 'the format JobID,Nodelist,Pids'),
  option('jobs', 'j', 'required', 'job(.step)', 'the steps to show: 12, 12.0, 12.batch (comma-separated)'),
  option('json', '', 'none', '', 'print the steps as JSON'),
  option('noheader', 'n', 'none', '', 'no header lines'),
  option('noconvert', '', 'none', '', 'sizes in bytes, not scaled to K, M, G'),
  option('format', 'o', 'required', 'fields', 'fields to show: JobID,MaxRSS,AveCPU,... (Field%N sets a width)'),
  option('parsable', 'p', 'none', '', "fields separated by '|', one after the last"),
  option('parsable2', 'P', 'none', '', "fields separated by '|', none after the last"),
  ...infoOptions({ shortHelp: true, usage: true }),
  ...commonOptions(),
];
