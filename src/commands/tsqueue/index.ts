// tsqueue (squeue): the job queue, in squeue 22.05's formats byte for byte.
import { Option } from 'commander';
import { hostname } from 'node:os';
import { createProgram, addCommonOptions } from '../../cli/program.js';
import { expandLongOptions, getoptError } from '../../cli/getopt-long.js';
import { UserError } from '../../core/errors.js';
import { tsqueueParams, type TsqueueOptions } from './params.js';

const examples = [
  'tsqueue',
  'tsqueue -u $USER -t PD,R',
  'tsqueue -j 12 -h -o %T               # the state of one job, for a script',
  "tsqueue -o '%.10i %.9P %.20j %.2t %.10M %R'",
  'tsqueue -O JobID,Name:20,State,TimeLeft',
  'tsqueue -r                           # array tasks one per line',
  'tsqueue -l -i 5',
  'tsqueue --json',
];

// getopt_long() lets every long option be abbreviated; these are squeue's (and ours).
const LONG_NAMES = [
  'account', 'all', 'array', 'array-unique', 'cluster', 'federation', 'Format', 'format', 'help', 'hide', 'iterate',
  'jobs', 'json', 'local', 'long', 'licenses', 'me', 'name', 'noconvert', 'node', 'nodes', 'nodelist', 'noheader',
  'partitions', 'priority', 'qos', 'reservation', 'sib', 'sibling', 'sort', 'start', 'steps', 'states', 'usage',
  'user', 'users', 'verbose', 'version', 'yaml',
];

const usage = (bin: string): string => `Usage: ${bin} [-A account] [--clusters names] [-i seconds] [--job jobid]
              [-n name] [-o format] [-p partitions] [--qos qos]
              [--reservation reservation] [--sort fields] [--start]
              [--step step_id] [-t states] [-u user_name] [--usage]
              [-L licenses] [-w nodes] [--federation] [--local] [--sibling]
\t      [-ahjlrsv]
`;

type ParsedOptions = TsqueueOptions & { users?: string; nodes?: string; node?: string; usage?: boolean; steps?: string | true };

export async function run(argv: string[], bin: string): Promise<number> {
  const args = expandLongOptions(argv, LONG_NAMES);
  let status = 0;
  const hidden = (flags: string, description = ''): Option => new Option(flags, description).hideHelp();
  const program = addCommonOptions(createProgram(bin, 'Show the job queue (like squeue).', examples))
    // squeue's -h is --noheader; help is --help only.
    .helpOption('--help', 'show this help and exit')
    .option('-A, --account <accounts>', 'only jobs of these accounts (tslurm keeps none)')
    .option('-a, --all', 'jobs in hidden partitions too (tslurm has none)')
    .option('-r, --array', 'one array task per line')
    .option('--array-unique', 'one line per pending array task reason')
    .option('-h, --noheader', 'no header line')
    .option('--hide', 'do not show jobs in hidden partitions')
    .option('-i, --iterate <seconds>', 'list again every so many seconds')
    .option('-j, --jobs [jobs]', 'only these jobs: 12,13_2')
    .option('--json', "print every job as JSON (Slurm's data_parser shape)")
    .option('--yaml', 'print every job as YAML')
    .option('-l, --long', 'more columns, and the date')
    .option('-L, --licenses <names>', 'only jobs using these licenses (tslurm has none)')
    .option('--me', 'only my jobs')
    .option('-n, --name <names>', 'only jobs with these names')
    .option('--noconvert', 'sizes in the unit given: 2048M, not 2G')
    .option('-o, --format <format>', "squeue's %-field format")
    .option('-O, --Format <fields>', 'fields by name: JobID,Name:20,State,...')
    .option('-p, --partitions <partitions>', 'only jobs in these partitions')
    .option('-P, --priority', 'one line per partition of a multi-partition job')
    .option('-q, --qos <qos>', 'only jobs of these QOS (tslurm has none)')
    .option('-R, --reservation <name>', 'only jobs in this reservation')
    .option('-s, --steps [steps]', 'job steps, in the default format')
    .option('-S, --sort <fields>', 'sort keys, e.g. "P,t,-p"')
    .option('--start', 'expected start times of pending jobs')
    .option('-t, --states <states>', "only jobs in these states (PD,R,CG,... or 'all')")
    .option('-u, --user <users>', 'only jobs of these users')
    .option('-w, --nodelist <hostlist>', 'only jobs on these nodes')
    .addOption(hidden('--users <users>'))
    .addOption(hidden('--nodes <hostlist>'))
    .addOption(hidden('--node <hostlist>'))
    .addOption(hidden('--federation'))
    .addOption(hidden('--local'))
    .addOption(hidden('--sibling'))
    .addOption(hidden('--sib'))
    .addOption(new Option('--usage', 'print a short usage line'))
    .allowExcessArguments(true)
    .action(async (options: ParsedOptions) => {
      if (options.usage) {
        process.stdout.write(usage(bin));
        return;
      }
      if (options.steps !== undefined) {
        // squeue -s in its default format only: step ids and -o/-O are refused, filters ignored.
        if (options.steps !== true || options.format !== undefined || options.Format !== undefined || program.args.length > 0) {
          throw new UserError('job steps (-s) take no ids, format or further words in this release of tsqueue');
        }
        status = await steps(options);
        return;
      }
      const rest = [...program.args];
      // squeue takes `-j` followed by the ids as a separate word (`squeue -j 12`), as
      // commander does; a word left over after it is an error, with the usage on stdout.
      if (rest.length > 0 && options.jobs === true) options.jobs = rest.shift();
      if (rest.length > 0) {
        process.stdout.write(usage(bin));
        throw new UserError(`Unrecognized option: ${rest[0]}`);
      }
      status = await list(
        { ...options, user: options.user ?? options.users, nodelist: options.nodelist ?? options.nodes ?? options.node },
        bin,
        formatOrder(args),
      );
    });
  try {
    await program.parseAsync(args, { from: 'user' });
  } catch (error) {
    throw getoptError(bin, error, args) ?? error;
  }
  return status;
}

function formatOrder(args: readonly string[]): Array<'o' | 'O'> {
  return args.flatMap((a) => (/^(-o|--format)/.test(a) ? ['o' as const] : /^(-O|--Format)/.test(a) ? ['O' as const] : []));
}

async function list(options: TsqueueOptions, bin: string, order: Array<'o' | 'O'>): Promise<number> {
  const [{ loadCluster }, { resolveStateDir }, { listJobs }] = await Promise.all([
    import('../../config/load.js'),
    import('../../config/state-dir.js'),
    import('./list.js'),
  ]);
  const config = await loadCluster({ file: options.cluster });
  const params = tsqueueParams(options, {
    bin,
    env: process.env,
    formatOrder: order,
    nodeNames: config.nodes.map((n) => n.name),
    hostname: hostname().split('.')[0]!,
    euid: process.geteuid?.() ?? 0,
  });
  return listJobs(params, {
    bin,
    cluster: config.clusterName,
    config,
    stateDir: resolveStateDir(config),
    clusterFile: config.source.startsWith('/') ? config.source : undefined,
  });
}

async function steps(options: TsqueueOptions): Promise<number> {
  const [{ loadCluster }, { resolveStateDir }, { listSteps }] = await Promise.all([
    import('../../config/load.js'),
    import('../../config/state-dir.js'),
    import('./steps.js'),
  ]);
  const config = await loadCluster({ file: options.cluster });
  const clusterFile = config.source.startsWith('/') ? config.source : undefined;
  return listSteps({ config, stateDir: resolveStateDir(config), clusterFile, header: !options.noheader });
}
