// slurm.conf text → logical lines, the way Slurm's parser reads them (src/common/parse_config.c,
// _get_next_line): everything after an unescaped `#` is a comment, a line ending in an odd
// number of backslashes continues on the next one (joined without a space), and once joined
// every backslash escapes the character after it (`\#` is a literal `#`, `\\` a backslash).

/** Where a line of a configuration file starts: its file (as given) and 1-based line number. */
export interface Where {
  file: string;
  line: number;
}

export interface LogicalLine extends Where {
  text: string;
}

/** The non-empty logical lines of a file's text, each with the number of its first line. */
export function logicalLines(text: string, file: string): LogicalLine[] {
  const physical = text.split('\n');
  const out: LogicalLine[] = [];
  let buffer = '';
  let start = 0;
  for (const [index, raw] of physical.entries()) {
    if (buffer === '') start = index + 1;
    const line = stripComment(raw.replace(/\r$/, ''));
    const cut = continuationCut(line);
    if (cut !== undefined) {
      buffer += line.slice(0, cut);
      continue;
    }
    buffer += line;
    const logical = stripEscapes(buffer);
    buffer = '';
    if (logical.trim() !== '') out.push({ file, line: start, text: logical });
  }
  if (buffer.trim() !== '') out.push({ file, line: start, text: stripEscapes(buffer) });
  return out;
}

// A `#` preceded by an even number of backslashes starts a comment.
function stripComment(line: string): string {
  let backslashes = 0;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (c === '#' && backslashes % 2 === 0) return line.slice(0, i);
    backslashes = c === '\\' ? backslashes + 1 : 0;
  }
  return line;
}

// Where the line is cut when it ends in an odd run of backslashes (trailing blanks after the
// run allowed), else undefined.
function continuationCut(line: string): number | undefined {
  let end = line.length;
  while (end > 0 && /\s/.test(line[end - 1]!)) end--;
  let run = 0;
  while (end - run > 0 && line[end - run - 1] === '\\') run++;
  return run % 2 === 1 ? end - 1 : undefined;
}

function stripEscapes(text: string): string {
  return text.replace(/\\(.?)/g, '$1');
}
