// tsrestd (slurmrestd): Slurm's REST API, v0.0.38, over the controller the commands use. It
// runs in the foreground, as slurmrestd does, on a Unix socket in the state directory and on
// each TCP address given with --listen.
import { commandInfo, commonOptions, infoOptions, option, parseArgs, type CommandTexts } from '../../cli/slurm-opt/command-cli.js';
import type { OptionSpec } from '../../cli/slurm-opt/spec.js';
import { UserError } from '../../core/errors.js';

const examples = [
  'tsrestd                                  # on the Unix socket in the state directory',
  'tsrestd --listen 127.0.0.1:6820          # and on TCP (requests need a token: tscontrol token)',
  'curl --unix-socket ~/.local/state/tslurm/tslurm/tsrestd.sock http://localhost/slurm/v0.0.38/ping',
];

const OPTIONS: readonly OptionSpec[] = [
  option('listen', '', 'required', 'host:port', 'also listen on this TCP address (repeatable; port 0: any free port)'),
  option('socket', '', 'required', 'path', 'the Unix socket (default: tsrestd.sock in the state directory)'),
  ...infoOptions({ shortHelp: true, usage: false }),
  ...commonOptions(),
];

const texts: CommandTexts = { summary: "Slurm's REST API, v0.0.38 (like slurmrestd).", synopsis: '[OPTIONS]', examples };

interface Options {
  cluster?: string;
  verbose: number;
  socket?: string;
}

export async function run(argv: string[], bin: string): Promise<number> {
  const parsed = parseArgs(bin, argv, OPTIONS);
  if (parsed.info) {
    process.stdout.write(commandInfo(parsed.info, bin, OPTIONS, texts));
    return 0;
  }
  if (parsed.operands.length > 0) throw new UserError(`unexpected argument: ${parsed.operands[0]} (TCP addresses go with --listen)`);
  const options = { verbose: 0, ...parsed.raw } as Options;
  // Every --listen counts, not only the last.
  const listen = parsed.options.filter((o) => o.spec.key === 'listen').map((o) => parseListen(o.value ?? ''));
  const { serve } = await import('./serve.js');
  return serve({ cluster: options.cluster, verbose: options.verbose, listen, socket: options.socket, bin });
}

/** `host:port`, `[v6]:port` or `:port` (every address). */
export function parseListen(text: string): { host: string; port: number } {
  const match = /^(?:\[([^\]]+)\]|([^:]*)):(\d{1,5})$/.exec(text);
  const port = match ? Number(match[3]) : NaN;
  if (!match || port > 65535) throw new UserError(`invalid --listen address: ${text} (expected host:port)`);
  return { host: match[1] ?? (match[2] || '0.0.0.0'), port };
}
