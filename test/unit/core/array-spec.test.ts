import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatTaskIds, parseArraySpec } from '../../../src/core/array-spec.js';
import { thrown } from '../user-error.js';

const ids = (text: string): [string, number | undefined] => {
  const spec = parseArraySpec(text);
  return [formatTaskIds(spec.taskIds), spec.maxRunning];
};

describe('parseArraySpec', () => {
  // Observed on Slurm 22.05 (MaxArraySize=1001): `sbatch --hold --array=<text> --wrap=true`,
  // then scontrol's ArrayTaskId= and ArrayTaskThrottle=.
  it.each([
    ['0-15', '0-15', undefined],
    ['0-15%4', '0-15', 4],
    ['1,3,5', '1,3,5', undefined],
    ['0-10:2', '0,2,4,6,8,10', undefined],
    ['0-15:4', '0,4,8,12', undefined],
    ['1-3,7,10-20:5%2', '1-3,7,10,15,20', 2],
    ['1-5:2%3', '1,3,5', 3],
    ['3,1', '1,3', undefined], // sorted
    ['1,1', '1', undefined], // merged
    ['1-1', '1', undefined],
    ['5-5:3', '5', undefined],
    ['1-2:5', '1', undefined],
    ['0', '0', undefined],
    ['1000', '1000', undefined], // the largest id below MaxArraySize
    ['0-1000', '0-1000', undefined],
    ['0-1000:1000', '0,1000', undefined],
    ['1-5:1000', '1', undefined],
    ['007', '7', undefined],
    ['08', '8', undefined], // decimal, not octal
    [' 1', '1', undefined], // strtol: leading blanks and '+'
    ['+1', '1', undefined],
    ['1- 3', '1-3', undefined],
    ['1-3:+1', '1-3', undefined],
    ['1-3: 2', '1,3', undefined],
    ['1,,3', '1,3', undefined], // empty tokens are skipped
    [',1', '1', undefined],
    ['1,2,', '1-2', undefined],
    ['[1-3]', '1-3', undefined], // one '[' and one ']' per number are dropped
    ['[1-3', '1-3', undefined],
    ['1-3]', '1-3', undefined],
    ['1]-3', '1-3', undefined],
    ['3]', '3', undefined],
    ['[1-5:2]', '1,3,5', undefined],
    ['1-5]:2', '1,3,5', undefined],
    ['[1,3]', '1,3', undefined],
    ['1-3:2]%2', '1,3', 2],
    // each token is cut at its own '%'; the limit is read after the first '%'
    ['1-3%2,5', '1-3,5', 2],
    ['1-3,5%2', '1-3,5', 2],
    ['1,3%2,5', '1,3,5', 2],
    ['1%2,3%4', '1,3', 2],
    ['1%4,3%2', '1,3', 4],
    ['1%4,3%0', '1,3', 4],
    ['0-3%1', '0-3', 1],
    ['0-1000%2', '0-1000', 2],
    ['1-3%1000000', '1-3', 1000000],
    // a limit of 0 or less is none; it is an int, so large ones wrap
    ['0-3%0', '0-3', undefined],
    ['0-3%-1', '0-3', undefined],
    ['1-3%-2', '1-3', undefined],
    ['1-3% 2', '1-3', 2],
    ['1-3%+2', '1-3', 2],
    ['1-3%99999999999', '1-3', 1215752191],
    ['1-3%4294967296', '1-3', undefined],
    ['1-3%4294967297', '1-3', 1],
    ['1-3%2147483648', '1-3', undefined],
    ['1-3%-4294967295', '1-3', 1],
    ['1-3%9223372036854775808', '1-3', undefined], // strtoll saturates
    ['1-3%-9223372036854775809', '1-3', undefined],
  ])('%s → %s limit %s', (text, expected, limit) => {
    expect(ids(text)).toEqual([expected, limit]);
  });

  it('keeps the text as given', () => {
    expect(parseArraySpec('1-3%2').text).toBe('1-3%2');
  });

  it('has no task ids for "" and "," (observed: the job is not an array)', () => {
    expect(parseArraySpec('').taskIds).toEqual([]);
    expect(parseArraySpec(',').taskIds).toEqual([]);
  });

  // Observed on Slurm 22.05: "sbatch: error: Batch job submission failed: Invalid job array
  // specification", exit 1 (the controller's ESLURM_INVALID_ARRAY; the caller adds the prefix).
  it.each([
    'x', '5-1', '10-0:2', '0-2000', '0-1001', '1001', '-1', '-1-3', '1-', '1--3', '1-3:', '0-10:0', '0-10:-2',
    '1:2', '1-3:2:1', '1-3-5', '1 ', '1-3 ', '1 -3', ' ', '+', ' -3', '1-3:2 ', '0x10', '0x1', '1e2', 'a-3', '3-a',
    '1_2', '1-[3]', '1-3]]', '[[1', '4294967295', '4294967297', '99999999999', '2147483648', '1-2147483648',
    '1-4294967297', '1-3:4294967297', '1-3:2147483648', '1-5:4294967298', '0-2000:1000', '1-5:1001', '1-5:5000',
    '1-5:2147483647', '1-3:0x', '1-3:1x',
  ])('refuses %j with Slurm\'s errno', (text) => {
    expect(thrown(() => parseArraySpec(text))).toMatchObject({
      message: 'Invalid job array specification',
      code: 'ESLURM_INVALID_ARRAY',
      exitCode: 1,
    });
  });

  // Slurm accepts these by reading a missing number as 0 or ignoring what follows the limit
  // (observed: "%4" is task 0 with limit 4, "-" is task 0, "1-3%5abc" is 1-3 limit 5). We refuse.
  it.each(['%4', '%', '-', '[]', '[', ']', '1,%3', '%2,1-3', '- 3', '1%2-3', '0-3%', '1-3%5abc', '0-3%2%', '0-3%1%2', '1-3%,5'])(
    'refuses the accident %j',
    (text) => {
      expect(() => parseArraySpec(text)).toThrow('Invalid job array specification');
    },
  );

  it('takes MaxArraySize from the caller', () => {
    expect(parseArraySpec('0-9', 10).taskIds).toHaveLength(10);
    expect(() => parseArraySpec('0-10', 10)).toThrow('Invalid job array specification');
  });
});

describe('formatTaskIds and parseArraySpec agree', () => {
  it('round-trips any set of task ids', () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.nat(1000), { maxLength: 60 }), (raw) => {
        const sorted = [...raw].sort((a, b) => a - b);
        const text = formatTaskIds(sorted);
        expect(parseArraySpec(text).taskIds).toEqual(sorted);
        expect(formatTaskIds(parseArraySpec(text).taskIds)).toBe(text);
      }),
    );
  });

  it('expands a stepped range to exactly its members, in any token order', () => {
    const range = fc.record({ first: fc.nat(1000), length: fc.nat(1000), step: fc.integer({ min: 1, max: 1000 }) });
    fc.assert(
      fc.property(fc.array(range, { minLength: 1, maxLength: 5 }), (ranges) => {
        const valid = ranges.map(({ first, length, step }) => ({ first, last: Math.min(first + length, 1000), step }));
        const expected = new Set<number>();
        for (const { first, last, step } of valid) for (let i = first; i <= last; i += step) expected.add(i);
        const text = valid.map(({ first, last, step }) => `${first}-${last}:${step}`).reverse().join(',');
        expect(parseArraySpec(text).taskIds).toEqual([...expected].sort((a, b) => a - b));
      }),
    );
  });
});
