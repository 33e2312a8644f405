// The front of the commands that are not srun, sbatch or salloc (squeue, sinfo, scancel,
// sbcast, scontrol, and tslurm's daemons) under either name: one option table per command
// read by getopt (the same layer as srun's), getopt's two-line refusal, and what --help,
// --usage and --version print. A table is built from rows with the helpers below.
import { isSlurmName } from '../slurm-names.js';
import { versionLine } from '../version-line.js';
import { getopt, GetoptError, type GetoptResult } from './getopt.js';
import { renderHelp } from './help.js';
import { rawValues, type RawValues } from './job-cli.js';
import type { ArgKind, HelpSection, OptionSpec } from './spec.js';
import { camelKey } from './spec.js';
import { usageError } from './usage-error.js';

/** One row: long name, short letter ('' for none), argument kind, metavariable, our description. */
export function option(long: string, short: string, arg: ArgKind, meta: string, help: string, extra: Partial<OptionSpec> = {}): OptionSpec {
  return {
    long,
    ...(short !== '' && { short }),
    arg,
    ...(meta !== '' && { meta }),
    help,
    key: camelKey(long),
    section: 'main' as HelpSection,
    ...extra,
  };
}

/** An accepted alias or undocumented option, not shown by --help. */
export function hidden(long: string, arg: ArgKind, key = camelKey(long), short = ''): OptionSpec {
  return option(long, short, arg, '', '', { key, hidden: true });
}

/** -v and tslurm's --cluster, which every command takes. */
export function commonOptions(verboseHelp = 'more messages; repeat for more (-vvv shows stack traces)'): OptionSpec[] {
  return [
    option('verbose', 'v', 'none', '', verboseHelp),
    option('cluster', '', 'required', 'file', 'cluster YAML to use (default: $TSLURM_CONF, else the built-in cluster)', { section: 'tslurm' }),
  ];
}

/** --help (with -h unless the command gives -h another meaning), --usage when the command has one, -V. */
export function infoOptions(settings: { shortHelp: boolean; usage: boolean }): OptionSpec[] {
  return [
    option('version', 'V', 'none', '', 'print the version and exit'),
    option('help', settings.shortHelp ? 'h' : '', 'none', '', 'show this help and exit', { section: 'help' }),
    ...(settings.usage ? [option('usage', '', 'none', '', 'show a short usage message and exit', { section: 'help' })] : []),
  ];
}

export interface ParsedArgs extends GetoptResult {
  raw: RawValues;
  /** --help, --usage or --version, when given (the first of them). */
  info: 'help' | 'usage' | 'version' | undefined;
}

export interface ParseSettings {
  /** Stop at the first operand ("+" in the optstring); otherwise operands mix with options. */
  stopAtOperand?: boolean;
  /** The exit status of a refused option: 1 for squeue, sinfo, scancel, scontrol (observed). */
  errorExit?: number;
}

/** The command line by the table; a refused option as the command prints it. */
export function parseArgs(bin: string, words: readonly string[], specs: readonly OptionSpec[], settings: ParseSettings = {}): ParsedArgs {
  let result: GetoptResult;
  try {
    result = getopt(words, specs, { stopAtOperand: settings.stopAtOperand ?? false });
  } catch (error) {
    throw error instanceof GetoptError ? usageError(bin, error, settings.errorExit ?? 1) : error;
  }
  const info = result.options.find((o) => o.spec.key === 'help' || o.spec.key === 'usage' || o.spec.key === 'version');
  return { ...result, raw: rawValues(result.options), info: info?.spec.key as ParsedArgs['info'] };
}

export interface CommandTexts {
  /** What the command is, under the ts name (`Show the job queue (like squeue).`). */
  summary: string;
  /** The words after the name in the usage line (`[OPTIONS] [job_id...]`). */
  synopsis: string;
  /** The Slurm command's own usage line for --help, when it differs (`scontrol [<OPTION>] [<COMMAND>]`). */
  slurmUsageLine?: (bin: string) => string;
  /** The Slurm command's --usage block, with `bin` in it. */
  usage?: (bin: string) => string;
  examples: readonly string[];
  /** Lines after the options, under both names (scontrol's commands). */
  epilogue?: readonly string[];
  /** The Slurm command's description column (squeue 34, sinfo 29, ...). */
  descriptionColumn?: number;
}

/**
 * What --help, --usage or --version print on stdout: under a Slurm name its `Usage:` line and
 * the options in its synopsis form; under a ts name the same with what the command is and
 * examples. tslurm's --cluster is listed under the ts names only.
 */
export function commandInfo(info: 'help' | 'usage' | 'version', bin: string, specs: readonly OptionSpec[], texts: CommandTexts): string {
  if (info === 'version') return `${versionLine(bin)}\n`;
  const slurm = isSlurmName(bin);
  const usageLine = slurm && texts.slurmUsageLine ? texts.slurmUsageLine(bin) : `Usage: ${bin} ${texts.synopsis}`;
  if (info === 'usage') return texts.usage ? texts.usage(bin) : `${usageLine}\n`;
  const shown = slurm ? specs.map((s) => (s.section === 'tslurm' ? { ...s, hidden: true } : s)) : specs;
  const examples = !slurm && texts.examples.length > 0 ? ['Examples:', ...texts.examples.map((e) => `  $ ${e}`)] : [];
  const epilogue = [...(texts.epilogue ?? []), ...(texts.epilogue && examples.length > 0 ? [''] : []), ...examples];
  return renderHelp(shown, {
    usageLine,
    ...(!slurm && { summary: texts.summary }),
    ...(epilogue.length > 0 && { epilogue }),
    ...(texts.descriptionColumn !== undefined && { descriptionColumn: texts.descriptionColumn }),
  });
}
