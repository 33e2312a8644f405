import { describe, expect, it } from 'vitest';
import { UserError } from '../../../src/core/errors.js';
import { createStepLayout, tasksPerNodeString } from '../../../src/core/step-layout.js';
import type { StepLayoutRequest } from '../../../src/core/step-layout.js';

// Every expectation below was observed on Slurm 22.05.8 (three slurmd node1..node3 with
// 4 CPUs each): `salloc -N3 --exclusive` and then `srun <options> sh -c 'echo $SLURM_PROCID
// $SLURMD_NODENAME $SLURM_NODEID $SLURM_LOCALID $SLURM_TASKS_PER_NODE'`. tids[n] lists the
// SLURM_PROCIDs seen on node n in SLURM_LOCALID order.
const NODES = ['node1', 'node2', 'node3'];
const FULL = { nodes: NODES, cpus: [4, 4, 4] };

function layout(req: Partial<StepLayoutRequest> & { ntasks: number }) {
  return createStepLayout({ ...FULL, ...req });
}

describe('createStepLayout on node[1-3] with 4 CPUs each', () => {
  it.each([
    ['-n7', { ntasks: 7 }, '3,2(x2)', [[0, 1, 2], [3, 4], [5, 6]]],
    ['-n7 -m cyclic', { ntasks: 7, distribution: 'cyclic' }, '3,2(x2)', [[0, 3, 6], [1, 4], [2, 5]]],
    ['-n7 -m plane=2', { ntasks: 7, distribution: 'plane=2' }, '3,2(x2)', [[0, 1, 6], [2, 3], [4, 5]]],
    ['-n7 -m plane=3', { ntasks: 7, distribution: 'plane=3' }, '3(x2),1', [[0, 1, 2], [3, 4, 5], [6]]],
    ['-n7 -m plane=4', { ntasks: 7, distribution: 'plane=4' }, '4,2,1', [[0, 1, 2, 3], [4, 5], [6]]],
    ['-n12', { ntasks: 12 }, '4(x3)', [[0, 1, 2, 3], [4, 5, 6, 7], [8, 9, 10, 11]]],
    ['--ntasks-per-node=2', { ntasks: 6, ntasksPerNode: 2 }, '2(x3)', [[0, 1], [2, 3], [4, 5]]],
    ['-n6 -c2', { ntasks: 6, cpusPerTask: 2 }, '2(x3)', [[0, 1], [2, 3], [4, 5]]],
    ['-n5 -c2 -m cyclic', { ntasks: 5, cpusPerTask: 2, distribution: 'cyclic' }, '2(x2),1', [[0, 3], [1, 4], [2]]],
    ['-n4 -c3', { ntasks: 4, cpusPerTask: 3 }, '2,1(x2)', [[0, 1], [2], [3]]],
    ['-n3 -c3', { ntasks: 3, cpusPerTask: 3 }, '1(x3)', [[0], [1], [2]]],
    ['-n5 -c3 -O', { ntasks: 5, cpusPerTask: 3, overcommit: true }, '2(x2),1', [[0, 1], [2, 3], [4]]],
    ['-n4 -m cyclic:cyclic', { ntasks: 4, distribution: 'cyclic:cyclic' }, '2,1(x2)', [[0, 3], [1], [2]]],
    ['-n4 -m block:block', { ntasks: 4, distribution: 'block:block' }, '2,1(x2)', [[0, 1], [2], [3]]],
    ['-n7 -m block,NoPack', { ntasks: 7, distribution: 'block,NoPack' }, '3,2(x2)', [[0, 1, 2], [3, 4], [5, 6]]],
  ] as const)('srun %s', (_flags, req, tpn, tids) => {
    const result = layout(req);
    expect(tasksPerNodeString(result)).toBe(tpn);
    expect(result.tids).toEqual(tids);
  });

  it('over-subscribes with -O as Slurm does', () => {
    // srun -n13 -O
    expect(layout({ ntasks: 13, overcommit: true }).tids).toEqual([
      [0, 1, 2, 3, 4],
      [5, 6, 7, 8],
      [9, 10, 11, 12],
    ]);
    // srun -n16 -O -m cyclic: 6,5(x2)
    const cyclic = layout({ ntasks: 16, overcommit: true, distribution: 'cyclic' });
    expect(cyclic.tids).toEqual([
      [0, 3, 6, 9, 12, 15],
      [1, 4, 7, 10, 13],
      [2, 5, 8, 11, 14],
    ]);
    // srun -n14 -O -m plane=2: 6,4(x2)
    expect(layout({ ntasks: 14, overcommit: true, distribution: 'plane=2' }).tids).toEqual([
      [0, 1, 6, 7, 12, 13],
      [2, 3, 8, 9],
      [4, 5, 10, 11],
    ]);
  });

  it('gives node ids and local ids per task', () => {
    const result = layout({ ntasks: 7, distribution: 'cyclic' });
    // SLURM_NODEID of PROCID 0..6 under -m cyclic
    expect(result.nodeOfTask).toEqual([0, 1, 2, 0, 1, 2, 0]);
    expect(result.tids[0]!.indexOf(6)).toBe(2); // PROCID 6 has SLURM_LOCALID 2
    expect(result.distribution).toBe('cyclic');
  });

  it('defaults to cyclic when there are no more tasks than nodes (SLURM_DISTRIBUTION=cyclic)', () => {
    expect(layout({ ntasks: 3 }).distribution).toBe('cyclic');
    expect(layout({ ntasks: 7 }).distribution).toBe('block');
  });
});

