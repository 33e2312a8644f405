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
  const ncpus = a.avail.reduce((x, y) => x + y, 0);
  const cpt = a.overcommit ? 1 : a.cpusPerTask;
  let maxTasks = ncpus;
  if (!a.overcommit && a.cpusPerTask > 1) {
    maxTasks = a.ntasksPerNode > 0 ? a.ntasksPerNode * a.avail.length : Math.floor(ncpus / a.cpusPerTask);
  }
  maxTasks = Math.max(maxTasks, 1);
  const cpus = a.avail.map(() => 0);
  let tasks = 0;
  for (let n = 0; n < a.avail.length && tasks < maxTasks; n++) {
    if (a.avail[n]! <= 0) continue;
    tasks++;
    cpus[n] = Math.min(a.avail[n]!, cpt);
  }
  for (let n = 0; n < a.avail.length && tasks < maxTasks; n++) {
    while (tasks < maxTasks && cpus[n]! + cpt <= a.avail[n]!) {
      cpus[n]! += cpt;
      tasks++;
    }
  }
  // Every chosen node runs something: one task's CPUs at least.
  return cpus.map((c, n) => (c > 0 ? c : Math.min(a.avail[n]!, cpt)));
}
