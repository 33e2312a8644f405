// tsalloc (salloc): obtain a job allocation from the controller, run a command (or the user's
// shell) in it, and relinquish it when the command ends; tsrun/srun inside runs steps of it.
// The options are salloc's rows of the shared table (cli/slurm-opt/job-options.ts) over the
// SALLOC_* variables; the request is built and checked as srun's, so an option that acts in
// srun or sbatch acts the same way here.
import { constants } from 'node:os';
import { printDefinedOptions } from '../../cli/slurm-opt/defined-options.js';
import { rawValues, startJobCommand } from '../../cli/slurm-opt/job-cli.js';
import { TimeSpecError } from '../../core/begin-time.js';
import { UserError, UserErrorReport } from '../../core/errors.js';
import { createLogger, levelFromVerbosity } from '../../core/log.js';
import { parseBegin } from '../tsbatch/values.js';
import { buildStepRequest } from '../tsrun/request.js';
import type { RawTsrunOptions } from '../tsrun/options.js';
import type { Bell } from './allocate-and-run.js';
import { sallocEnvOptions } from './env-options.js';

const examples = [
  'tsalloc -N2 -n4                      # a shell holding 2 nodes; tsrun inside runs steps on them',
  'tsalloc -N1 -t 10 tsrun -n2 hostname  # run one command in the allocation, then release it',
  'tsalloc --no-shell -N1 -J keep       # allocate only; tscancel ends it',
  'SALLOC_PARTITION=gpu tsalloc -G1 nvidia-smi',
];

export async function run(argv: string[], bin: string): Promise<number> {
  const started = startJobCommand(argv, 'salloc', bin, { tsUsage: `Usage: ${bin} [options] [command [args...]]`, examples });
  if (!started) return 0;
  const { specs, parsed } = started;
  // The environment's options first: the command line's come after and win.
  const given = [...sallocEnvOptions(process.env, specs), ...parsed.options];
  const raw: RawTsrunOptions = { ...rawValues(given) } as RawTsrunOptions;
  const verbose = Number(raw.verbose ?? 0);
  const quiet = raw.quiet === true;
  if (verbose > 0 && quiet) throw new UserError("don't specify both --verbose (-v) and --quiet (-Q)");
  const command = parsed.operands;
  const req = buildStepRequest(raw, command);
  const beginTime = typeof raw.begin === 'string' ? inSallocWords(() => parseBegin(raw.begin as string, new Date())) : 0;
  const killSignal = killSignalOf(raw.killCommand);
  const log = createLogger(bin, levelFromVerbosity(verbose, quiet));
  if (verbose > 0) {
    printDefinedOptions(bin, given);
  }
  const { loadCluster } = await import('../../config/load.js');
  const config = await loadCluster({ file: typeof raw.cluster === 'string' ? raw.cluster : undefined });
  const { allocateAndRun } = await import('./allocate-and-run.js');
  return allocateAndRun(
    {
      req,
      command,
      noShell: raw.noShell === true,
      hold: req.hold,
      immediate: req.immediate,
      killSignal,
      bell: bellOf(raw.bell),
      beginTime,
      comment: typeof raw.comment === 'string' ? raw.comment : undefined,
    },
    config,
    log,
  );
}

// parse_time()'s own line comes before salloc's, as sbatch prints them.
function inSallocWords<T>(parse: () => T): T {
  try {
    return parse();
  } catch (error) {
    if (error instanceof UserError && error.cause instanceof TimeSpecError) {
      throw new UserErrorReport([{ plain: error.cause.message }, { error: error.message }], { exitCode: error.exitCode });
    }
    throw error;
  }
}

/** --bell, --no-bell; by default salloc rings only after a wait (BELL_AFTER_DELAY). */
function bellOf(value: unknown): Bell {
  if (value === true) return 'always';
  if (value === false) return 'never';
  return 'after-delay';
}

/** --kill-command[=signal]: TERM when no signal is named (salloc(1)); exit 255 as salloc's for a bad one. */
function killSignalOf(value: unknown): NodeJS.Signals | undefined {
  if (value === undefined) return undefined;
  if (value === true) return 'SIGTERM';
  const name = String(value).toUpperCase().replace(/^SIG/, '');
  const found = /^\d+$/.test(name)
    ? Object.keys(constants.signals).find((key) => constants.signals[key as NodeJS.Signals] === Number(name))
    : Object.hasOwn(constants.signals, `SIG${name}`) ? `SIG${name}` : undefined;
  if (found === undefined) throw new UserError('Invalid --kill-command specification', { exitCode: 255 });
  return found as NodeJS.Signals;
}