describe('createStepLayout on an allocation of 4, 2 and 1 CPUs', () => {
  // srun -N3 -n7 without salloc: the job got 4, 2 and 1 CPUs on node1..node3.
  const JOB = { nodes: NODES, cpus: [4, 2, 1], ntasks: 7 };
  it.each([
    ['block', [[0, 1, 2, 3], [4, 5], [6]]],
    ['cyclic', [[0, 3, 5, 6], [1, 4], [2]]],
    ['plane=2', [[0, 1, 5, 6], [2, 3], [4]]],
    ['plane=3', [[0, 1, 2, 6], [3, 4], [5]]],
  ] as const)('-m %s', (distribution, tids) => {
    const result = createStepLayout({ ...JOB, distribution });
    expect(tasksPerNodeString(result)).toBe('4,2,1');
    expect(result.tids).toEqual(tids);
  });

  it('-N2 -n5 -m cyclic:block on 4 and 1 CPUs', () => {
    const nodes = ['node1', 'node2'];
    const result = createStepLayout({ nodes, cpus: [4, 1], ntasks: 5, distribution: 'cyclic:block' });
    expect(result.tids).toEqual([[0, 2, 3, 4], [1]]);
  });

  it('-m block,pack fills a node before the next (step on node[1-2], 4 CPUs each)', () => {
    const nodes = ['node1', 'node2'];
    const result = createStepLayout({ nodes, cpus: [4, 4], ntasks: 7, distribution: 'block,pack' });
    expect(tasksPerNodeString(result)).toBe('4,3');
  });
});

describe('createStepLayout with -m arbitrary', () => {
  it.each([
    ['node1,node1,node2', ['node1', 'node2'], '2,1', [[0, 1], [2]]],
    ['node2,node1,node2,node3', NODES, '1,2,1', [[1], [0, 2], [3]]],
    ['node1,node1,node3', ['node1', 'node3'], '2,1', [[0, 1], [2]]],
    ['node[1-3],node[1-3]', NODES, '2(x3)', [[0, 3], [1, 4], [2, 5]]],
    ['node1,node2,node1', ['node1', 'node2'], '2,1', [[0, 2], [1]]],
  ] as const)('-w %s', (list, nodes, tpn, tids) => {
    const arbitraryNodes = list === 'node[1-3],node[1-3]' ? [...NODES, ...NODES] : list.split(',');
    const result = layout({ ntasks: arbitraryNodes.length, distribution: 'arbitrary', arbitraryNodes });
    expect(result.nodes).toEqual(nodes);
    expect(tasksPerNodeString(result)).toBe(tpn);
    expect(result.tids).toEqual(tids);
  });

  it('refuses a list whose length is not the task count', () => {
    const run = () => layout({ ntasks: 2, distribution: 'arbitrary', arbitraryNodes: ['node1', 'node1', 'node2'] });
    expect(run).toThrow(UserError);
    expect(run).toThrow('You asked for 2 tasks but hostlist specified 3 nodes'); // exit 1
  });

  it('refuses a node outside the allocation', () => {
    // salloc -N2; srun -n2 -m arbitrary -w node1,node3 (exit 1)
    const run = () =>
      createStepLayout({
        nodes: ['node1', 'node2'],
        cpus: [4, 4],
        ntasks: 2,
        jobId: 62,
        distribution: 'arbitrary',
        arbitraryNodes: ['node1', 'node3'],
      });
    expect(run).toThrow('Unable to create step for job 62: Requested node configuration is not available');
  });

  it('counts CPUs only on the nodes named', () => {
    // srun -n5 -m arbitrary -w node1,node1,node1,node1,node1 (exit 1)
    const run = () =>
      layout({ ntasks: 5, jobId: 29, distribution: 'arbitrary', arbitraryNodes: Array(5).fill('node1') });
    expect(run).toThrow('Unable to create step for job 29: More processors requested than permitted');
  });
});

describe('createStepLayout refusals', () => {
  it.each([
    ['-n13', { ntasks: 13 }],
    ['-n7 -c2', { ntasks: 7, cpusPerTask: 2 }],
  ])('srun %s: More processors requested than permitted (exit 1)', (_flags, req) => {
    try {
      layout({ ...req, jobId: 24 });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(UserError);
      const text = 'Unable to create step for job 24: More processors requested than permitted';
      expect((error as UserError).message).toBe(text);
      expect((error as UserError).code).toBe('ESLURM_TOO_MANY_REQUESTED_CPUS');
      expect((error as UserError).exitCode).toBe(1);
    }
  });

  it('srun -n1 -c5 on one 4-CPU node is refused, and allowed with -O', () => {
    const one = { nodes: ['node1'], cpus: [4], ntasks: 1, cpusPerTask: 5 };
    expect(() => createStepLayout(one)).toThrow('More processors requested than permitted');
    // srun -n2 -O -c5 ran one task on each of node1 and node2
    const two = { nodes: ['node1', 'node2'], cpus: [4, 4], ntasks: 2, cpusPerTask: 5, overcommit: true };
    expect(createStepLayout(two).tids).toEqual([[0], [1]]);
  });

  it('treats inconsistent requests as bugs, not user errors', () => {
    expect(() => createStepLayout({ nodes: ['node1'], cpus: [], ntasks: 1 })).toThrow(RangeError);
    expect(() => layout({ ntasks: 0 })).toThrow(RangeError);
    expect(() => layout({ ntasks: 2, distribution: { node: 'plane' } })).toThrow(RangeError);
  });
});
