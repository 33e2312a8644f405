// getopt_long() as salloc calls it ("+": the first word that is not an option is the command):
// a long option may be any unambiguous prefix, `--name=value` or `--name value` for a required
// argument, an optional one only when attached, clusters of short letters (`-N1n2`). Errors are
// getopt's two lines and exit 255, as salloc prints them (observed on Slurm 22.05).
import { UserError } from '../../core/errors.js';
import type { SallocOption } from './options.js';

export type SallocValues = Record<string, string | boolean | number | undefined>;

export interface ParsedSalloc {
  values: SallocValues;
  /** The command and its arguments (empty: the user's shell). */
  command: string[];
}

export function parseSallocArgs(words: readonly string[], specs: readonly SallocOption[], bin: string): ParsedSalloc {
  const values: SallocValues = {};
  const take = (spec: SallocOption, value: string | undefined): void => {
    if (spec.key === 'verbose') values.verbose = Number(values.verbose ?? 0) + 1;
    else values[spec.key] = spec.arg === 'none' ? true : (value ?? true);
  };
  const refuse = (what: string): never => {
    throw new UserError(`${bin}: ${what}\nTry "${bin} --help" for more information`, { bare: true, exitCode: 255 });
  };
  for (let i = 0; i < words.length; i += 1) {
    const word = words[i]!;
    if (word === '--') return { values, command: words.slice(i + 1) };
    if (!word.startsWith('-') || word === '-') return { values, command: words.slice(i) };
    const next = words[i + 1];
    if (word.startsWith('--')) {
      const eq = word.indexOf('=');
      const name = word.slice(2, eq === -1 ? undefined : eq);
      const exact = specs.find((s) => s.long === name);
      const found = exact ? [exact] : specs.filter((s) => s.long.startsWith(name));
      if (found.length === 0) refuse(`unrecognized option '${word}'`);
      if (found.length > 1) refuse(`option '${word}' is ambiguous; possibilities: ${found.map((s) => `'--${s.long}'`).join(' ')}`);
      const spec = found[0]!;
      if (eq !== -1) {
        if (spec.arg === 'none') refuse(`option '--${spec.long}' doesn't allow an argument`);
        take(spec, word.slice(eq + 1));
      } else if (spec.arg === 'required') {
        if (next === undefined) refuse(`option '--${spec.long}' requires an argument`);
        take(spec, next);
        i += 1;
      } else take(spec, undefined);
      continue;
    }
    for (let k = 1; k < word.length; k += 1) {
      const spec = specs.find((s) => s.short === word[k]);
      if (!spec) return refuse(`invalid option -- '${word[k]}'`);
      const rest = word.slice(k + 1);
      if (spec.arg === 'none') {
        take(spec, undefined);
        continue;
      }
      if (rest !== '' || spec.arg === 'optional') take(spec, rest === '' ? undefined : rest);
      else {
        if (next === undefined) refuse(`option requires an argument -- '${word[k]}'`);
        take(spec, next);
        i += 1;
      }
      break;
    }
  }
  return { values, command: [] };
}
