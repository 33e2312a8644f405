// Which tasks of a step run on which of its nodes, as slurmctld lays them out
// (src/slurmctld/step_mgr.c step_layout_create → src/common/slurm_step_layout.c),
// plus the checks that make srun refuse a step, with srun's texts.
import { UserError } from './errors.js';
import { defaultDistribution, parseDistribution } from './task-dist.js';
import type { NodeDistribution, TaskDistribution } from './task-dist.js';
import { placeArbitrary, placeBlock, placeCyclic, placePlane } from './task-placement.js';
import { compressCounts } from './tasks-per-node.js';

export interface StepLayoutRequest {
  /** The step's nodes in allocation order. */
  nodes: readonly string[];
  /** CPUs the step may use on each node, same order as `nodes`. */
  cpus: readonly number[];
  ntasks: number;
  /** -c; 1 when absent. */
  cpusPerTask?: number;
  /** --ntasks-per-node, when srun kept it (it drops it when ntasks/nodes disagree). */
  ntasksPerNode?: number;
  /** -m, parsed or as typed; absent means srun's default for the task and node counts. */
  distribution?: TaskDistribution | string;
  /** -O: allow more tasks × cpus-per-task than CPUs. */
  overcommit?: boolean;
  /** For -m arbitrary: the node of each task, in task order (the expanded -w list). */
  arbitraryNodes?: readonly string[];
  /** Only for the error texts ("Unable to create step for job 5: ..."). */
  jobId?: number;
}

export interface StepLayout {
  /**
   * The step's nodes in allocation order; for arbitrary, only those the list names. A node
   * may get no task when there are fewer tasks than nodes: srun trims the node count first.
   */
  nodes: string[];
  tasksPerNode: number[];
  /** Global task ids on each node, in local-id order (SLURM_LOCALID is the index). */
  tids: number[][];
  /** Node index (SLURM_NODEID) of each task. */
  nodeOfTask: number[];
  distribution: NodeDistribution;
  planeSize?: number;
}

/** Lays out a step, or throws the UserError srun would print for it. */
export function createStepLayout(req: StepLayoutRequest): StepLayout {
  checkShape(req);
  const given = req.distribution ?? { node: undefined };
  const dist = typeof given === 'string' ? parseDistribution(given) : given;
  const node = dist.node ?? defaultDistribution(req.ntasks, req.nodes.length);
  if (node === 'arbitrary') return arbitraryLayout(req);
  checkCpus(req, req.cpus);
  const slots = taskSlots(req);
  if (node === 'plane') {
    const planeSize = checkedPlaneSize(dist);
    return { ...finish([...req.nodes], placePlane(slots, req.ntasks, planeSize), node), planeSize };
  }
  if (node === 'cyclic') return finish([...req.nodes], placeCyclic(slots, req.ntasks), node);
  return finish([...req.nodes], placeBlock(slots, req.ntasks, dist.pack === true), node);
}

/** SLURM_TASKS_PER_NODE (and SLURM_STEP_TASKS_PER_NODE): "3,2(x2)". */
export function tasksPerNodeString(layout: { tasksPerNode: readonly number[] }): string {
  return compressCounts(layout.tasksPerNode);
}

// How many tasks each node holds: its CPUs over cpus-per-task, at least 1. Slurm conveys
// --ntasks-per-node as plane_size and caps with ntasks_per_node × cpus_per_task although the
// value capped is already in tasks; we keep that (slurm_step_layout.c _init_task_layout).
function taskSlots(req: StepLayoutRequest): number[] {
  const cpt = req.cpusPerTask ?? 1;
  return req.cpus.map((cpus) => {
    const slots = Math.max(1, Math.floor(cpus / cpt));
    return req.ntasksPerNode === undefined ? slots : Math.min(slots, req.ntasksPerNode * cpt);
  });
}

function arbitraryLayout(req: StepLayoutRequest): StepLayout {
  const wanted = req.arbitraryNodes ?? [];
  // srun checks the count before asking slurmctld for the step (srun_job.c).
  if (wanted.length !== req.ntasks) {
    throw new UserError(`You asked for ${req.ntasks} tasks but hostlist specified ${wanted.length} nodes`);
  }
  if (wanted.some((name) => !req.nodes.includes(name))) {
    const text = 'Requested node configuration is not available';
    throw stepError(req, 'ESLURM_REQUESTED_NODE_CONFIG_UNAVAILABLE', text);
  }
  const used = req.nodes.flatMap((name, i) => (wanted.includes(name) ? [i] : []));
  checkCpus(req, used.map((i) => req.cpus[i]!));
  const nodes = used.map((i) => req.nodes[i]!);
  return finish(nodes, placeArbitrary(nodes, wanted), 'arbitrary');
}

// Without -O the step needs ntasks × cpus-per-task CPUs on the nodes it runs on.
function checkCpus(req: StepLayoutRequest, cpus: readonly number[]): void {
  if (req.overcommit) return;
  const total = cpus.reduce((a, b) => a + b, 0);
  if (req.ntasks * (req.cpusPerTask ?? 1) > total) {
    throw stepError(req, 'ESLURM_TOO_MANY_REQUESTED_CPUS', 'More processors requested than permitted');
  }
}

function stepError(
  req: StepLayoutRequest,
  code: 'ESLURM_TOO_MANY_REQUESTED_CPUS' | 'ESLURM_REQUESTED_NODE_CONFIG_UNAVAILABLE',
  text: string,
): UserError {
  const message = req.jobId === undefined ? text : `Unable to create step for job ${req.jobId}: ${text}`;
  return new UserError(message, { code });
}

function finish(nodes: string[], tids: number[][], distribution: NodeDistribution): StepLayout {
  const nodeOfTask: number[] = [];
  tids.forEach((ids, node) => ids.forEach((taskId) => (nodeOfTask[taskId] = node)));
  return { nodes, tasksPerNode: tids.map((ids) => ids.length), tids, nodeOfTask, distribution };
}

function checkedPlaneSize(dist: TaskDistribution): number {
  const size = dist.planeSize;
  if (size === undefined || !Number.isInteger(size) || size <= 0) {
    throw new RangeError(`plane distribution needs a positive plane size, got ${size}`);
  }
  return size;
}

// Wrong shapes are our own bugs, not user input: the CLI validated -n, -c and the allocation.
function checkShape(req: StepLayoutRequest): void {
  const positive = (n: number | undefined): boolean => n === undefined || (Number.isInteger(n) && n > 0);
  if (req.nodes.length === 0 || req.nodes.length !== req.cpus.length) {
    const counts = `${req.nodes.length} nodes, ${req.cpus.length} counts`;
    throw new RangeError(`step layout needs one CPU count per node (${counts})`);
  }
  if (!positive(req.ntasks) || !positive(req.cpusPerTask) || !positive(req.ntasksPerNode)) {
    throw new RangeError('step layout: ntasks, cpusPerTask and ntasksPerNode must be positive integers');
  }
}
