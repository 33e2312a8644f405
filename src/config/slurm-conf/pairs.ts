// One logical line → its `Key=Value` pairs, with the key pattern and value forms of Slurm's
// parser (parse_config.c keyvalue_pattern): a key of letters, digits, `_` and `.`, an optional
// operator before `=` (`+=`, `-=`, ...; kept but not used), and a value that is either quoted
// (spaces allowed) or runs to the next blank. Whatever is left that is not a pair is returned
// as `rest` for the caller to report.

export interface Pair {
  key: string;
  value: string;
  /** Offset in the text just after this pair. */
  end: number;
}

const PAIR = /^\s*([A-Za-z0-9_.]+)\s*[-*+/]?=\s*(?:"([^"]*)"|(\S+))(?=\s|$)/;

/** The pairs at the start of `text`, and the text after the last one (trimmed). */
export function splitPairs(text: string): { pairs: Pair[]; rest: string } {
  const pairs: Pair[] = [];
  let rest = text;
  let offset = 0;
  for (;;) {
    const m = PAIR.exec(rest);
    if (!m) break;
    offset += m[0].length;
    pairs.push({ key: m[1]!, value: m[2] ?? m[3] ?? '', end: offset });
    rest = rest.slice(m[0].length);
  }
  return { pairs, rest: rest.trim() };
}
