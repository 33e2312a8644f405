import { describe, expect, it } from 'vitest';
import { classifyIoOption, expandIoPattern, isPerTask } from '../../../src/core/io-pattern.js';
import type { IoPatternContext } from '../../../src/core/io-pattern.js';

// Observed on Slurm 22.05.8, user root, inside `salloc -N3 --exclusive` (job 56, whose
// SLURM_JOB_NAME is "interactive"); the srun with -o '...%t...' was step 1. All three slurmd
// run on one host named "vm", which is what %N printed there; tslurm passes the node name.
const ctx = (taskId: number, nodeId = taskId): IoPatternContext => ({
  jobId: 56,
  stepId: 1,
  taskId,
  nodeId,
  nodeName: 'vm',
  userName: 'root',
  jobName: 'interactive',
});

describe('expandIoPattern', () => {
  it.each([
    ['out-%j-%2t.txt', 0, 'out-56-00.txt'],
    ['out-%j-%2t.txt', 1, 'out-56-01.txt'],
    ['o-%J-%s-%n-%N-%u-%x-%A-%a-%%-%4t-%t.txt', 0, 'o-56.1-1-0-vm-root-interactive-56-4294967294-%-0000-0.txt'],
    ['o-%J-%s-%n-%N-%u-%x-%A-%a-%%-%4t-%t.txt', 1, 'o-56.1-1-1-vm-root-interactive-56-4294967294-%-0001-1.txt'],
    // unknown letters stay; with a width the "%" goes, as in Slurm; "%%" is a "%". Slurm
    // printed 'q-%z-%5z-%%t-%%j-%%%t.txt' as "q-%z-5z-%t-%j-%%t.txt": its "%%%t" → "%%t" is
    // a quirk we do not copy ("%" then the task id).
    ['q-%z-%5z-%%t-%%j.txt', 0, 'q-%z-5z-%t-%j.txt'],
    ['a%5', 0, 'a5'],
    ['b%', 0, 'b%'],
    // a backslash turns expansion off: srun -o 'r\-%t.txt' wrote "r-%t.txt"
    ['r\\-%t.txt', 0, 'r-%t.txt'],
  ])('%s for task %i → %s', (pattern, taskId, expected) => {
    expect(expandIoPattern(pattern, ctx(taskId))).toBe(expected);
  });

  it('pads numbers to the width, at most 10 digits, and ignores widths for names', () => {
    // step 2: srun -o 'p-%5j-%3s-%3n-%12t-%3N-%3u-%3x.txt' gave, for task 0,
    // "p-00056-002-000-0000000000-vm-%root-interactive.txt"; its "%3u" → "%root" is a quirk
    // we do not copy (we print "root").
    const step2 = { ...ctx(0), stepId: 2 };
    const name = expandIoPattern('p-%5j-%3s-%3n-%12t-%3N-%3x.txt', step2);
    expect(name).toBe('p-00056-002-000-0000000000-vm-interactive.txt');
    expect(expandIoPattern('%3u', step2)).toBe('root');
  });

  it('takes %x from the job name it is given', () => {
    // srun -J foo -n1 -o 'j-%x.txt' true → j-foo.txt; without -J → k-true.txt
    expect(expandIoPattern('j-%x.txt', { ...ctx(0), jobName: 'foo' })).toBe('j-foo.txt');
  });

  it('uses the array ids when the job is an array task', () => {
    expect(expandIoPattern('%A_%a-%3a', { ...ctx(0), arrayJobId: 40, arrayTaskId: 7 })).toBe('40_7-007');
  });

  it('refuses a per-task conversion without its value', () => {
    expect(() => expandIoPattern('%t', { jobId: 1, stepId: 0 })).toThrow(RangeError);
  });
});

describe('isPerTask', () => {
  it.each([
    ['out-%j-%2t.txt', true],
    ['n-%n-%N', true],
    ['c-%u', true], // srun -n2 -o 'c-%u': each task opened (and truncated) c-root itself
    ['s-%x-%j.txt', false],
    ['%%t', false],
  ])('%s: %s', (pattern, perTask) => {
    expect(isPerTask(pattern)).toBe(perTask);
  });
});

describe('classifyIoOption', () => {
  it.each([
    [undefined, { kind: 'all' }],
    ['all', { kind: 'all' }],
    ['allx', { kind: 'all' }], // srun -o allx printed to the terminal
    ['-', { kind: 'all' }],
    ['none', { kind: 'none' }],
    ['NONE', { kind: 'none' }],
    ['2', { kind: 'task', taskId: 2 }], // srun -n4 -o 2: only "out2" shown
    [' 1', { kind: 'task', taskId: 1 }],
    ['+1', { kind: 'task', taskId: 1 }],
    ['', { kind: 'task', taskId: 0 }], // srun -n2 -o '': only "out0" shown
    ['5', { kind: 'file', pattern: '5', perTask: false, literal: false }], // -n2 -o 5: file "5" with both lines
    ['in-%t', { kind: 'file', pattern: 'in-%t', perTask: true, literal: false }],
    ['r\\-%t.txt', { kind: 'file', pattern: 'r-%t.txt', perTask: false, literal: true }],
  ])('%j with 2 or 4 tasks', (value, expected) => {
    expect(classifyIoOption(value, value === '2' ? 4 : 2)).toEqual(expected);
  });

  it('treats -i 7 with 3 tasks as a file name (srun: error: Could not open stdin file: ...)', () => {
    expect(classifyIoOption('7', 3)).toEqual({ kind: 'file', pattern: '7', perTask: false, literal: false });
  });
});
