// tsctld (slurmctld): the controller daemon. Commands start one on demand; run it yourself to
// watch it (-D keeps it in the foreground, logging to stderr) or to keep it running.
import { createProgram, addCommonOptions } from '../../cli/program.js';
import { writeSync } from 'node:fs';
import { UserError } from '../../core/errors.js';
import { reportStart, startedOnDemand, takeStartReport } from '../../core/start-report.js';

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

export async function run(argv: string[], bin: string): Promise<number> {
  let status = 0;
  const program = addCommonOptions(createProgram(bin, 'The controller daemon (like slurmctld).', examples))
    .option('-D', 'run in the foreground; log to stderr')
    .option('--idle-exit <seconds>', 'exit after this long with no request and no job (0: never)', '0')
    .option('--simulate <trace>', 'replay an SWF workload trace in virtual time and report; no daemon starts')
    .option('--simulate-out <dir>', 'with --simulate: where summary.json and chart.svg go (default: <trace name>.sim)')
    .option('--select <type>', "with --simulate: this select plugin instead of the cluster file's")
    .option('--sched <type>', "with --simulate: this sched plugin instead of the cluster file's")
    .action(async (options: Options) => {
      if (options.simulate === undefined) {
        const stray = (['simulateOut', 'select', 'sched'] as const).find((key) => options[key] !== undefined);
        if (stray) throw new UserError(`--${stray === 'simulateOut' ? 'simulate-out' : stray} needs --simulate`);
      } else {
        const { simulate } = await import('./simulate.js');
        status = await simulate({ ...options, trace: options.simulate, out: options.simulateOut, bin });
        return;
      }
      const idleExitSeconds = Number(options.idleExit);
      if (!Number.isFinite(idleExitSeconds) || idleExitSeconds < 0) {
        throw new UserError(`invalid --idle-exit value: ${options.idleExit}`);
      }
      const { startController } = await import('./start.js');
      status = await startController({ ...options, idleExitSeconds, foreground: options.D === true, bin, argv });
    });
  takeStartReport();
  try {
    await program.parseAsync(argv, { from: 'user' });
  } catch (error) {
    return await refused(error, bin);
  }
  return status;
}

// A controller that does not start tells its starter why (core/start-report.ts). One that a
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
