// tsalloc (salloc): obtain a job allocation from the controller, run a command (or the user's
// shell) in it, and relinquish it when the command ends; tsrun/srun inside runs steps of it.
import { isSlurmName } from '../../cli/slurm-names.js';
import { versionLine } from '../../cli/program.js';
import { UserError } from '../../core/errors.js';
import { createLogger, levelFromVerbosity } from '../../core/log.js';
import { constants } from 'node:os';
import { buildStepRequest } from '../tsrun/request.js';
import type { RawTsrunOptions } from '../tsrun/options.js';
import { parseSallocArgs, type SallocValues } from './getopt.js';
import { SALLOC_OPTIONS, SALLOC_USAGE } from './options.js';

const examples = [
  'tsalloc -N2 -n4                      # a shell holding 2 nodes; tsrun inside runs steps on them',
  'tsalloc -N1 -t 10 tsrun -n2 hostname  # run one command in the allocation, then release it',
  'tsalloc --no-shell -N1 -J keep       # allocate only; tscancel ends it',
];

export async function run(argv: string[], bin: string): Promise<number> {
  const { values, command } = parseSallocArgs(argv, SALLOC_OPTIONS, bin);
  if (values.help === true) return print(helpText(bin));
  if (values.usage === true) return print(`${SALLOC_USAGE.join('\n').replace(/^Usage: salloc/, `Usage: ${bin}`)}\n`);
  if (values.version === true) return print(`${versionLine(bin)}\n`);
  const verbose = Number(values.verbose ?? 0);
  const quiet = values.quiet === true;
  const raw: RawTsrunOptions = { ...stringValues(values), exclusive: values.exclusive === true, overcommit: values.overcommit === true, verbose };
  const req = buildStepRequest(raw, command);
  const log = createLogger(bin, levelFromVerbosity(verbose, quiet));
  const { loadCluster } = await import('../../config/load.js');
  const config = await loadCluster({ file: text(values.cluster) });
  const { allocateAndRun } = await import('./allocate-and-run.js');
  return allocateAndRun(
    {
      req,
      command,
      noShell: values.noShell === true,
      hold: values.hold === true,
      immediate: immediateSeconds(values.immediate),
      killSignal: killSignal(values.killCommand),
    },
    config,
    log,
  );
}

function print(text: string): number {
  process.stdout.write(text);
  return 0;
}

function text(value: SallocValues[string]): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/** The values tsrun's request builder reads (the same names and checks as srun's). */
function stringValues(values: SallocValues): Omit<RawTsrunOptions, 'verbose'> {
  const keys = ['ntasks', 'nodes', 'cpusPerTask', 'ntasksPerNode', 'partition', 'reservation', 'nodelist', 'exclude', 'constraint', 'mem', 'memPerCpu', 'gres', 'gpus', 'time', 'jobName', 'chdir'] as const;
  return Object.fromEntries(keys.flatMap((key) => (typeof values[key] === 'string' ? [[key, values[key]]] : [])));
}

/** -I: at once; -I5: within 5 seconds. */
function immediateSeconds(value: SallocValues[string]): number | undefined {
  if (value === undefined) return undefined;
  if (value === true) return 0;
  const secs = Number(value);
  if (!Number.isInteger(secs) || secs < 0) throw new UserError(`Invalid immediate value: ${String(value)}`);
  return secs;
}

/** --kill-command[=signal]: TERM when no signal is named (salloc(1)). */
function killSignal(value: SallocValues[string]): NodeJS.Signals | undefined {
  if (value === undefined) return undefined;
  if (value === true) return 'SIGTERM';
  const name = String(value).toUpperCase().replace(/^SIG/, '');
  const found = /^\d+$/.test(name)
    ? Object.keys(constants.signals).find((key) => constants.signals[key as NodeJS.Signals] === Number(name))
    : Object.hasOwn(constants.signals, `SIG${name}`) ? `SIG${name}` : undefined;
  if (found === undefined) throw new UserError(`Invalid signal specification: ${String(value)}`);
  return found as NodeJS.Signals;
}

function helpText(bin: string): string {
  const slurm = isSlurmName(bin);
  const lines = [`Usage: ${bin} [OPTIONS(0)...] [ : [OPTIONS(N)]] [command(0) [args(0)...]]`, ''];
  for (const o of SALLOC_OPTIONS) {
    if (slurm && o.long === 'cluster') continue;
    const short = o.short ? `-${o.short}, ` : '    ';
    const arg = o.arg === 'none' ? '' : o.arg === 'optional' ? `[=${o.meta}]` : `=${o.meta}`;
    const left = `  ${short}--${o.long}${arg}`;
    lines.push(left.length >= 30 ? `${left}\n${' '.repeat(30)}${o.help}` : `${left.padEnd(30)}${o.help}`);
  }
  if (!slurm) lines.push('', 'Examples:', ...examples.map((e) => `  $ ${e}`));
  return `${lines.join('\n')}\n`;
}
