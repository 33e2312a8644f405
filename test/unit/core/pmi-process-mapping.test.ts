import { describe, expect, it } from 'vitest';
import { pmiProcessMapping } from '../../../src/core/pmi-process-mapping.js';
import { createStepLayout } from '../../../src/core/step-layout.js';

// Observed on Slurm 22.05.8: inside `salloc -N3 --exclusive` (node1..node3, 4 CPUs each),
// `srun --mpi=pmi2 <options> ./pm`, where pm is linked with Slurm's libpmi2 and prints
// PMI2_Info_GetJobAttr("PMI_process_mapping") from rank 0.
const FULL = { nodes: ['node1', 'node2', 'node3'], cpus: [4, 4, 4] };

describe('pmiProcessMapping', () => {
  it.each([
    ['-n7', { ntasks: 7 }, '(vector,(0,1,3),(1,2,2))'],
    ['-n7 -m cyclic', { ntasks: 7, distribution: 'cyclic' }, '(vector,(0,3,1),(0,3,1),(0,1,1))'],
    ['-n7 -m plane=2', { ntasks: 7, distribution: 'plane=2' }, '(vector,(0,3,2),(0,1,1))'],
    ['-n7 -m plane=3', { ntasks: 7, distribution: 'plane=3' }, '(vector,(0,2,3),(2,1,1))'],
    ['-n8 -m plane=3', { ntasks: 8, distribution: 'plane=3' }, '(vector,(0,2,3),(2,1,2))'],
    ['--ntasks-per-node=2', { ntasks: 6, ntasksPerNode: 2 }, '(vector,(0,3,2))'],
    ['-n12', { ntasks: 12 }, '(vector,(0,3,4))'],
    ['-n3', { ntasks: 3 }, '(vector,(0,3,1))'],
    ['-n5 -m cyclic', { ntasks: 5, distribution: 'cyclic' }, '(vector,(0,3,1),(0,2,1))'],
    ['-n4 -m block', { ntasks: 4, distribution: 'block' }, '(vector,(0,1,2),(1,2,1))'],
    ['-n4 -m cyclic:block', { ntasks: 4, distribution: 'cyclic:block' }, '(vector,(0,3,1),(0,1,1))'],
    [
      '-n16 -O -m cyclic',
      { ntasks: 16, overcommit: true, distribution: 'cyclic' },
      '(vector,(0,3,1),(0,3,1),(0,3,1),(0,3,1),(0,3,1),(0,1,1))',
    ],
    [
      '-n14 -O -m plane=2',
      { ntasks: 14, overcommit: true, distribution: 'plane=2' },
      '(vector,(0,3,2),(0,3,2),(0,1,2))',
    ],
    [
      '-n3 -m arbitrary -w node1,node1,node2',
      { ntasks: 3, distribution: 'arbitrary', arbitraryNodes: ['node1', 'node1', 'node2'] },
      '(vector,(0,3,1))',
    ],
    [
      '-n4 -m arbitrary -w node2,node1,node2,node3',
      { ntasks: 4, distribution: 'arbitrary', arbitraryNodes: ['node2', 'node1', 'node2', 'node3'] },
      '(vector,(0,4,1))',
    ],
  ] as const)('srun --mpi=pmi2 %s', (_flags, req, expected) => {
    expect(pmiProcessMapping(createStepLayout({ ...FULL, ...req }))).toBe(expected);
  });

  it('srun --mpi=pmi2 -n2 and -n1 (srun first trims the step to 2 and 1 nodes)', () => {
    const two = { nodes: ['node1', 'node2'], cpus: [4, 4], ntasks: 2 };
    expect(pmiProcessMapping(createStepLayout(two))).toBe('(vector,(0,2,1))');
    expect(pmiProcessMapping(createStepLayout({ nodes: ['node1'], cpus: [4], ntasks: 1 }))).toBe('(vector,(0,1,1))');
  });

  it('matches the notes for 4 ranks on 2 nodes and 3 ranks on 2 nodes', () => {
    const two = { nodes: ['a', 'b'], cpus: [2, 2] };
    expect(pmiProcessMapping(createStepLayout({ ...two, ntasks: 4 }))).toBe('(vector,(0,2,2))');
    expect(pmiProcessMapping(createStepLayout({ ...two, ntasks: 3 }))).toBe('(vector,(0,1,2),(1,1,1))');
  });

  it('refuses a layout that is not a permutation of the ranks', () => {
    const broken = { tasksPerNode: [2], tids: [[0, 2]], distribution: 'cyclic' } as const;
    expect(() => pmiProcessMapping(broken)).toThrow(RangeError);
  });
});
