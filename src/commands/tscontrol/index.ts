// tscontrol (scontrol): view and change the cluster: `show job|node|partition|step|config|
// topology|daemons` (nodes live from the controller when one runs), `update`, the job verbs,
// `wait_job`, `listpids`, `write batch_script|config`, `reconfigure`, `ping` (which starts the
// controller, as a submission does), `version`, `token` (tsrestd's JWT), `show plugins` and
// the hostlist helpers.
// Global options go before or after the command, as scontrol's getopt takes them.
import { printError } from '../../cli/error-line.js';
import { commandInfo, parseArgs, type CommandTexts } from '../../cli/slurm-opt/command-cli.js';
import { versionLine } from '../../cli/version-line.js';
import { UserError } from '../../core/errors.js';
import { createLogger, levelFromVerbosity } from '../../core/log.js';
import { showHostlist, type HostlistEntity } from './show-hostlist.js';
import { clusterEntity } from './show-cluster.js';
import { TSCONTROL_COMMANDS, TSCONTROL_OPTIONS } from './options.js';

const examples = [
  'tscontrol show partition',
  'tscontrol show node node1',
  'tscontrol -o show nodes',
  'tscontrol -d -o show jobs',
  "tscontrol show hostnames 'n[01-03],m7'",
  'tscontrol show hostlist n01,n02,n03,m7',
  'tscontrol show plugins',
  'tscontrol show job 42',
  'tscontrol wait_job 42; tscontrol listpids 42',
  'tscontrol write batch_script 42 -',
  'tscontrol write config -',
  'tscontrol hold 42; tscontrol release 42',
  'tscontrol update NodeName=node2 State=DRAIN Reason="disk swap"',
  'tscontrol update NodeName=node2 State=RESUME',
  'tscontrol update PartitionName=debug State=DOWN MaxTime=30',
  'tscontrol update JobId=42 TimeLimit=30 Partition=small Comment="rerun" Dependency=afterok:41',
  'tscontrol requeue 42; tscontrol suspend 43; tscontrol resume 43',
  'tscontrol create reservation ReservationName=r1 StartTime=now Duration=60 Nodes=node1 Users=$USER',
  'tscontrol show reservation; tscontrol delete ReservationName=r1',
  'TSLURM_PLUGIN_DIR=./my-plugins tscontrol show plugins --json',
];

export interface Options {
  cluster?: string;
  verbose: number;
  json?: boolean;
  yaml?: boolean;
  oneliner?: boolean;
  future?: boolean;
  all?: boolean;
  /** -d: details; -dd: more. */
  details: number;
  quiet?: boolean;
  clusters?: string;
}

const texts: CommandTexts = {
  summary: 'View and change the cluster, its jobs and its plugins (like scontrol).',
  synopsis: '[OPTIONS] COMMAND [WORDS...]',
  slurmUsageLine: (bin) => `Usage: ${bin} [<OPTION>] [<COMMAND>]`,
  examples,
  epilogue: TSCONTROL_COMMANDS,
  descriptionColumn: 30,
};

export async function run(argv: string[], bin: string): Promise<number> {
  const parsed = parseArgs(bin, argv, TSCONTROL_OPTIONS);
  if (parsed.info) {
    process.stdout.write(commandInfo(parsed.info, bin, TSCONTROL_OPTIONS, texts));
    return 0;
  }
  const options = { verbose: 0, details: 0, ...parsed.raw } as Options;
  const [command, ...words] = parsed.operands;
  if (command === undefined) throw new UserError("missing required argument 'command'");
  try {
    if (options.clusters !== undefined) await checkClusters(options.clusters, options.cluster);
    return await dispatch(bin, command, words, options);
  } catch (error) {
    // -Q: scontrol's quiet_flag silences its error lines; the exit status still tells.
    if (options.quiet && error instanceof UserError) return error.exitCode;
    throw error;
  }
}

// -M: there is one cluster, the one in use; scontrol's words for any other name.
async function checkClusters(names: string, file: string | undefined): Promise<void> {
  const { loadCluster } = await import('../../config/load.js');
  const { clusterName } = await loadCluster({ file });
  for (const name of names.split(',')) {
    if (name !== clusterName && name.toLowerCase() !== 'all') {
      throw new UserError(`'${name}' can't be reached now, or it is an invalid entry for --cluster.  Use 'sacctmgr list clusters' to see available clusters.`);
    }
  }
}

