// The words of `scontrol update`: each `Key=value` (the key case-insensitive) or a bare word.
export interface Pair {
  /** The key in lower case (the whole word when it has no `=`). */
  key: string;
  value: string;
  /** The word as given, for messages. */
  word: string;
}

export function pairOf(word: string): Pair {
  const eq = word.indexOf('=');
  if (eq <= 0) return { key: word.toLowerCase(), value: '', word };
  return { key: word.slice(0, eq).toLowerCase(), value: word.slice(eq + 1), word };
}
