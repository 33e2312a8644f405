import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { UserError } from '../../../src/core/errors.js';
import { compressCounts, expandCounts } from '../../../src/core/tasks-per-node.js';

// Observed on Slurm 22.05 (three 4-CPU nodes) in the task environment:
//   srun -N1 -n3                   → TASKS_PER_NODE=3           JOB_CPUS_PER_NODE=3
//   srun -n2 -c3                   → TASKS_PER_NODE=1(x2)       JOB_CPUS_PER_NODE=3(x2)
//   srun -N3 -n7                   → TASKS_PER_NODE=4,2,1
//   srun -N3 -n5                   → TASKS_PER_NODE=3,1(x2)
//   srun -N3 -n4                   → TASKS_PER_NODE=2,1(x2)
//   srun -N3 --ntasks-per-node=2   → TASKS_PER_NODE=2(x3)
const observed: Array<[number[], string]> = [
  [[3], '3'],
  [[1, 1], '1(x2)'],
  [[3, 3], '3(x2)'],
  [[4, 2, 1], '4,2,1'],
  [[3, 1, 1], '3,1(x2)'],
  [[2, 1, 1], '2,1(x2)'],
  [[2, 2, 2], '2(x3)'],
];

describe('compressCounts', () => {
  it.each(observed)('%j → %s', (counts, text) => {
    expect(compressCounts(counts)).toBe(text);
  });

  it('compresses each run separately, even when a value comes back', () => {
    expect(compressCounts([2, 2, 2, 1])).toBe('2(x3),1');
    expect(compressCounts([1, 2, 2, 1, 1])).toBe('1,2(x2),1(x2)');
    expect(compressCounts([0, 0])).toBe('0(x2)');
  });

  it('gives "" for no nodes', () => {
    expect(compressCounts([])).toBe('');
  });

  it('refuses counts that are not uint32 (a caller bug)', () => {
    expect(() => compressCounts([1.5])).toThrow(RangeError);
    expect(() => compressCounts([-1])).toThrow(RangeError);
    expect(() => compressCounts([2 ** 32])).toThrow(RangeError);
  });
});

describe('expandCounts', () => {
  it.each(observed)('%j ← %s', (counts, text) => {
    expect(expandCounts(text)).toEqual(counts);
  });

  it('expands runs, including an explicit (x1)', () => {
    expect(expandCounts('2(x3),1')).toEqual([2, 2, 2, 1]);
    expect(expandCounts('5(x1)')).toEqual([5]);
    expect(expandCounts('')).toEqual([]);
  });

  it.each(['2(x)', '2(x0)', '(x2)', '2x3', '2(x3', '2,,1', ',1', '1,', ' 1', '1 ', '-1', 'a', '2(x3)1', '1.5', '1(x2000000)'])(
    'rejects %j',
    (text) => {
      expect(() => expandCounts(text)).toThrow(UserError);
    },
  );

  it('says which element is wrong', () => {
    expect(() => expandCounts('2(x3),x')).toThrowErrorMatchingInlineSnapshot(
      `[UserError: invalid per-node count list "2(x3),x": bad element "x"]`,
    );
  });
});

describe('compress and expand', () => {
  it('expand(compress(counts)) is the identity', () => {
    const counts = fc.array(fc.oneof(fc.integer({ min: 0, max: 4 }), fc.integer({ min: 0, max: 0xffff_ffff })), {
      maxLength: 64,
    });
    fc.assert(
      fc.property(counts, (list) => {
        expect(expandCounts(compressCounts(list))).toEqual(list);
      }),
    );
  });

  it('compress never leaves two equal runs side by side', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 3 }), { maxLength: 40 }), (list) => {
        const values = compressCounts(list)
          .split(',')
          .filter(Boolean)
          .map((run) => run.replace(/\(x\d+\)$/, ''));
        for (let i = 1; i < values.length; i += 1) expect(values[i]).not.toBe(values[i - 1]);
      }),
    );
  });
});
