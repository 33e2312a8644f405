// The #SBATCH lines of a batch script, read as sbatch 22.05 reads them (src/sbatch/opt.c:
// _opt_batch_script, _get_argument). Observed: only lines that start with "#SBATCH" exactly
// (column 0, upper case; "#slurm" is not read) count; reading stops at the first line that is
// neither blank nor a comment; the words of all lines form one argument list, so "-J" on one
// line takes its value from the next.
import { FatalError } from './fatal.js';

const MAGIC = '#SBATCH';

/** The option words of the script's #SBATCH lines, in order; `file` names it in errors. */
export function directiveWords(script: string, file: string): string[] {
  return directiveWordLines(script, file).map((w) => w.word);
}

/** Each #SBATCH word with the number of the line it is on (for errors that name the line). */
export function directiveWordLines(script: string, file: string): Array<{ word: string; line: number }> {
  const words: Array<{ word: string; line: number }> = [];
  for (const [index, line] of script.split('\n').entries()) {
    if (!line.startsWith(MAGIC)) {
      // A line with anything but blanks before a '#' is a command: the directives end there.
      if (/^\s*[^\s#]/.test(line)) break;
      continue;
    }
    for (const word of lineWords(line.slice(MAGIC.length), file, index + 1)) words.push({ word, line: index + 1 });
  }
  return words;
}

// _get_argument(), word by word: blanks separate words unless quoted; "..." and '...' quote,
// and the quotes go; a backslash keeps the next character but cannot join two words ("a\ b"
// is "a" and "b"); an unquoted '#' ends the line. An empty word ("" or a '#') ends it too,
// so `-J "" -p x` leaves -J without its value, as in Slurm.
function lineWords(text: string, file: string, lineno: number): string[] {
  const words: string[] = [];
  let at = 0;
  for (;;) {
    const from = at;
    while (at < text.length && /\s/.test(text[at]!)) at += 1;
    let word = '';
    let quote: string | undefined;
    let escaped = false;
    for (; at < text.length && (quote !== undefined || !/\s/.test(text[at]!)); at += 1) {
      const c = text[at]!;
      if (escaped) escaped = false;
      else if (c === '\\') {
        escaped = true;
        continue;
      } else if (quote !== undefined) {
        if (c === quote) {
          quote = undefined;
          continue;
        }
      } else if (c === '"' || c === "'") {
        quote = c;
        continue;
      } else if (c === '#') break;
      word += c;
    }
    if (quote !== undefined) {
      // sbatch: "fatal: job.sh: line 2: Unmatched `"` in [ "q]": the line from where the
      // previous word ended.
      throw new FatalError(`${file}: line ${lineno}: Unmatched \`${quote}\` in [${text.slice(from)}]`);
    }
    if (word === '') return words;
    words.push(word);
  }
}
