import { describe, expect, it } from 'vitest';
import { batchOutputPath, type BatchPatternContext } from '../../../src/core/io-pattern.js';

// Observed on Slurm 22.05, user root, in /tmp/sb/pat: the files batch jobs wrote. All slurmd
// run on one host named "vm", which is what %N printed; tslurm passes the node name.
const job = (jobId: number, jobName: string, extra: Partial<BatchPatternContext> = {}): BatchPatternContext => ({
  jobId,
  jobName,
  nodeName: 'vm',
  user: 'root',
  workDir: '/tmp/sb/pat',
  ...extra,
});
const ALL = 'o-%j-%x-%A-%a-%N-%u-%%-%J-%s-%4a-%4j-%t-%n-%5-%z-%3x.out';

describe('batchOutputPath', () => {
  it('fills a job\'s pattern: %s is "batch", %J the bare id, %a NO_VAL outside an array', () => {
    // sbatch -J nm -o ALL → job 441
    expect(batchOutputPath(ALL, job(441, 'nm'))).toBe(
      '/tmp/sb/pat/o-441-nm-441-4294967294-vm-root-%-441-batch-4294967294-0441-0-0-5-%z-nm.out',
    );
  });

  it('fills an array task\'s: %j is the task\'s own id, %A the array\'s, %a the task', () => {
    // sbatch -J arr -a 3-4 -o ALL → job 442 (task 4) and 443 (task 3)
    expect(batchOutputPath(ALL, job(442, 'arr', { arrayJobId: 442, arrayTaskId: 4 }))).toBe(
      '/tmp/sb/pat/o-442-arr-442-4-vm-root-%-442-batch-0004-0442-0-0-5-%z-arr.out',
    );
    expect(batchOutputPath(ALL, job(443, 'arr', { arrayJobId: 442, arrayTaskId: 3 }))).toBe(
      '/tmp/sb/pat/o-443-arr-442-3-vm-root-%-443-batch-0003-0443-0-0-5-%z-arr.out',
    );
    // -a 7 -o 'w-%6A-%3a-%J.out' → job 452
    expect(batchOutputPath('w-%6A-%3a-%J.out', job(452, 'wrap', { arrayJobId: 452, arrayTaskId: 7 }))).toBe(
      '/tmp/sb/pat/w-000452-007-452.out',
    );
  });

  it('defaults to slurm-%j.out, and slurm-%A_%a.out for an array task', () => {
    expect(batchOutputPath(undefined, job(445, 'dflt2'))).toBe('/tmp/sb/pat/slurm-445.out');
    expect(batchOutputPath(undefined, job(444, 'dflt', { arrayJobId: 444, arrayTaskId: 1 }))).toBe('/tmp/sb/pat/slurm-444_1.out');
  });

  it('keeps absolute names, and takes relative ones from the working directory', () => {
    expect(batchOutputPath('/tmp/sb/pat/abs-%j.out', job(449, 'wrap'))).toBe('/tmp/sb/pat/abs-449.out');
    // -D sub -o 'rel-%j.out' → sub/rel-446.out
    expect(batchOutputPath('rel-%j.out', job(446, 'wrap', { workDir: '/tmp/sb/pat/sub' }))).toBe('/tmp/sb/pat/sub/rel-446.out');
  });

  it('caps zero padding at ten digits; %0j is unpadded', () => {
    expect(batchOutputPath('z-%12j-%0j.out', job(450, 'wrap'))).toBe('/tmp/sb/pat/z-0000000450-450.out');
  });

  it('takes a name with a backslash literally, without the backslashes', () => {
    // -o 'b\-%j.out' wrote "b-%j.out"
    expect(batchOutputPath('b\\-%j.out', job(448, 'wrap'))).toBe('/tmp/sb/pat/b-%j.out');
  });

  it('sends "none", in any case, to /dev/null (observed: StdOut=/dev/null)', () => {
    expect(batchOutputPath('none', job(451, 'wrap'))).toBe('/dev/null');
    expect(batchOutputPath('NONE', job(454, 'wrap'))).toBe('/dev/null');
    // -o 'none.%j' is an ordinary name: none.455
    expect(batchOutputPath('none.%j', job(455, 'wrap'))).toBe('/tmp/sb/pat/none.455');
  });
});