async function dispatch(bin: string, command: string, words: string[], options: Options): Promise<number> {
  const verb = command.toLowerCase();
  if (verb === 'hold' || verb === 'uhold' || verb === 'release') {
    const { changeJobs } = await import('./jobs.js');
    return changeJobs(verb, words.flatMap((w) => w.split(',')).filter(Boolean), options.cluster);
  }
  if (verb === 'update') {
    const { update } = await import('./update.js');
    return update(words, options.cluster, bin);
  }
  if (verb === 'requeue' || verb === 'suspend' || verb === 'resume') {
    const { jobOp } = await import('./job-ops.js');
    return jobOp(verb, words, options.cluster);
  }
  // scontrol 22.05: "too many arguments for keyword:ping" (exit 1), before asking anything.
  if (verb === 'ping' && words.length > 0) throw new UserError('too many arguments for keyword:ping', { bare: true });
  if (verb === 'reconfigure') {
    const { reconfigure } = await import('./job-ops.js');
    return reconfigure(options.cluster, bin);
  }
  if (verb === 'create' || verb === 'delete') {
    const resv = await import('./reservations.js');
    if (verb === 'delete') return resv.deleteReservation(words, options.cluster);
    const [what = '', ...rest] = words;
    if (!/^res/i.test(what)) throw new UserError(`invalid keyword: ${what}`);
    return resv.createReservation(rest, options.cluster, bin);
  }
  if (verb === 'ping') {
    const { ping } = await import('./ping.js');
    return ping(options.cluster);
  }
  if (verb === 'token') {
    const { token } = await import('./token.js');
    return token(words, options.cluster, options.verbose);
  }
  if (verb === 'version') {
    process.stdout.write(`${versionLine(bin)}\n`);
    return 0;
  }
  if (verb === 'wait_job') {
    const { waitJob } = await import('./wait-job.js');
    return waitJob(words, options.cluster, bin);
  }
  if (verb === 'listpids') {
    const { listPids } = await import('./listpids.js');
    return listPids(words, options.cluster);
  }
  if (verb === 'write') {
    // scontrol prints these bare (observed on 22.05).
    const [what, ...rest] = words;
    if (what === undefined) throw new UserError('too few arguments for keyword:write', { bare: true });
    if (/^conf/i.test(what)) {
      if (words.length > 2) throw new UserError('too many arguments for keyword:write', { bare: true });
      return (await import('./write-config.js')).writeConfig(words, options.cluster);
    }
    if (what.toLowerCase() !== 'batch_script') throw new UserError(`invalid write argument:${what}`, { bare: true });
    const { writeBatchScript } = await import('./write-script.js');
    return writeBatchScript(rest, options.cluster);
  }
  if (verb !== 'show') {
    throw new UserError(`invalid keyword: ${command}`, { bare: true });
  }
  return show(bin, words, options);
}

async function show(bin: string, words: string[], options: Options): Promise<number> {
  const [entity = '', ...rest] = words;
  const key = entity.toLowerCase();
  const data = options.yaml ? 'yaml' : options.json ? 'json' : undefined;
  if (key === 'job' || key === 'jobs' || key === 'jobid') {
    const { showJobs } = await import('./jobs.js');
    return showJobs(rest, { cluster: options.cluster, data, oneliner: Boolean(options.oneliner), details: options.details });
  }
  if (key.length >= 3 && 'reservations'.startsWith(key)) {
    const { showReservations } = await import('./reservations.js');
    return showReservations(rest, { cluster: options.cluster, json: data !== undefined, oneliner: Boolean(options.oneliner) });
  }
  if (key === 'step' || key === 'steps') {
    const { showSteps } = await import('./show-steps.js');
    return showSteps(rest, { cluster: options.cluster, oneliner: Boolean(options.oneliner) });
  }
  if (key.length >= 1 && 'topology'.startsWith(key)) {
    // No topology plugin: scontrol says so (on stderr) and exits 0 (observed on Slurm 22.05),
    // so the line is printed here rather than thrown to the boundary (which exits non-zero).
    if (rest.length > 1) throw new UserError('too many arguments for keyword:show');
    const what = rest.length === 0 ? 'No topology information available' : `Topology information contains no switch or node named ${rest[0]}`;
    if (!options.quiet) printError(bin, what);
    return 0;
  }
  if (key.length >= 1 && 'daemons'.startsWith(key)) {
    const { showDaemons } = await import('./show-daemons.js');
    process.stdout.write(await showDaemons(options.cluster, bin));
    return 0;
  }
  if (key === 'hostnames' || key === 'hostlist' || key === 'hostlistsorted') {
    const result = showHostlist(key as HostlistEntity, rest, process.env);
    process.stdout.write(result.stdout);
    // Printed beside what it wrote on stdout, with the exit status it chose: not a throw.
    if (result.error && !options.quiet) printError(bin, result.error);
    return result.exitCode;
  }
  if (key === 'plugins' || key === 'plugin') {
    const log = createLogger(bin, levelFromVerbosity(options.verbose));
    const { loadCluster } = await import('../../config/load.js');
    const config = await loadCluster({ file: options.cluster });
    const { collectPlugins, formatPluginTable } = await import('./show-plugins.js');
    const { rows, failed } = await collectPlugins(config, log);
    process.stdout.write(data ? `${JSON.stringify({ plugins: rows }, null, 2)}\n` : formatPluginTable(rows));
    // A plugin the cluster is configured to use that cannot load is an error in the setup.
    for (const message of failed) printError(bin, message);
    return failed.length > 0 ? 1 : 0;
  }
  const cluster = clusterEntity(entity);
  if (cluster !== undefined) {
    const { showClusterEntity } = await import('./show-cluster.js');
    const result = await showClusterEntity(cluster, rest, {
      cluster: options.cluster,
      json: data === 'json',
      yaml: data === 'yaml',
      oneliner: Boolean(options.oneliner),
      future: Boolean(options.future),
      quiet: Boolean(options.quiet),
    });
    process.stdout.write(result.stdout);
    return result.exitCode;
  }
  // scontrol 22.05 prints this one bare, with a space at the end (observed).
  throw new UserError(`invalid entity:${entity} for keyword:show `, { bare: true });
}
