// What Slurm's commands get from getopt_long() and commander does not give: long options
// abbreviated to any unambiguous prefix (`--part` for `--partitions`), and getopt's own words
// for a bad option, which scripts and users of the Slurm command see:
//   squeue: unrecognized option '--bogus'
//   squeue: invalid option -- 'x'
//   Try "squeue --help" for more information
import { UserError } from '../core/errors.js';
import { isSlurmName } from './slurm-names.js';

/** argv with each unambiguous prefix of a long option written out (an exact name always wins). */
export function expandLongOptions(argv: readonly string[], names: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--') {
      out.push(...argv.slice(i));
      break;
    }
    if (!arg.startsWith('--') || arg.length === 2) {
      out.push(arg);
      continue;
    }
    const eq = arg.indexOf('=');
    const name = arg.slice(2, eq < 0 ? undefined : eq);
    const candidates = names.includes(name) ? [name] : names.filter((n) => n.startsWith(name));
    out.push(candidates.length === 1 ? `--${candidates[0]}${eq < 0 ? '' : arg.slice(eq)}` : arg);
  }
  return out;
}

/** getopt's message for an option commander refused, or undefined for other errors. */
export function getoptError(bin: string, error: unknown, argv: readonly string[]): UserError | undefined {
  const code = (error as { code?: unknown }).code;
  const message = error instanceof Error ? error.message : '';
  const tryHelp = `Try "${bin} --help" for more information`;
  if (code === 'commander.unknownOption') {
    const token = /'([^']*)'/.exec(message)?.[1] ?? '';
    const line = token.startsWith('--') ? `${bin}: unrecognized option '${token}'` : `${bin}: invalid option -- '${token.slice(1, 2)}'`;
    // Commander's own hint, as one line under the ts names (Slurm's names print none).
    const suggestion = /Did you mean (\S+?)\?/.exec(message)?.[1];
    const hint = suggestion && !isSlurmName(bin) ? `\n${bin}: did you mean '${suggestion}'?` : '';
    return new UserError(`${line}${hint}\n${tryHelp}`, { bare: true });
  }
  if (code === 'commander.optionMissingArgument') {
    const last = argv[argv.length - 1] ?? '';
    const line = last.startsWith('--') ? `${bin}: option '${last}' requires an argument` : `${bin}: option requires an argument -- '${last.slice(-1)}'`;
    return new UserError(`${line}\n${tryHelp}`, { bare: true });
  }
  return undefined;
}
