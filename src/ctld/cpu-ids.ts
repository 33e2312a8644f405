// Which CPUs of each node a job holds, by number (what `scontrol -d show job` prints as
// CPU_IDs=): when a job starts it takes, on each of its nodes, the lowest-numbered CPUs no
// other live job there holds, as cons_tres picks the first free cores (taken ones again only
// when the node is shared beyond its CPUs). The numbers are kept with the job (and journaled
// with its progress) as range text, so a finished job still shows what it had.
// Who holds what is indexed per node, so a start looks only at the jobs on its own nodes.
import { isFinished } from '../core/job-state.js';
import type { Controller } from './controller.js';
import type { CtldJob } from './job.js';

type Holders = Map<string, Set<CtldJob>>;

const holdersOf = new WeakMap<Controller, Holders>();

/** Gives a job that has just been allocated its CPU numbers on each of its nodes. */
export function assignCpuIds(ctl: Controller, job: CtldJob): void {
  const res = job.record.job_resrcs;
  if (res === null) return;
  const holders = nodeHolders(ctl);
  const names = ctl.table.namesFromBitmap(res.node_bitmap);
  const ids: Record<string, string> = {};
  names.forEach((name, k) => {
    const onNode = holders.get(name) ?? new Set<CtldJob>();
    const taken = new Set<number>();
    for (const other of [...onNode]) {
      if (!holds(other)) onNode.delete(other);
      else for (const id of cpuIdList(other.cpuIds?.[name] ?? '')) taken.add(id);
    }
    const want = res.cpus[k] ?? 0;
    const total = Math.max(ctl.table.nodes[ctl.table.indexOf(name)!]?.cpus ?? want, want);
    const mine: number[] = [];
    for (let id = 0; id < total && mine.length < want; id++) if (!taken.has(id)) mine.push(id);
    // A node shared beyond its CPUs (OverSubscribe) hands out taken ones again, lowest first.
    for (let id = 0; id < total && mine.length < want; id++) if (taken.has(id)) mine.push(id);
    ids[name] = cpuIdText(mine);
    onNode.add(job);
    holders.set(name, onNode);
  });
  job.cpuIds = ids;
}

/** The numbers of a `0-1,4` list. */
export function cpuIdList(text: string): number[] {
  const out: number[] = [];
  for (const part of text.split(',')) {
    if (part === '') continue;
    const [low, high = low] = part.split('-').map(Number);
    for (let id = low!; id <= high!; id++) out.push(id);
  }
  return out;
}

/** `0-1,4`: Slurm's bit_fmt of a set of CPU numbers. */
export function cpuIdText(ids: readonly number[]): string {
  const sorted = [...ids].sort((a, b) => a - b);
  const parts: string[] = [];
  for (let i = 0; i < sorted.length; ) {
    let j = i;
    while (j + 1 < sorted.length && sorted[j + 1] === sorted[j]! + 1) j++;
    parts.push(j === i ? String(sorted[i]) : `${sorted[i]}-${sorted[j]}`);
    i = j + 1;
  }
  return parts.join(',');
}

// A job holds its CPUs while it has nodes and has not finished (suspended jobs keep theirs).
function holds(job: CtldJob): boolean {
  return job.cpuIds !== undefined && job.record.node_bitmap !== null && !isFinished(job.record.job_state);
}

// Built once per controller from the jobs it recovered, then kept up to date by assignCpuIds.
function nodeHolders(ctl: Controller): Holders {
  let holders = holdersOf.get(ctl);
  if (holders !== undefined) return holders;
  holders = new Map();
  for (const job of ctl.jobs.values()) {
    if (!holds(job)) continue;
    for (const name of Object.keys(job.cpuIds!)) holders.set(name, (holders.get(name) ?? new Set()).add(job));
  }
  holdersOf.set(ctl, holders);
  return holders;
}
