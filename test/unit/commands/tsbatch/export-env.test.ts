import { describe, expect, it } from 'vitest';
import { batchEnvironment } from '../../../../src/commands/tsbatch/export-env.js';

// Observed on Slurm 22.05: `FOO=caller SLURM_MINE=m sbatch --wait --export=<spec> --wrap=env`
// with the job's output compared (variables the node adds at run time left out).
const env = { HOME: '/root', FOO: 'caller', SLURM_MINE: 'm', PATH: '/bin' };
const sorted = (spec: string | undefined): string[] => batchEnvironment(spec, env).sort();

describe('batchEnvironment', () => {
  it('passes everything for ALL (any case) and by default', () => {
    const all = ['FOO=caller', 'HOME=/root', 'PATH=/bin', 'SLURM_MINE=m'];
    expect(sorted(undefined)).toEqual(all);
    expect(sorted('ALL')).toEqual(all);
    expect(sorted('all')).toEqual(all);
  });

  it('passes only SLURM_* for NONE (any case) and for ""', () => {
    expect(sorted('NONE')).toEqual(['SLURM_MINE=m']);
    expect(sorted('none')).toEqual(['SLURM_MINE=m']);
    expect(sorted('')).toEqual(['SLURM_MINE=m']);
  });

  it('applies a list in order, then the SLURM_* variables', () => {
    expect(sorted('FOO')).toEqual(['FOO=caller', 'SLURM_MINE=m']);
    expect(sorted('FOO,BAR=b')).toEqual(['BAR=b', 'FOO=caller', 'SLURM_MINE=m']);
    expect(sorted('FOO,NOSUCH')).toEqual(['FOO=caller', 'SLURM_MINE=m']);
    expect(sorted('FO')).toEqual(['SLURM_MINE=m']); // names match whole
    expect(sorted('NONE,FOO')).toEqual(['FOO=caller', 'SLURM_MINE=m']); // NONE in a list is a name
    // ALL,FOO=given gave FOO=given; FOO=given,ALL gave FOO=caller
    expect(sorted('ALL,FOO=given,BAR=bar')).toEqual(['BAR=bar', 'FOO=given', 'HOME=/root', 'PATH=/bin', 'SLURM_MINE=m']);
    expect(sorted('FOO=given,ALL')).toContain('FOO=caller');
    expect(sorted('NONE,ALL')).toHaveLength(4);
    expect(sorted('ALL,NONE')).toHaveLength(4);
    // SLURM_MINE=given gave SLURM_MINE=m: the caller's SLURM_* come last
    expect(sorted('SLURM_MINE=given')).toEqual(['SLURM_MINE=m']);
  });

  it('keeps commas and quotes inside quotes', () => {
    // FOO="a,b",BAR=c gave FOO=["a,b"] BAR=[c]; FOO='x y' gave FOO=['x y']
    expect(sorted('FOO="a,b",BAR=c')).toEqual(['BAR=c', 'FOO="a,b"', 'SLURM_MINE=m']);
    expect(sorted("FOO='x y'")).toEqual(["FOO='x y'", 'SLURM_MINE=m']);
  });

  it('ignores an entry without a name (observed: --export==x ran the job)', () => {
    expect(sorted('=x')).toEqual(['SLURM_MINE=m']);
  });
});
