// tsstepd (slurmd + slurmstepd): the node daemon of a multi-host cluster. It registers its
// node with the controller named by the cluster file's control.address, heartbeats, and runs
// the steps tsrun launches on it. Several on one host, each with its own node name and port,
// emulate a multi-node cluster.
import { commandInfo, commonOptions, infoOptions, option, parseArgs, type CommandTexts } from '../../cli/slurm-opt/command-cli.js';
import type { OptionSpec } from '../../cli/slurm-opt/spec.js';
import { UserError } from '../../core/errors.js';

const examples = [
  'tsstepd --cluster cluster.yaml --node n01                  # listen where the cluster file says',
  'tsstepd --cluster cluster.yaml --node n02 --listen 127.0.0.1:7002',
  'for n in 1 2 3 4; do tsstepd --cluster c.yaml --node n0$n & done   # four nodes on one host',
  'tsstepd --embedded --idle-exit 60                          # the local step host (the controller starts it)',
];

interface Options {
  cluster?: string;
  verbose: number;
  node?: string;
  listen?: string;
  hardware?: boolean;
  spool?: string;
  embedded?: boolean;
  idleExit?: string;
}

const OPTIONS: readonly OptionSpec[] = [
  option('node', 'N', 'required', 'name', 'the node this daemon serves (as named in the cluster file)'),
  option('listen', '', 'required', 'addr:port', "where to take launch requests (default: the node's address in the cluster file)"),
  option('hardware', '', 'none', '', "report this host's CPUs and memory instead of the cluster file's"),
  option('spool', '', 'required', 'dir', "where batch jobs keep their files (default: stepd-NODE in the cluster's state directory)"),
  option('embedded', '', 'none', '', "serve every emulated node's batch jobs on a socket in the state directory (started on demand by the controller)"),
  option('idle-exit', '', 'required', 'seconds', 'with --embedded: exit after this long with no batch job (0: never; default 0)'),
  ...infoOptions({ shortHelp: true, usage: false }),
  ...commonOptions(),
];

const texts: CommandTexts = { summary: 'The node daemon (like slurmd and slurmstepd).', synopsis: '[OPTIONS]', examples };

export async function run(argv: string[], bin: string): Promise<number> {
  const { takeStartReport, reportStart } = await import('../../os/start-report.js');
  takeStartReport();
  try {
    return await serve(argv, bin, (outcome) => reportStart(outcome));
  } catch (error) {
    // The controller that started it learns why at once (os/start-report.ts).
    if (error instanceof UserError) reportStart(`error: ${error.message}`);
    throw error;
  }
}

async function serve(argv: string[], bin: string, report: (outcome: string) => void): Promise<number> {
  const parsed = parseArgs(bin, argv, OPTIONS);
  if (parsed.info) {
    process.stdout.write(commandInfo(parsed.info, bin, OPTIONS, texts));
    return 0;
  }
  // A stray word, in the words this command has always used for it.
  if (parsed.operands.length > 0) throw new UserError(`too many arguments. Expected 0 arguments but got ${parsed.operands.length}.`);
  const options = { verbose: 0, ...parsed.raw } as Options;
  const [{ loadCluster }, { createLogger, levelFromVerbosity }, { parseHostPort }, { runNodeDaemon }, { resolveStateDir }, path] = await Promise.all([
    import('../../config/load.js'),
    import('../../core/log.js'),
    import('../../net/endpoint.js'),
    import('../../stepd/node-daemon/daemon.js'),
    import('../../config/state-dir.js'),
    import('node:path'),
  ]);
  if (options.embedded === true) {
    if (options.node !== undefined || options.listen !== undefined) throw new UserError('--embedded serves every emulated node: no --node or --listen');
    const idleExitSeconds = Number(options.idleExit ?? '0');
    if (!Number.isFinite(idleExitSeconds) || idleExitSeconds < 0) throw new UserError(`invalid --idle-exit value: ${options.idleExit}`);
    const config = await loadCluster({ file: options.cluster });
    const { runLocalStepHost } = await import('../../stepd/node-daemon/local-host.js');
    return runLocalStepHost({
      stateDir: resolveStateDir(config),
      killWaitSeconds: (await import('../../config/kill-wait.js')).killWaitSeconds(config),
      idleExitSeconds,
      log: createLogger(bin, levelFromVerbosity(options.verbose)),
      onReady: report,
    });
  }
  if (options.idleExit !== undefined) throw new UserError('--idle-exit needs --embedded');
  if (options.node === undefined) throw new UserError('no node named: give --node NAME');
  const config = await loadCluster({ file: options.cluster });
  const node = config.nodes.find((n) => n.name === options.node);
  if (!node) throw new UserError(`node ${options.node} is not in the cluster file ${config.source}`);
  const listen = options.listen === undefined ? undefined : parseHostPort(options.listen);
  if (options.listen !== undefined && !listen) throw new UserError(`invalid --listen address: ${options.listen} (expected host:port)`);
  return runNodeDaemon({
    config,
    node,
    listen,
    hardware: options.hardware === true,
    killWaitSeconds: (await import('../../config/kill-wait.js')).killWaitSeconds(config),
    spoolDir: path.resolve(options.spool ?? path.join(resolveStateDir(config), `stepd-${node.name}`)),
    log: createLogger(`${bin}-${node.name}`, levelFromVerbosity(options.verbose)),
  });
}
