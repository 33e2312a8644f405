// --array as slurmctld 22.05 reads it (job_mgr.c: _valid_array_inx, _parse_array_tok): comma
// tokens `N`, `N-M` or `N-M:S`, each id below MaxArraySize, in any order, duplicates merged;
// `%L` limits how many tasks run at once. sbatch sends the text unchecked, so every mistake is
// the controller's ESLURM_INVALID_ARRAY, which sbatch prints as "Batch job submission failed:
// Invalid job array specification" and exits 1.
//
// Slurm's quirks we keep, each observed: empty tokens are skipped ("1,,3", ",", "" is no array
// at all); every token is cut at its own '%' ("1-3%2,5" is 1-3,5) but the limit is read after
// the first '%' of the whole text, as a C int, and a limit <= 0 means none ("%0", "%-1");
// one '[' before a token and one ']' after each number are dropped ("[1-3]", "1-5]:2");
// numbers may have leading blanks and '+' (strtol).
// Quirks we refuse: Slurm reads a missing number as 0, so "%4" is task 0 and "-" is 0-0, and
// it ignores what follows the limit ("1-3%5abc"); those are invalid here.
import type { ArraySpec } from '../protocol/job-desc.js';
import { UserError } from './errors.js';

/** Task ids and the running limit of an --array value; no tokens gives no task ids. */
export function parseArraySpec(text: string, maxArraySize = 1001): ArraySpec {
  const ids = new Set<number>();
  for (const token of text.split(',')) {
    if (token === '') continue;
    addToken(token.split('%')[0]!, ids, maxArraySize);
  }
  const percent = text.indexOf('%');
  const maxRunning = percent === -1 ? undefined : parseLimit(text.slice(percent + 1).split(',')[0]!);
  return { taskIds: [...ids].sort((a, b) => a - b), maxRunning, text };
}

/** Slurm's ArrayTaskId= form of task ids: runs as `a-b`, joined by ','; steps are not kept. */
export function formatTaskIds(ids: readonly number[]): string {
  const parts: string[] = [];
  for (let i = 0; i < ids.length; ) {
    let j = i;
    while (j + 1 < ids.length && ids[j + 1] === ids[j]! + 1) j += 1;
    parts.push(j === i ? String(ids[i]) : `${ids[i]}-${ids[j]}`);
    i = j + 1;
  }
  return parts.join(',');
}

// first[-last[:step]], with one optional ']' after each number.
const TOKEN = /^\[?(\s*\+?\d+)\]?(?:-(\s*\+?\d+)\]?(?::(\s*\+?\d+)\]?)?)?$/;

function addToken(token: string, ids: Set<number>, max: number): void {
  const match = TOKEN.exec(token);
  if (!match) throw invalidArray();
  const first = Number(match[1]);
  const last = match[2] === undefined ? first : Number(match[2]);
  const step = match[3] === undefined ? 1 : Number(match[3]);
  // Every number, the step too, must be below MaxArraySize (observed: "1-5:1001" is refused).
  if (last < first || step < 1 || last >= max || step >= max) throw invalidArray();
  for (let id = first; id <= last; id += step) ids.add(id);
}

const LLONG_MAX = 2n ** 63n - 1n;
const LLONG_MIN = -(2n ** 63n);

// The limit is strtoll(), which saturates, stored in an int: 4294967297 is 1, and 2147483648
// wraps negative (no limit).
function parseLimit(text: string): number | undefined {
  const match = /^\s*([+-]?\d+)$/.exec(text);
  if (!match) throw invalidArray();
  const value = BigInt(match[1]!);
  const saturated = value > LLONG_MAX ? LLONG_MAX : value < LLONG_MIN ? LLONG_MIN : value;
  const limit = Number(BigInt.asIntN(32, saturated));
  return limit > 0 ? limit : undefined;
}

function invalidArray(): UserError {
  return UserError.fromErrno('ESLURM_INVALID_ARRAY');
}
