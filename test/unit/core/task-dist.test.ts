import { describe, expect, it } from 'vitest';
import { UserErrorList } from '../../../src/core/errors.js';
import { defaultDistribution, formatDistribution, parseDistribution } from '../../../src/core/task-dist.js';

// SLURM_DISTRIBUTION values and error texts observed with srun on Slurm 22.05.8.
describe('parseDistribution', () => {
  it.each([
    ['block', 'block'],
    ['cyclic', 'cyclic'],
    ['Cyclic', 'cyclic'],
    ['plane=2', 'plane'],
    ['planet=2', 'plane'], // Slurm only compares the first five letters
    ['arbitrary', 'arbitrary'],
    ['hostfile', 'arbitrary'],
    ['cyclic:cyclic', 'cyclic:cyclic'],
    ['block:block', 'block:block'],
    ['*:cyclic', 'block:cyclic'],
    ['block:cyclic:*', 'block:cyclic:cyclic'],
    ['*:*:*', 'block:cyclic:cyclic'],
    ['block,Pack', 'block,pack'],
    ['block,NoPack', 'block,nopack'],
    ['pack', 'block,pack'],
  ])('-m %s gives SLURM_DISTRIBUTION=%s', (arg, env) => {
    expect(formatDistribution(parseDistribution(arg))).toBe(env);
  });

  it('keeps the plane size', () => {
    expect(parseDistribution('plane=3')).toEqual({ node: 'plane', planeSize: 3 });
    expect(parseDistribution('plane', '4')).toEqual({ node: 'plane', planeSize: 4 }); // SLURM_DIST_PLANESIZE
  });

  // '' and ',block' are refused by the source (proc_args.c), not tried on srun.
  it.each(['foo', 'block:foo', 'cyclic:cyclic:cyclic:cyclic', 'block,pack,nopack', 'arbitrary:block', '', ',block'])(
    '-m %s: srun: error: Invalid --distribution specification (exit 255)',
    (arg) => {
      const expected = { message: 'Invalid --distribution specification', exitCode: 255 };
      expect(() => parseDistribution(arg)).toThrow(expect.objectContaining(expected));
    },
  );

  const badPlanes = ['plane=0', 'plane', 'plane=x', 'plane=2:block'];
  it.each(badPlanes)('-m %s: two error lines, plane first (exit 255)', (arg) => {
    try {
      parseDistribution(arg);
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(UserErrorList);
      expect((error as UserErrorList).messages).toEqual([
        'Invalid plane size or size not specified',
        'Invalid --distribution specification',
      ]);
      expect((error as UserErrorList).exitCode).toBe(255);
    }
  });
});

it('refuses pack,nopack, which srun 22.05 takes with both flags set (a deviation)', () => {
  // srun -n4 -m pack,nopack ran, printing "srun: error: set_distribution: Unknown distribution flag value: 0xc00000"
  expect(() => parseDistribution('pack,nopack')).toThrow('Invalid --distribution specification');
});

describe('defaultDistribution', () => {
  it('is cyclic up to one task per node, block beyond (srun -n2 / -n7 on 3 nodes)', () => {
    expect(defaultDistribution(2, 2)).toBe('cyclic');
    expect(defaultDistribution(7, 3)).toBe('block');
  });
});
