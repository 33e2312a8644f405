import { describe, expect, it } from 'vitest';
import { envOptions } from '../../../../src/commands/tsbatch/env-options.js';

describe('envOptions', () => {
  it('reads the SBATCH_* values of sbatch(1)', () => {
    expect(
      envOptions({
        SBATCH_JOB_NAME: 'n',
        SBATCH_PARTITION: 'small',
        SBATCH_TIMELIMIT: '5',
        SBATCH_ARRAY_INX: '1-3',
        SBATCH_MEM_PER_NODE: '100',
        SBATCH_MEM_PER_CPU: '10',
        SBATCH_OUTPUT: 'o',
        SBATCH_NTASKS: '4', // not an sbatch variable
      }),
    ).toEqual({ jobName: 'n', partition: 'small', time: '5', array: '1-3', mem: '100', memPerCpu: '10', output: 'o' });
  });

  // Observed on Slurm 22.05 with SBATCH_NO_REQUEUE=<value>, then scontrol's Requeue=.
  it.each([
    ['', true],
    ['yes', true],
    ['YES', true],
    ['2', true],
    ['-1', true],
    ['0', false],
    ['no', false],
    ['bogus', false],
    ['2x', false],
  ])('a flag variable set to %j counts: %s', (value, set) => {
    expect(envOptions({ SBATCH_NO_REQUEUE: value }).requeue).toBe(set ? false : undefined);
  });

  it('lets SBATCH_REQUEUE win over SBATCH_NO_REQUEUE (observed: both set, Requeue=1)', () => {
    expect(envOptions({ SBATCH_NO_REQUEUE: '', SBATCH_REQUEUE: '' }).requeue).toBe(true);
  });

  it('reads SBATCH_EXCLUSIVE as --exclusive\'s value (observed: "" is exclusive, "user" USER)', () => {
    expect(envOptions({ SBATCH_EXCLUSIVE: '' }).exclusive).toBe('exclusive');
    expect(envOptions({ SBATCH_EXCLUSIVE: 'user' }).exclusive).toBe('user');
    expect(envOptions({ SBATCH_EXCLUSIVE: '1' }).exclusive).toBe('1'); // refused later, as sbatch does
  });
});
