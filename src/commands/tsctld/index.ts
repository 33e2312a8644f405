// tsctld (slurmctld): the controller daemon. Commands start one on demand; run it yourself to
// watch it (-D keeps it in the foreground, logging to stderr) or to keep it running.
import { commandInfo, commonOptions, infoOptions, option, parseArgs, type CommandTexts } from '../../cli/slurm-opt/command-cli.js';
import type { OptionSpec } from '../../cli/slurm-opt/spec.js';
import { writeSync } from 'node:fs';
import { UserError } from '../../core/errors.js';
import { reportStart, startedOnDemand, takeStartReport } from '../../os/start-report.js';

const examples = [
  'tsctld -D -v                         # in the foreground, logging to the terminal',
  'tsctld --cluster fixtures/clusters/small.yaml',
  'tsctld --idle-exit 60                # leave after a minute with nothing to do',
  'tsctld --simulate fixtures/traces/small.swf --cluster fixtures/clusters/sim.yaml --sched sched/builtin',
];

interface Options {
  cluster?: string;
  verbose: number;
  D?: boolean;
  idleExit: string;
  simulate?: string;
  simulateOut?: string;
  select?: string;
  sched?: string;
}

const OPTIONS: readonly OptionSpec[] = [
  option('', 'D', 'none', '', 'run in the foreground; log to stderr', { key: 'D' }),
  option('idle-exit', '', 'required', 'seconds', 'exit after this long with no request and no job (0: never; the default)'),
  option('simulate', '', 'required', 'trace', 'replay an SWF workload trace in virtual time and report; no daemon starts'),
  option('simulate-out', '', 'required', 'dir', 'with --simulate: where summary.json and chart.svg go (default: <trace name>.sim)'),
  option('select', '', 'required', 'type', "with --simulate: this select plugin instead of the cluster file's"),
  option('sched', '', 'required', 'type', "with --simulate: this sched plugin instead of the cluster file's"),
  ...infoOptions({ shortHelp: true, usage: false }),
  ...commonOptions(),
];

const texts: CommandTexts = { summary: 'The controller daemon (like slurmctld).', synopsis: '[OPTIONS]', examples };

export async function run(argv: string[], bin: string): Promise<number> {
  takeStartReport();
  try {
    const parsed = parseArgs(bin, argv, OPTIONS);
    if (parsed.info) {
      process.stdout.write(commandInfo(parsed.info, bin, OPTIONS, texts));
      return 0;
    }
    // A stray word, in the words this command has always used for it.
    if (parsed.operands.length > 0) throw new UserError(`too many arguments. Expected 0 arguments but got ${parsed.operands.length}.`);
    const options = { verbose: 0, idleExit: '0', ...parsed.raw } as Options;
    if (options.simulate === undefined) {
      const stray = (['simulateOut', 'select', 'sched'] as const).find((key) => options[key] !== undefined);
      if (stray) throw new UserError(`--${stray === 'simulateOut' ? 'simulate-out' : stray} needs --simulate`);
    } else {
      const { simulate } = await import('./simulate.js');
      return await simulate({ ...options, trace: options.simulate, out: options.simulateOut, bin });
    }
    const idleExitSeconds = Number(options.idleExit);
    if (!Number.isFinite(idleExitSeconds) || idleExitSeconds < 0) {
      throw new UserError(`invalid --idle-exit value: ${options.idleExit}`);
    }
    const { startController } = await import('./start.js');
    return await startController({ ...options, idleExitSeconds, foreground: options.D === true, bin, argv });
  } catch (error) {
    return await refused(error, bin);
  }
}

// A controller that does not start tells its starter why (os/start-report.ts). One that a
// command started for itself and that lost the state directory to another command's
// controller has nothing wrong to say: that other one serves them both.
async function refused(error: unknown, bin: string): Promise<number> {
  const { StateDirTaken } = await import('../../ctld/ctld-lock.js');
  if (error instanceof StateDirTaken && startedOnDemand()) {
    try {
      writeSync(2, `${bin}: ${error.message.replace(/; stop it .*$/, '')}; leaving it to that one\n`);
    } catch {
      // a log that cannot be written (full disk) changes nothing here
    }
    reportStart('raced');
    return 0;
  }
  reportStart(`error: ${error instanceof Error ? (error.message.split('\n')[0] ?? '') : String(error)}`);
  throw error;
}
