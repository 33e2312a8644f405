// The front of srun, sbatch and salloc under either name: the option table with
// tslurm's own --cluster, getopt over it, and what --help, --usage and --version print.
import { isSlurmName } from '../slurm-names.js';
import { versionLine } from '../version-line.js';
import { getopt, GetoptError, type GetoptResult } from './getopt.js';
import { renderHelp, renderUsage } from './help.js';
import { jobOptions } from './job-options.js';
import type { JobCommand, Occurrence, OptionSpec } from './spec.js';
import { HELP_USAGE_LINE, USAGE_LINES } from './usage-items.js';
import { usageError } from './usage-error.js';

/** tslurm's own option: the cluster file (Slurm's hidden --cluster, an alias of -M, yields to it). */
const CLUSTER_FILE: OptionSpec = {
  long: 'cluster',
  arg: 'required',
  meta: 'file',
  help: 'cluster YAML to use (default: $TSLURM_CONF, else the built-in cluster)',
  key: 'cluster',
  section: 'tslurm',
};

/** The options `bin` (a Slurm name or a ts name of `command`) accepts, in --help order. */
export function commandSpecs(command: JobCommand, bin: string): OptionSpec[] {
  const specs = jobOptions(command).filter((s) => s.long !== 'cluster');
  return [...specs, { ...CLUSTER_FILE, ...(isSlurmName(bin) && { hidden: true }) }];
}

/** Values by key; a flag is true (or its flagValue), -v (and a counting flag) counts, an optional argument left out is true. */
export type RawValues = Record<string, string | boolean | number | undefined>;

export interface ParsedJobArgs extends GetoptResult {
  raw: RawValues;
  /** --help, --usage or --version, when given (the first of them). */
  info: 'help' | 'usage' | 'version' | undefined;
}

export function parseJobArgs(words: readonly string[], specs: readonly OptionSpec[]): ParsedJobArgs {
  const result = getopt(words, specs, { stopAtOperand: true });
  const info = result.options.find((o) => o.spec.key === 'help' || o.spec.key === 'usage' || o.spec.key === 'version');
  return { ...result, raw: rawValues(result.options), info: info?.spec.key as ParsedJobArgs['info'] };
}

/** The occurrences as values by key, the last one winning (-v and counting flags add up). */
export function rawValues(options: readonly Occurrence[]): RawValues {
  const raw: RawValues = {};
  for (const { spec, value } of options) {
    if (spec.key === 'verbose' || spec.counts) raw[spec.key] = Number(raw[spec.key] ?? 0) + 1;
    else if (spec.arg === 'none') raw[spec.key] = spec.flagValue ?? true;
    else raw[spec.key] = value ?? true;
  }
  return raw;
}

export interface InfoTexts {
  /** The ts name's usage line and examples (a Slurm name prints Slurm's). */
  tsUsage: string;
  examples: readonly string[];
}

/** What --help, --usage or --version print on stdout. */
export function infoText(info: 'help' | 'usage' | 'version', command: JobCommand, bin: string, specs: readonly OptionSpec[], ts: InfoTexts): string {
  if (info === 'version') return `${versionLine(bin)}\n`;
  const slurm = isSlurmName(bin);
  if (info === 'usage') {
    if (slurm) return renderUsage(bin, USAGE_LINES[command]);
    return `${ts.tsUsage}\nTry "${bin} --help" for the options.\n`;
  }
  if (slurm) return renderHelp(specs, { usageLine: HELP_USAGE_LINE[command] });
  const epilogue = ts.examples.length > 0 ? ['Examples:', ...ts.examples.map((e) => `  $ ${e}`)] : [];
  return renderHelp(specs, { usageLine: ts.tsUsage, epilogue });
}

/**
 * The start of srun and salloc: their options parsed (a refused one in getopt's usage form), or
 * undefined once --help, --usage or --version has been printed.
 */
export function startJobCommand(
  argv: readonly string[],
  command: JobCommand,
  bin: string,
  ts: InfoTexts,
): { specs: OptionSpec[]; parsed: ParsedJobArgs } | undefined {
  const specs = commandSpecs(command, bin);
  let parsed: ParsedJobArgs;
  try {
    parsed = parseJobArgs(argv, specs);
  } catch (error) {
    throw error instanceof GetoptError ? usageError(bin, error) : error;
  }
  if (!parsed.info) return { specs, parsed };
  process.stdout.write(infoText(parsed.info, command, bin, specs, ts));
  return undefined;
}
