// tsqueue (squeue): the job queue, in squeue 22.05's formats byte for byte.
import { hostname } from 'node:os';
import { commandInfo, parseArgs, type CommandTexts } from '../../cli/slurm-opt/command-cli.js';
import type { Occurrence } from '../../cli/slurm-opt/spec.js';
import { UserError } from '../../core/errors.js';
import { TSQUEUE_OPTIONS } from './options.js';
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

const usage = (bin: string): string => `Usage: ${bin} [-A account] [--clusters names] [-i seconds] [--job jobid]
              [-n name] [-o format] [-p partitions] [--qos qos]
              [--reservation reservation] [--sort fields] [--start]
              [--step step_id] [-t states] [-u user_name] [--usage]
              [-L licenses] [-w nodes] [--federation] [--local] [--sibling]
\t      [-ahjlrsv]
`;

const texts: CommandTexts = { summary: 'Show the job queue (like squeue).', synopsis: '[OPTIONS]', usage, examples, descriptionColumn: 34 };

type ParsedOptions = TsqueueOptions & { steps?: string | true };

export async function run(argv: string[], bin: string): Promise<number> {
  const parsed = parseArgs(bin, argv, TSQUEUE_OPTIONS);
  if (parsed.info) {
    process.stdout.write(commandInfo(parsed.info, bin, TSQUEUE_OPTIONS, texts));
    return 0;
  }
  const options = { verbose: 0, ...parsed.raw } as ParsedOptions;
  if (options.steps !== undefined) {
    // squeue -s in its default format only: step ids and -o/-O are refused, filters ignored.
    if (options.steps !== true || options.format !== undefined || options.Format !== undefined || parsed.operands.length > 0) {
      throw new UserError('job steps (-s) take no ids, format or further words in this release of tsqueue');
    }
    return steps(options);
  }
  const rest = [...parsed.operands];
  // squeue takes `-j` followed by the ids as a separate word (`squeue -j 12`); a word left
  // over after it is an error, with the usage on stdout.
  if (rest.length > 0 && options.jobs === true) options.jobs = rest.shift();
  if (rest.length > 0) {
    process.stdout.write(usage(bin));
    throw new UserError(`Unrecognized option: ${rest[0]}`);
  }
  return list(options, bin, formatOrder(parsed.options));
}

/** The order -o and -O came in, for squeue's "incompatible" message. */
function formatOrder(options: readonly Occurrence[]): Array<'o' | 'O'> {
  return options.flatMap((o) => (o.spec.key === 'format' ? ['o' as const] : o.spec.key === 'Format' ? ['O' as const] : []));
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
