// select_p_resv_test for the built-in plugins: `count` nodes out of the available ones, best
// fit over runs of consecutive nodes, as select/linear places jobs — the shortest run that
// holds them all (the first such run on a tie); failing that, whole runs from the longest
// down, so a reservation is split over as few runs as it can be.
import type { Bitstr } from '../../src/plugin-api/index.js';

interface Run {
  first: number;
  length: number;
}

/** The nodes to reserve, as a bitmap the size of `avail`, or null when there are too few. */
export function pickReservationNodes(avail: Bitstr, count: number): Bitstr | null {
  if (count <= 0 || avail.setCount() < count) return null;
  const runs = runsOf(avail);
  const picked = avail.copy().clearAll();
  const fitting = runs.filter((r) => r.length >= count).sort((a, b) => a.length - b.length || a.first - b.first);
  if (fitting.length > 0) {
    picked.nset(fitting[0]!.first, fitting[0]!.first + count - 1);
    return picked;
  }
  let left = count;
  for (const run of [...runs].sort((a, b) => b.length - a.length || a.first - b.first)) {
    const take = Math.min(left, run.length);
    picked.nset(run.first, run.first + take - 1);
    left -= take;
    if (left === 0) break;
  }
  return picked;
}

function runsOf(bits: Bitstr): Run[] {
  const runs: Run[] = [];
  for (let i = bits.nextSet(0); i >= 0; ) {
    let end = i;
    while (end + 1 < bits.size && bits.test(end + 1)) end++;
    runs.push({ first: i, length: end - i + 1 });
    i = end + 1 < bits.size ? bits.nextSet(end + 1) : -1;
  }
  return runs;
}
