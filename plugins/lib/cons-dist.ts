// The CPUs a cons_tres job keeps on each chosen node: Slurm 22.05's _compute_c_b_task_dist
// (src/plugins/select/cons_tres/dist_tasks.c) for block distribution. The tasks the CPUs
// allow (CPUs / cpus-per-task, or --ntasks-per-node × nodes) are laid out one per node first,
// then each node is filled in turn; CPUs no task uses are given back. Real Slurm:
// `-n2 -c3` on 4-CPU nodes gets 3(x2), not the 4,3 the node choice offered.

export interface DistArgs {
  /** CPUs offered by each chosen node, in node order. */
  readonly avail: readonly number[];
  readonly cpusPerTask: number;
  readonly ntasksPerNode: number;
  readonly overcommit: boolean;
}

/** CPUs each node keeps (same order). */
export function distributeCpus(a: DistArgs): number[] {
  const avail = a.avail;
  const count = avail.length;
  let ncpus = 0;
  for (let n = 0; n < count; n++) ncpus += avail[n]!;
  const cpt = a.overcommit ? 1 : a.cpusPerTask;
  let maxTasks = ncpus;
  if (!a.overcommit && a.cpusPerTask > 1) {
    maxTasks = a.ntasksPerNode > 0 ? a.ntasksPerNode * count : Math.floor(ncpus / a.cpusPerTask);
  }
  maxTasks = Math.max(maxTasks, 1);
  const cpus = new Array<number>(count).fill(0);
  let tasks = 0;
  for (let n = 0; n < count && tasks < maxTasks; n++) {
    if (avail[n]! <= 0) continue;
    tasks++;
    cpus[n] = Math.min(avail[n]!, cpt);
  }
  for (let n = 0; n < count && tasks < maxTasks; n++) {
    // As many more tasks as the node holds, at once rather than one by one.
    const more = Math.min(maxTasks - tasks, Math.max(0, Math.floor((avail[n]! - cpus[n]!) / cpt)));
    cpus[n]! += more * cpt;
    tasks += more;
  }
  // Every chosen node runs something: one task's CPUs at least.
  for (let n = 0; n < count; n++) if (cpus[n] === 0) cpus[n] = Math.min(avail[n]!, cpt);
  return cpus;
}
