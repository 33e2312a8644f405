// getopt_long() as Slurm's commands call it, over an option table: long options abbreviated
// to any unambiguous prefix (an exact name always wins), `--name=value` or `--name value`
// for a required argument, an optional one only when attached, clusters of short letters
// (`-Hvn4`), and, with `stopAtOperand` ("+" in the optstring, srun's and sbatch's way), the
// first word that is not an option ends the options. Errors carry getopt's own words; the
// command prints them after "<bin>: " with its 'Try "<bin> --help"' line (usage-error.ts).
import { UserError } from '../../core/errors.js';
import type { Occurrence, OptionSpec } from './spec.js';

export interface GetoptResult {
  options: Occurrence[];
  /** The words after the options (the script or command and its arguments). */
  operands: string[];
}

export interface GetoptSettings {
  /** Stop at the first operand (srun, sbatch); otherwise operands may be mixed in (squeue). */
  stopAtOperand: boolean;
}

/** A word getopt refused: its message without the command's name; exit 255 unless set. */
export class GetoptError extends UserError {
  /** The long option the user probably meant (for the ts names' "did you mean" line). */
  readonly suggestion: string | undefined;
  /** The index of the word refused (set by getopt()). */
  index = -1;

  constructor(message: string, suggestion?: string) {
    super(message, { exitCode: 255 });
    this.name = 'GetoptError';
    this.suggestion = suggestion;
  }
}

export function getopt(words: readonly string[], specs: readonly OptionSpec[], settings: GetoptSettings): GetoptResult {
  const options: Occurrence[] = [];
  const operands: string[] = [];
  for (let i = 0; i < words.length; i += 1) {
    const word = words[i]!;
    if (word === '--') {
      operands.push(...words.slice(i + 1));
      break;
    }
    if (!word.startsWith('-') || word === '-') {
      if (settings.stopAtOperand) {
        operands.push(...words.slice(i));
        break;
      }
      operands.push(word);
      continue;
    }
    const next = words[i + 1];
    const from = options.length;
    try {
      const used = word.startsWith('--') ? longOption(word, next, specs, options) : shortOptions(word, next, specs, options);
      for (const occurrence of options.slice(from)) occurrence.index = i;
      if (used) i += 1;
    } catch (error) {
      if (error instanceof GetoptError) error.index = i;
      throw error;
    }
  }
  return { options, operands };
}

/** The option a long word names: exact, else the one option it is a prefix of. */
export function findLong(name: string, specs: readonly OptionSpec[]): OptionSpec[] {
  // A short-only option (tsctld's -D) has no long name to match.
  const named = specs.filter((s) => s.long !== '');
  const exact = named.find((s) => s.long === name);
  if (exact) return [exact];
  const candidates = named.filter((s) => s.long.startsWith(name));
  // Two names for one option (aliases) are no ambiguity to getopt when they share a key and
  // argument kind; it takes the first.
  const distinct = candidates.filter((s, k) => candidates.findIndex((o) => o.key === s.key && o.arg === s.arg && o.flagValue === s.flagValue) === k);
  return distinct.length === 1 ? [distinct[0]!] : candidates;
}

// Returns whether the next word was taken as the argument.
function longOption(word: string, next: string | undefined, specs: readonly OptionSpec[], out: Occurrence[]): boolean {
  const eq = word.indexOf('=');
  const name = word.slice(2, eq === -1 ? undefined : eq);
  const found = findLong(name, specs);
  if (found.length === 0) throw new GetoptError(`unrecognized option '${word}'`, closest(name, specs));
  if (found.length > 1) {
    // Slurm's table is in name order, and getopt lists the possibilities in table order.
    const possible = [...found].sort((a, b) => (a.long < b.long ? -1 : 1)).map((s) => `'--${s.long}'`).join(' ');
    throw new GetoptError(`option '${word}' is ambiguous; possibilities: ${possible}`);
  }
  const spec = found[0]!;
  if (eq !== -1) {
    if (spec.arg === 'none') throw new GetoptError(`option '--${spec.long}' doesn't allow an argument`);
    out.push({ spec, value: word.slice(eq + 1), word });
    return false;
  }
  if (spec.arg === 'required') {
    if (next === undefined) throw new GetoptError(`option '--${spec.long}' requires an argument`);
    out.push({ spec, value: next, word });
    return true;
  }
  out.push({ spec, value: undefined, word });
  return false;
}

// `-Hv`, `-n4`, `-n 4`, `-K0`: letters until one takes an argument, which is the rest of the
// word (or, when required, the next word).
function shortOptions(word: string, next: string | undefined, specs: readonly OptionSpec[], out: Occurrence[]): boolean {
  for (let k = 1; k < word.length; k += 1) {
    const letter = word[k]!;
    const spec = specs.find((s) => s.short === letter);
    if (!spec) throw new GetoptError(`invalid option -- '${letter}'`);
    const rest = word.slice(k + 1);
    if (spec.arg === 'none') {
      out.push({ spec, value: undefined, word: `-${letter}` });
      continue;
    }
    if (rest !== '' || spec.arg === 'optional') {
      out.push({ spec, value: rest === '' ? undefined : rest, word });
      return false;
    }
    if (next === undefined) throw new GetoptError(`option requires an argument -- '${letter}'`);
    out.push({ spec, value: next, word });
    return true;
  }
  return false;
}

// The listed option nearest to a mistyped name (at most a third of it changed), for the ts
// names' hint; Slurm's own names print no hint.
function closest(name: string, specs: readonly OptionSpec[]): string | undefined {
  let best: { long: string; distance: number } | undefined;
  for (const spec of specs) {
    if (spec.hidden || spec.long === '') continue;
    const distance = editDistance(name, spec.long);
    if (distance <= Math.max(1, Math.floor(name.length / 3)) && (!best || distance < best.distance)) best = { long: spec.long, distance };
  }
  return best && `--${best.long}`;
}

function editDistance(a: string, b: string): number {
  let row = Array.from({ length: b.length + 1 }, (_v, j) => j);
  for (let i = 1; i <= a.length; i += 1) {
    const next = [i];
    for (let j = 1; j <= b.length; j += 1) {
      next[j] = Math.min(row[j]! + 1, next[j - 1]! + 1, row[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    row = next;
  }
  return row[b.length]!;
}
