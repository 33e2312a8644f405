// tsinfo's (sinfo's) options: names, letters and argument kinds as sinfo 22.05's getopt takes
// them (`-h` is --noheader; help is --help only), metavariables as its --help shows them,
// descriptions in our own words.
import { commonOptions, infoOptions, option } from '../../cli/slurm-opt/command-cli.js';
import type { OptionSpec } from '../../cli/slurm-opt/spec.js';

export const TSINFO_OPTIONS: readonly OptionSpec[] = [
  option('all', 'a', 'none', '', 'show all partitions (tslurm has no hidden ones)'),
  option('dead', 'd', 'none', '', 'only nodes that do not respond'),
  option('exact', 'e', 'none', '', 'group nodes only when their CPUs, memory, ... are the same'),
  option('noheader', 'h', 'none', '', 'no header line'),
  option('hide', '', 'none', '', 'do not show hidden partitions (tslurm has none)'),
  option('iterate', 'i', 'required', 'seconds', 'list again every so many seconds'),
  option('json', '', 'none', '', "print the nodes as JSON (Slurm's data_parser shape)"),
  option('local', '', 'none', '', 'only the local cluster (the only one)'),
  option('long', 'l', 'none', '', 'more columns, and the date'),
  option('nodes', 'n', 'required', 'NODES', 'only these nodes (a hostlist)'),
  option('Node', 'N', 'none', '', 'one line per node'),
  option('format', 'o', 'required', 'format', "sinfo's %-field format"),
  option('Format', 'O', 'required', 'format', 'fields by name: partition,nodes,nodelist,...'),
  option('partition', 'p', 'required', 'PARTITION', 'only these partitions (comma-separated)'),
  option('responding', 'r', 'none', '', 'only nodes that respond'),
  option('list-reasons', 'R', 'none', '', 'why nodes are down, drained or failing'),
  option('summarize', 's', 'none', '', 'one line per partition, node counts by state'),
  option('sort', 'S', 'required', 'fields', 'sort keys, e.g. "#P,-t"'),
  option('states', 't', 'required', 'node_state', 'only nodes in these states (comma-separated)'),
  option('reservation', 'T', 'none', '', 'show reservations'),
  option('yaml', '', 'none', '', 'print the nodes as YAML'),
  ...infoOptions({ shortHelp: false, usage: true }),
  ...commonOptions(),
];
