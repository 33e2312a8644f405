// Slurm hostlist expressions ("n[01-10],gpu[1-4]"), parsed and printed exactly as Slurm 22.05's
// scontrol does. Two families: from an expression (what `scontrol show hostnames|hostlist|
// hostlistsorted <expr>` print) and from a list of names (node names we hold as strings).
// Where Slurm accepts garbage by accident we throw instead; hostlist-parse.ts lists those cases.
import { UserError } from './errors.js';
import { parseHostlist } from './hostlist-parse.js';
import {
  type HostRange,
  namesOf,
  pushName,
  rangedString,
} from './hostlist-range.js';
import { sortRanges, uniqRanges } from './hostlist-sort.js';

export { HostlistError, HOSTLIST_LIMITS } from './hostlist-error.js';

// A name with these would not survive a round trip through an expression.
const NOT_IN_NAMES = /[\s,[\]]/;

/**
 * Every host an expression names, in Slurm's order, duplicates kept, like
 * `scontrol show hostnames`: `n[1-3],m7` -> n1 n2 n3 m7. Separators: ',', space, tab, newline.
 * @throws HostlistError (a UserError) for a malformed expression.
 */
export function expandHostlist(expr: string): string[] {
  return namesOf(parseHostlist(expr));
}

/**
 * An expression re-printed like `scontrol show hostlist <expr>`. Unlike compressHostlist of its
 * names, this keeps the prefix and width written in brackets: `node0[61-65]` stays as it is.
 */
export function rangedHostlist(expr: string): string {
  return rangedString(parseHostlist(expr));
}

/** An expression sorted like `scontrol show hostlistsorted <expr>` (see compressHostlistSorted). */
export function rangedHostlistSorted(expr: string): string {
  return rangedString(sortRanges(parseHostlist(expr)));
}

function rangesOf(names: readonly string[]): HostRange[] {
  const ranges: HostRange[] = [];
  for (const name of names) {
    if (name === '' || NOT_IN_NAMES.test(name)) {
      throw new UserError(`Invalid host name: ${JSON.stringify(name)}`);
    }
    pushName(ranges, name);
  }
  return ranges;
}

/**
 * Names compressed in the order given, like `scontrol show hostlist n3,n1,...`: only runs that
 * continue each other merge, duplicates stay (`n3,n1,n2,n2` -> `n[3,1-2,2]`).
 * @throws UserError for an empty name or one containing white space, ',', '[' or ']'.
 */
export function compressHostlist(names: readonly string[]): string {
  return rangedString(rangesOf(names));
}

/**
 * Names sorted and compressed like `scontrol show hostlistsorted`. Slurm does not remove
 * duplicates here: `n1,n1,n2` -> `n[1,1-2]`, and overlapping runs split oddly
 * (`n[1-3],n[2-4]` -> `n[1-2,2-3,3-4]`); expanding the result gives the same multiset of names.
 */
export function compressHostlistSorted(names: readonly string[]): string {
  return rangedString(sortRanges(rangesOf(names)));
}

/** Names sorted with duplicates removed (Slurm's hostlist_uniq): `n2,n1,n2` -> `n[1-2]`. */
export function compressHostlistUnique(names: readonly string[]): string {
  return rangedString(uniqRanges(rangesOf(names)));
}
