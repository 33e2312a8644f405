import { describe, expect, it } from 'vitest';
import { parseNodeCount, positiveInt } from '../../../src/cli/job-option-values.js';
import { thrown } from '../user-error.js';

describe('positiveInt', () => {
  it.each([['4', 4], [' 3', 3], ['3 ', 3], ['007', 7]])('%j is %i', (text, n) => {
    expect(positiveInt(text, '--ntasks')).toBe(n);
  });

  // Observed on Slurm 22.05: `sbatch -n <text>` → 'sbatch: error: Invalid numeric value
  // "<text>" for --ntasks.', exit 1 (srun says the same).
  it.each(['abc', '0', '-1', '1.5', '2x', ''])('refuses %j', (text) => {
    expect(thrown(() => positiveInt(text, '--ntasks'))).toMatchObject({
      message: `Invalid numeric value "${text}" for --ntasks.`,
      exitCode: 1,
    });
  });
});

describe('parseNodeCount', () => {
  // Observed on Slurm 22.05: `sbatch -N <text>`, then scontrol's NumNodes=.
  it.each([
    ['2', 2, 2], // NumNodes=2-2
    ['3-5', 3, 5],
    ['5-0', 5, 0], // NumNodes=5: a max of 0 is none
    ['-3', 1, 3], // NumNodes=1-3
    [' 2', 2, 2],
    ['2 ', 2, 2],
    ['+2', 2, 2],
    ['2k', 2048, 2048],
    ['2K', 2048, 2048],
    ['1m', 1048576, 1048576],
    ['0', 0, 0], // sbatch accepted it (NumNodes=0); srun's controller refuses it
  ])('%j is %i-%i', (text, min, max) => {
    expect(parseNodeCount(text)).toEqual({ min, max });
  });

  // Observed: "sbatch: error: ..." (srun's the same), exit 255.
  it.each([
    ['abc', '"abc" is not a valid node count'],
    ['1-abc', '"abc" is not a valid node count'],
    ['1,2', '"1,2" is not a valid node count'],
    ['1-2-3', '"2-3" is not a valid node count'],
    ['2-1', 'Maximum node count 1 is less than minimum node count 2'],
    ['1-', 'Maximum node count -1 is less than minimum node count 1'],
    ['-', 'Maximum node count -1 is less than minimum node count 1'],
  ])('refuses %j: %s', (text, message) => {
    expect(thrown(() => parseNodeCount(text))).toMatchObject({ message, exitCode: 255 });
  });
});
