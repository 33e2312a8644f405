// The four ways Slurm 22.05 places a step's tasks on its nodes, given how many tasks each
// node can hold (src/common/slurm_step_layout.c: _task_layout_block, _task_layout_cyclic,
// _task_layout_plane, _task_layout_hostfile). Each returns the global task ids per node.
// Over-subscription (more tasks than slots, allowed with --overcommit) follows Slurm too.

/** Block: how many per node is decided as if cyclic, then ids are handed out node by node. */
export function placeBlock(slots: readonly number[], ntasks: number, pack = false): number[][] {
  const counts = pack ? packCounts(slots, ntasks) : spreadCounts(slots, ntasks);
  let next = 0;
  return counts.map((count) => Array.from({ length: count }, () => next++));
}

// Round j gives one task to every node with more than j slots; once a round leaves no
// node with room, every node takes one per round.
function spreadCounts(slots: readonly number[], ntasks: number): number[] {
  const counts = slots.map(() => 0);
  let placed = 0;
  let overSubscribe = false;
  for (let j = 0; placed < ntasks; j += 1) {
    let spaceRemaining = false;
    for (let i = 0; i < slots.length && placed < ntasks; i += 1) {
      if (j < slots[i]! || overSubscribe) {
        counts[i]! += 1;
        placed += 1;
        if (j + 1 < slots[i]!) spaceRemaining = true;
      }
    }
    if (!spaceRemaining) overSubscribe = true;
  }
  return counts;
}

// -m block,pack: one task per node, then fill nodes in order, then spread what is left.
function packCounts(slots: readonly number[], ntasks: number): number[] {
  const counts = slots.map(() => 0);
  let placed = 0;
  const add = (i: number): void => {
    counts[i]! += 1;
    placed += 1;
  };
  for (let i = 0; i < slots.length && placed < ntasks; i += 1) {
    if (counts[i]! < slots[i]!) add(i);
  }
  for (let i = 0; i < slots.length && placed < ntasks; i += 1) {
    while (counts[i]! < slots[i]! && placed < ntasks) add(i);
  }
  while (placed < ntasks) {
    for (let i = 0; i < slots.length && placed < ntasks; i += 1) add(i);
  }
  return counts;
}

/** Cyclic: task n to node n mod N while nodes have room, then evenly over-subscribed. */
export function placeCyclic(slots: readonly number[], ntasks: number): number[][] {
  const tids: number[][] = slots.map(() => []);
  const total = slots.reduce((a, b) => a + b, 0);
  let overSubscribe = total < ntasks;
  // Each node may take at most this many tasks beyond its slots.
  const maxOver = overSubscribe ? Math.ceil((ntasks - total) / slots.length) : 0;
  let taskId = 0;
  for (let j = 0; taskId < ntasks; j += 1) {
    let spaceRemaining = false;
    for (let i = 0; i < slots.length && taskId < ntasks; i += 1) {
      if (j < slots[i]! || (overSubscribe && j < slots[i]! + maxOver)) {
        tids[i]!.push(taskId++);
        if (j + 1 < slots[i]!) spaceRemaining = true;
      }
    }
    if (!spaceRemaining) overSubscribe = true;
  }
  return tids;
}

/** Plane: blocks of `size` consecutive tasks dealt to the nodes in turn. */
export function placePlane(slots: readonly number[], ntasks: number, size: number): number[][] {
  const counts = slots.map(() => 0);
  let placed = 0;
  let overSubscribe = false;
  for (let j = 0; placed < ntasks; j += 1) {
    let spaceRemaining = false;
    // The first round starts with one task on every node, whatever its slots.
    for (let i = 0; j === 0 && i < slots.length && placed < ntasks; i += 1) {
      counts[i]! += 1;
      placed += 1;
    }
    for (let i = 0; i < slots.length && placed < ntasks; i += 1) {
      for (let k = j === 0 ? 1 : 0; k < size && placed < ntasks; k += 1) {
        if (slots[i]! - counts[i]! !== 0 || overSubscribe) {
          counts[i]! += 1;
          placed += 1;
          if (slots[i]! - (counts[i]! + 1) >= 0) spaceRemaining = true;
        }
      }
    }
    if (!spaceRemaining) overSubscribe = true;
  }
  const tids: number[][] = slots.map(() => []);
  for (let taskId = 0; taskId < ntasks; ) {
    for (let i = 0; i < slots.length && taskId < ntasks; i += 1) {
      for (let k = 0; k < size && tids[i]!.length < counts[i]! && taskId < ntasks; k += 1) {
        tids[i]!.push(taskId++);
      }
    }
  }
  return tids;
}

/** Arbitrary: task n runs on the node named n-th in `taskNodes` (srun -m arbitrary -w). */
export function placeArbitrary(nodes: readonly string[], taskNodes: readonly string[]): number[][] {
  const tids: number[][] = nodes.map(() => []);
  const index = new Map(nodes.map((name, i) => [name, i]));
  taskNodes.forEach((name, taskId) => tids[index.get(name)!]!.push(taskId));
  return tids;
}
