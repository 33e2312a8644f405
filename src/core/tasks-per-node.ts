// The run-length form Slurm uses for per-node counts in SLURM_TASKS_PER_NODE,
// SLURM_JOB_CPUS_PER_NODE and SLURM_STEP_TASKS_PER_NODE: "2(x3),1" is 2,2,2,1
// (src/common/slurm_protocol_defs.c uint32_compressed_to_str and uint16_array_to_str).
import { UserError } from './errors.js';

const RUN = /^(\d+)(?:\(x(\d+)\))?$/;
const MAX_COUNT = 0xffff_ffff;
// One entry per node. A string like "1(x4000000000)" must fail, not exhaust memory; Slurm
// caps arrays it unpacks at MAX_ARRAY_LEN_MEDIUM (pack.c), and we use the same bound.
const MAX_NODES = 1_000_000;

/** "2(x3),1" from [2, 2, 2, 1]; a run of one is written bare, and [] gives "". */
export function compressCounts(counts: readonly number[]): string {
  const runs: string[] = [];
  for (let i = 0; i < counts.length; ) {
    const value = checkedCount(counts[i]!);
    let end = i + 1;
    while (end < counts.length && counts[end] === value) end += 1;
    const reps = end - i;
    runs.push(reps > 1 ? `${value}(x${reps})` : String(value));
    i = end;
  }
  return runs.join(',');
}

/** [2, 2, 2, 1] from "2(x3),1"; "" gives []. Anything else malformed is a UserError. */
export function expandCounts(text: string): number[] {
  if (text === '') return [];
  const counts: number[] = [];
  for (const run of text.split(',')) {
    const match = RUN.exec(run);
    const value = Number(match?.[1]);
    const reps = match?.[2] === undefined ? 1 : Number(match[2]);
    if (!match || value > MAX_COUNT || reps < 1 || counts.length + reps > MAX_NODES) {
      throw new UserError(`invalid per-node count list "${text}": bad element "${run}"`);
    }
    for (let i = 0; i < reps; i += 1) counts.push(value);
  }
  return counts;
}

function checkedCount(value: number): number {
  // A caller bug, not user input: the counts come from our own layout code.
  if (!Number.isInteger(value) || value < 0 || value > MAX_COUNT) {
    throw new RangeError(`per-node count must be an integer in 0..${MAX_COUNT}, got ${value}`);
  }
  return value;
}
