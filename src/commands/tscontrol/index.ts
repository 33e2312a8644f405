// tscontrol (scontrol): view and change the cluster: `show job|node|partition|steps|config`
// (nodes live from the controller when one runs), `update`, the job verbs, `reconfigure`,
// `ping`, `show plugins` and the hostlist helpers.
import { createProgram, addCommonOptions } from '../../cli/program.js';
import { countVerbose } from '../../cli/debug.js';
import { UserError } from '../../core/errors.js';
import { createLogger, levelFromVerbosity } from '../../core/log.js';
import { showHostlist, type HostlistEntity } from './show-hostlist.js';
import { clusterEntity } from './show-cluster.js';

const examples = [
  'tscontrol show partition',
  'tscontrol show node node1',
  'tscontrol -o show nodes',
  "tscontrol show hostnames 'n[01-03],m7'",
  'tscontrol show hostlist n01,n02,n03,m7',
  'tscontrol show plugins',
  'tscontrol show job 42',
  'tscontrol hold 42; tscontrol release 42',
  'tscontrol update NodeName=node2 State=DRAIN Reason="disk swap"',
  'tscontrol update NodeName=node2 State=RESUME',
  'tscontrol update JobId=42 TimeLimit=30 Partition=small',
  'tscontrol requeue 42; tscontrol suspend 43; tscontrol resume 43',
  'tscontrol create reservation ReservationName=r1 StartTime=now Duration=60 Nodes=node1 Users=$USER',
  'tscontrol show reservation; tscontrol delete ReservationName=r1',
  'TSLURM_PLUGIN_DIR=./my-plugins tscontrol show plugins --json',
];

interface Options {
  cluster?: string;
  verbose: number;
  json?: boolean;
  oneliner?: boolean;
  future?: boolean;
}

export async function run(argv: string[], bin: string): Promise<number> {
  let status = 0;
  const program = addCommonOptions(createProgram(bin, 'View the cluster and its plugins (like scontrol).', examples))
    .option('--json', 'print data as JSON')
    .option('-o, --oneliner', 'one line per record')
    .option('-F, --future', 'include nodes in the FUTURE state')
    .argument('<command>', 'show | update | create | delete | hold | uhold | release | requeue | suspend | resume | reconfigure | ping')
    .argument(
      '[words...]',
      'job ids (hold, release, ...), Key=Value words (update, create reservation, delete), or what to show: job [ID] | node [NODES] | partition [NAME] | reservation [NAME] | steps | config | plugins | hostnames LIST | hostlist LIST | hostlistsorted LIST',
    )
    .action(async (command: string, words: string[], options: Options) => {
      status = await dispatch(bin, command, words, options, argv);
    });
  await program.parseAsync(argv, { from: 'user' });
  return status;
}

async function dispatch(bin: string, command: string, words: string[], options: Options, argv: string[]): Promise<number> {
  const verb = command.toLowerCase();
  if (verb === 'hold' || verb === 'uhold' || verb === 'release') {
    const { changeJobs } = await import('./jobs.js');
    return changeJobs(verb, words.flatMap((w) => w.split(',')).filter(Boolean), options.cluster);
  }
  if (verb === 'update') {
    const { update } = await import('./update.js');
    return update(words, options.cluster);
  }
  if (verb === 'requeue' || verb === 'suspend' || verb === 'resume') {
    const { jobOp } = await import('./job-ops.js');
    return jobOp(verb, words, options.cluster);
  }
  if (verb === 'reconfigure') {
    const { reconfigure } = await import('./job-ops.js');
    return reconfigure(options.cluster);
  }
  if (verb === 'create' || verb === 'delete') {
    const resv = await import('./reservations.js');
    if (verb === 'delete') return resv.deleteReservation(words, options.cluster);
    const [what = '', ...rest] = words;
    if (!/^res/i.test(what)) throw new UserError(`invalid keyword: ${what}`);
    return resv.createReservation(rest, options.cluster, bin);
  }
  if (verb === 'write') return (await import('./write-config.js')).writeConfig(words, options.cluster);
  if (verb === 'ping') {
    const { ping } = await import('./jobs.js');
    return ping(options.cluster);
  }
  if (verb !== 'show') {
    throw new UserError(`invalid keyword: ${command}`);
  }
  const [entity = '', ...rest] = words;
  const key = entity.toLowerCase();
  if (key === 'job' || key === 'jobs' || key === 'jobid') {
    const { showJobs } = await import('./jobs.js');
    return showJobs(rest, { cluster: options.cluster, json: Boolean(options.json), oneliner: Boolean(options.oneliner) });
  }
  if (key.length >= 3 && 'reservations'.startsWith(key)) {
    const { showReservations } = await import('./reservations.js');
    return showReservations(rest, { cluster: options.cluster, json: Boolean(options.json), oneliner: Boolean(options.oneliner) });
  }
  if (key === 'step' || key === 'steps') {
    const { showSteps } = await import('./show-steps.js');
    return showSteps(rest, { cluster: options.cluster, oneliner: Boolean(options.oneliner) });
  }
  if (key === 'hostnames' || key === 'hostlist' || key === 'hostlistsorted') {
    const result = showHostlist(key as HostlistEntity, rest, process.env);
    process.stdout.write(result.stdout);
    if (result.error) process.stderr.write(`${bin}: error: ${result.error}\n`);
    return result.exitCode;
  }
  if (key === 'plugins' || key === 'plugin') {
    const log = createLogger(bin, levelFromVerbosity(countVerbose(argv)));
    const { loadCluster } = await import('../../config/load.js');
    const config = await loadCluster({ file: options.cluster });
    const { collectPlugins, formatPluginTable } = await import('./show-plugins.js');
    const { rows, failed } = await collectPlugins(config, log);
    process.stdout.write(options.json ? `${JSON.stringify({ plugins: rows }, null, 2)}\n` : formatPluginTable(rows));
    // A plugin the cluster is configured to use that cannot load is an error in the setup.
    for (const message of failed) process.stderr.write(`${bin}: error: ${message}\n`);
    return failed.length > 0 ? 1 : 0;
  }
  const cluster = clusterEntity(entity);
  if (cluster !== undefined) {
    const { showClusterEntity } = await import('./show-cluster.js');
    const result = await showClusterEntity(cluster, rest, {
      cluster: options.cluster,
      json: Boolean(options.json),
      oneliner: Boolean(options.oneliner),
      future: Boolean(options.future),
    });
    process.stdout.write(result.stdout);
    return result.exitCode;
  }
  throw new UserError(`invalid entity:${entity} for keyword:show`);
}
