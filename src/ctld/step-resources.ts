// Which of a job's CPUs a new step gets, as slurmctld 22.05 shares a job among its steps
// (step_mgr.c _pick_step_nodes, observed: /work/ref/steps-overlap-exact.txt and
// steps-multi-node.txt). By default a step takes every CPU of the job on each of its nodes, so it
// needs nodes no other step uses; with --exact it takes only ntasks × cpus-per-task, from the
// CPUs other steps left free. A --overlap step neither counts against nor waits for the
// others. Nodes no step uses are chosen first, then the job's others, each in the job's order.
// -s/--oversubscribe plays no part (a step never gets more CPUs than the job has).

export interface StepAsk {
  ntasks: number;
  cpusPerTask: number;
  exact: boolean;
  overlap: boolean;
  /** -O: more tasks than CPUs; one CPU per node is enough. */
  overcommit: boolean;
  /** -N: exactly this many nodes. */
  nodeCount?: number;
  /** -w: these nodes of the job (indices in the job's node order). */
  nodes?: readonly number[];
}

/** The job's nodes as steps see them: CPUs, CPUs held by other steps, and steps running there. */
export interface JobUse {
  cpus: readonly number[];
  used: readonly number[];
  steps: readonly number[];
}

/** Granted: node indices in the job's order and the CPUs the step holds on each. */
export type StepFit =
  | { kind: 'granted'; nodes: number[]; cpus: number[] }
  | { kind: 'busy' }
  | { kind: 'never'; code: 'ESLURM_TOO_MANY_REQUESTED_CPUS' | 'ESLURM_REQUESTED_NODE_CONFIG_UNAVAILABLE' };

export function fitStep(job: JobUse, ask: StepAsk): StepFit {
  const all = job.cpus.map((_, i) => i);
  const candidates = ask.nodes ?? all;
  if (candidates.some((i) => i < 0 || i >= job.cpus.length)) return never('ESLURM_REQUESTED_NODE_CONFIG_UNAVAILABLE');
  // srun trims -N to the task count ("can't run 1 processes on 2 nodes, setting nnodes to 1").
  const count = ask.nodes ? ask.nodes.length : ask.nodeCount === undefined ? undefined : Math.min(ask.nodeCount, ask.ntasks);
  if (count !== undefined && count > candidates.length) return never('ESLURM_REQUESTED_NODE_CONFIG_UNAVAILABLE');
  const cpt = ask.overcommit ? 1 : ask.cpusPerTask;
  const needed = ask.overcommit ? (count ?? 1) : ask.ntasks * ask.cpusPerTask;
  // Never, even on an idle job: the CPUs the largest allowed set of nodes has.
  const biggest = [...candidates].map((i) => job.cpus[i]!).sort((a, b) => b - a).slice(0, count ?? candidates.length);
  if (biggest.reduce((a, b) => a + b, 0) < needed || Math.max(0, ...biggest) < cpt) return never('ESLURM_TOO_MANY_REQUESTED_CPUS');

  const free = (i: number): number => (ask.overlap ? job.cpus[i]! : job.cpus[i]! - job.used[i]!);
  const usable = (i: number): boolean => (ask.exact ? free(i) >= cpt : ask.overlap || job.used[i] === 0);
  // What a node can give this step: whole nodes give all the job's CPUs there.
  const capacity = (i: number): number => (ask.exact ? Math.floor(free(i) / cpt) * cpt : job.cpus[i]!);
  const order = [...candidates.filter((i) => job.steps[i] === 0), ...candidates.filter((i) => job.steps[i] !== 0)];
  const chosen: number[] = [];
  let have = 0;
  for (const i of order) {
    if (ask.nodes ? false : count !== undefined ? chosen.length === count : have >= needed) break;
    if (!usable(i)) {
      if (ask.nodes) return { kind: 'busy' };
      continue;
    }
    chosen.push(i);
    have += capacity(i);
  }
  if ((count !== undefined && chosen.length < count) || have < needed) return { kind: 'busy' };
  chosen.sort((a, b) => a - b);
  return { kind: 'granted', nodes: chosen, cpus: ask.exact ? exactCpus(chosen, capacity, ask) : chosen.map((i) => job.cpus[i]!) };
}

// --exact: one task on each node first (every node of the step runs one), then the rest
// where CPUs are left, in node order; the step holds its tasks' CPUs.
function exactCpus(chosen: number[], capacity: (i: number) => number, ask: StepAsk): number[] {
  const cpt = ask.overcommit ? 1 : ask.cpusPerTask;
  const slots = chosen.map((i) => Math.max(1, Math.floor(capacity(i) / cpt)));
  const tasks = chosen.map(() => 1);
  let left = ask.ntasks - chosen.length;
  for (let k = 0; k < chosen.length && left > 0; k++) {
    const more = Math.min(left, slots[k]! - 1);
    tasks[k]! += more;
    left -= more;
  }
  // -O: the tasks share what the node has left.
  return tasks.map((n, k) => (ask.overcommit ? Math.max(1, Math.min(n * ask.cpusPerTask, capacity(chosen[k]!))) : n * ask.cpusPerTask));
}

function never(code: 'ESLURM_TOO_MANY_REQUESTED_CPUS' | 'ESLURM_REQUESTED_NODE_CONFIG_UNAVAILABLE'): StepFit {
  return { kind: 'never', code };
}
