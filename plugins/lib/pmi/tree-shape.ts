// Where a node sits in its step's PMI tree. As in Slurm's mpi/pmi2, tsrun is the root (position
// 0) and the nodes follow it in node id order (the node with the i-th lowest id that has tasks
// is at position i+1); a position p has the children p*w+1 .. p*w+w, so tsrun's children are
// the first w nodes. Nodes without tasks take no part. The width comes from
// SLURM_PMI2_TREE_WIDTH, as in Slurm, else Slurm 22.05's default TreeWidth.

/** Slurm 22.05's default TreeWidth. */
export const DEFAULT_TREE_WIDTH = 50;

export const TREE_WIDTH_ENV = 'SLURM_PMI2_TREE_WIDTH';

/** The width asked for; anything but a whole number of at least 2 gives the default (as Slurm). */
export function treeWidth(value: string | null | undefined): number {
  const width = Number(value);
  return value && Number.isInteger(width) && width >= 2 ? width : DEFAULT_TREE_WIDTH;
}

export interface TreePlace {
  /** The parent node's id, or null when the parent is tsrun. */
  parent: number | null;
  /** The children's node ids, in order. */
  children: number[];
}

/** The place of `nodeid` (null: tsrun's) in the tree of a step with `tasksPerNode`. */
export function treePlace(tasksPerNode: readonly number[], nodeid: number | null, width: number): TreePlace {
  const members = tasksPerNode.flatMap((tasks, id) => (tasks > 0 ? [id] : []));
  const position = nodeid === null ? 0 : members.indexOf(nodeid) + 1;
  if (position === 0 && nodeid !== null) throw new Error(`node ${nodeid} has no tasks and no place in the PMI tree`);
  const parentPosition = Math.floor((position - 1) / width);
  const children: number[] = [];
  for (let child = position * width + 1; child <= Math.min(position * width + width, members.length); child += 1) {
    children.push(members[child - 1]!);
  }
  return { parent: position === 0 || parentPosition === 0 ? null : members[parentPosition - 1]!, children };
}

/**
 * One node runs every task of the step (the others, if any, none): it is the whole fence tree,
 * its fences complete there, and tsrun needs no port for the nodes (nor a secret for them).
 */
export function wholeTreeOnOneNode(tasksPerNode: readonly number[]): boolean {
  return tasksPerNode.filter((tasks) => tasks > 0).length === 1;
}
