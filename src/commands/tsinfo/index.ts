// tsinfo (sinfo): nodes and partitions, in sinfo's formats byte for byte.
import { Option } from 'commander';
import { createProgram, addCommonOptions } from '../../cli/program.js';
import { loadClusterInfo } from '../../cli/cluster-info.js';
import { tsinfoParams, type TsinfoOptions } from './params.js';
import { tsinfoReport } from './report.js';

const examples = [
  'tsinfo',
  'tsinfo -N -l',
  "tsinfo -o '%P %.6D %.6t %N'",
  'tsinfo -O partition,nodes,statecompact,nodelist',
  'tsinfo -R',
  'tsinfo -t drain,down -h',
  'tsinfo --json',
];

const USAGE = `Usage: tsinfo [-abdelNRrsTv] [-i seconds] [-t states] [-p partition] [-n nodes]
              [-S fields] [-o format] [-O Format]
`;

export async function run(argv: string[], bin: string): Promise<number> {
  let status = 0;
  const program = addCommonOptions(createProgram(bin, 'Show nodes and partitions (like sinfo).', examples))
    // sinfo's -h is --noheader; help is --help only.
    .helpOption('--help', 'show this help and exit')
    .option('-a, --all', 'show all partitions (tslurm has no hidden ones)')
    .option('-d, --dead', 'only nodes that do not respond')
    .option('-e, --exact', 'group nodes only when their CPUs, memory, ... are the same')
    .option('-h, --noheader', 'no header line')
    .option('--hide', 'do not show hidden partitions (tslurm has none)')
    .option('-i, --iterate <seconds>', 'list again every so many seconds')
    .option('--json', "print the nodes as JSON (Slurm's data_parser shape)")
    .option('--yaml', 'print the nodes as YAML')
    .option('--local', 'only the local cluster (the only one)')
    .option('-l, --long', 'more columns, and the date')
    .option('-n, --nodes <nodes>', 'only these nodes (a hostlist)')
    .option('-N, --Node', 'one line per node')
    .option('-o, --format <format>', "sinfo's %-field format")
    .option('-O, --Format <fields>', 'fields by name: partition,nodes,nodelist,...')
    .option('-p, --partition <partitions>', 'only these partitions (comma-separated)')
    .option('-r, --responding', 'only nodes that respond')
    .option('-R, --list-reasons', 'why nodes are down, drained or failing')
    .option('-s, --summarize', 'one line per partition, node counts by state')
    .option('-S, --sort <fields>', 'sort keys, e.g. "#P,-t"')
    .option('-t, --states <states>', 'only nodes in these states (comma-separated)')
    .option('-T, --reservation', 'show reservations')
    .addOption(new Option('--usage', 'print a short usage line'))
    .allowExcessArguments(true)
    .action(async (options: TsinfoOptions & { usage?: boolean }) => {
      if (options.usage) {
        process.stdout.write(USAGE);
        return;
      }
      status = await list(options, bin);
    });
  await program.parseAsync(argv, { from: 'user' });
  return status;
}

async function list(options: TsinfoOptions, bin: string): Promise<number> {
  const params = tsinfoParams(options, process.env);
  // A reader that stops reading (`tsinfo -i 5 | head`) ends tsinfo quietly: see run-cli.ts.
  // Unknown fields are reported and the listing goes on, as in sinfo.
  for (const message of params.layout.invalid) process.stderr.write(`${bin}: error: ${message}\n`);
  for (;;) {
    const { info } = await loadClusterInfo(options.cluster);
    process.stdout.write(await tsinfoReport(info, params, new Date()));
    if (params.iterate === 0) return 0;
    process.stdout.write('\n');
    await new Promise((resolve) => setTimeout(resolve, params.iterate * 1000));
  }
}
