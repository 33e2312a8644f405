// sbatch reads its command line and #SBATCH words with getopt_long, whose rules commander
// does not all share. This pass checks the words by getopt's rules, with its messages, and
// rewrites them so commander reads them the same way:
// - a unique prefix of a long option is that option (`--job-nam=x`, `--hol`);
// - an optional value is taken only when attached: a bare `--exclusive` becomes
//   `--exclusive=exclusive` (sbatch's own name for it), so the next word stays a word;
// - the first word that is not an option (the script) ends the options.
import type { Command, Option } from 'commander';
import { UserError } from '../../core/errors.js';

/** The words, checked and rewritten; `extraFlags` are options commander keeps apart (--help). */
export function getoptWords(words: readonly string[], program: Command, extraFlags: readonly string[] = []): string[] {
  const options = program.options;
  const out: string[] = [];
  for (let i = 0; i < words.length; i += 1) {
    const word = words[i]!;
    if (word === '--' || !word.startsWith('-') || word === '-') return [...out, ...words.slice(i)];
    if (extraFlags.includes(word)) {
      out.push(word);
      continue;
    }
    const next = words[i + 1];
    const rewritten = word.startsWith('--') ? longOption(word, next, options) : shortOptions(word, next, options);
    out.push(...rewritten.words);
    if (rewritten.usedNext) i += 1;
  }
  return out;
}

interface Rewritten {
  words: string[];
  usedNext: boolean;
}

function longOption(word: string, next: string | undefined, options: readonly Option[]): Rewritten {
  const eq = word.indexOf('=');
  const name = eq === -1 ? word : word.slice(0, eq);
  const exact = options.find((o) => o.long === name);
  const candidates = exact ? [exact] : options.filter((o) => o.long?.startsWith(name));
  if (candidates.length === 0) throw getopt(`unrecognized option '${word}'`);
  if (candidates.length > 1) {
    const possible = candidates.map((o) => `'${o.long}'`).join(' ');
    throw getopt(`option '${word}' is ambiguous; possibilities: ${possible}`);
  }
  const option = candidates[0]!;
  const long = option.long!;
  if (eq !== -1) {
    if (!option.required && !option.optional) throw getopt(`option '${long}' doesn't allow an argument`);
    return { words: [`${long}=${word.slice(eq + 1)}`], usedNext: false };
  }
  // Commander marks `<size[units]>` optional too (it sees the '['): required comes first.
  if (option.required) {
    if (next === undefined) throw getopt(`option '${long}' requires an argument`);
    return { words: [long, next], usedNext: true };
  }
  if (option.optional) return { words: [`${long}=${long.slice(2)}`], usedNext: false };
  return { words: [long], usedNext: false };
}

// `-Hv`, `-n4`, `-n 4`: flags until one takes a value, which is the rest of the word or the next.
function shortOptions(word: string, next: string | undefined, options: readonly Option[]): Rewritten {
  for (let k = 1; k < word.length; k += 1) {
    const option = options.find((o) => o.short === `-${word[k]}`);
    if (!option) throw getopt(`invalid option -- '${word[k]}'`);
    if (!option.required) continue;
    if (k < word.length - 1) return { words: [word], usedNext: false };
    if (next === undefined) throw getopt(`option requires an argument -- '${word[k]}'`);
    return { words: [word, next], usedNext: true };
  }
  return { words: [word], usedNext: false };
}

/**
 * A word getopt refuses. sbatch prints getopt's line without "error:", then 'Try "sbatch
 * --help" for more information', and exits 255 (observed); index.ts writes it so.
 */
export class GetoptError extends UserError {
  constructor(message: string) {
    super(message, { exitCode: 255 });
    this.name = 'GetoptError';
  }
}

function getopt(message: string): GetoptError {
  return new GetoptError(message);
}
