import { describe, expect, it } from 'vitest';
import { parseDependency } from '../../../src/core/dependency-spec.js';
import type { DependencyTerm } from '../../../src/protocol/job-desc.js';
import { thrown } from '../user-error.js';

// Observed on Slurm 22.05 with job 101 (held) and array job 102 (tasks 0-3, held):
// `sbatch --hold --dependency=<text> --wrap=true`, then scontrol's Dependency= (shown in the
// comments without the "(unfulfilled)" after each job).
const terms = (text: string): DependencyTerm[] => parseDependency(text).terms;

describe('parseDependency', () => {
  it.each([
    ['afterok:101', 'afterok'],
    ['after:101', 'after'],
    ['afterany:101', 'afterany'],
    ['afternotok:101', 'afternotok'],
    ['aftercorr:101', 'aftercorr'],
    ['afterburstbuffer:101', 'afterburstbuffer'],
    ['AFTEROK:101', 'afterok'], // any case
    ['AfterCorr:101', 'aftercorr'],
  ] as const)('%s is one %s term', (text, type) => {
    expect(parseDependency(text)).toEqual({ combine: 'all', terms: [{ type, jobs: [{ jobId: 101 }] }], text });
  });

  it('reads singleton, in any case, alone or among terms', () => {
    expect(terms('singleton')).toEqual([{ type: 'singleton', jobs: [] }]);
    expect(terms('Singleton')).toEqual([{ type: 'singleton', jobs: [] }]);
    // singleton(unfulfilled),afterok:101
    expect(terms('singleton,afterok:101')).toEqual([
      { type: 'singleton', jobs: [] },
      { type: 'afterok', jobs: [{ jobId: 101 }] },
    ]);
  });

  it('reads a bare job id as afterany (Dependency=afterany:101)', () => {
    expect(terms('101')).toEqual([{ type: 'afterany', jobs: [{ jobId: 101 }] }]);
    expect(terms('101_2')).toEqual([{ type: 'afterany', jobs: [{ jobId: 101, arrayTaskId: 2 }] }]);
    expect(terms('102_*')).toEqual([{ type: 'afterany', jobs: [{ jobId: 102, allTasks: true }] }]);
    // "101,101" → afterany:101
    expect(terms('101,101')).toEqual([{ type: 'afterany', jobs: [{ jobId: 101 }] }]);
  });

  it('reads several jobs, array tasks and +minutes', () => {
    expect(terms('afterok:101:102_2:102_*')).toEqual([
      { type: 'afterok', jobs: [{ jobId: 101 }, { jobId: 102, arrayTaskId: 2 }, { jobId: 102, allTasks: true }] },
    ]);
    expect(terms('after:101+5')).toEqual([{ type: 'after', jobs: [{ jobId: 101, delayMinutes: 5 }] }]);
    // after:101_1+5 ; after:101+1000000
    expect(terms('after:101_1+5')).toEqual([{ type: 'after', jobs: [{ jobId: 101, arrayTaskId: 1, delayMinutes: 5 }] }]);
    expect(terms('after:101+1000000')).toEqual([{ type: 'after', jobs: [{ jobId: 101, delayMinutes: 1000000 }] }]);
    // Slurm takes +minutes on every type: afterok:101+5, afterany:101+5, ...
    expect(terms('afterok:101+5')).toEqual([{ type: 'afterok', jobs: [{ jobId: 101, delayMinutes: 5 }] }]);
    expect(terms('aftercorr:102+5')).toEqual([{ type: 'aftercorr', jobs: [{ jobId: 102, delayMinutes: 5 }] }]);
    // strtol: "afterok: 101" and "afterok:+5" are accepted (afterok:101, afterok:5)
    expect(terms('afterok: 101')).toEqual([{ type: 'afterok', jobs: [{ jobId: 101 }] }]);
    expect(terms('afterok:+5')).toEqual([{ type: 'afterok', jobs: [{ jobId: 5 }] }]);
  });

  it('carries a delay to the later jobs of the same term, until another delay', () => {
    // after:101+5:102 → after:101+5,after:102+5
    expect(terms('after:101+5:102')[0]!.jobs).toEqual([{ jobId: 101, delayMinutes: 5 }, { jobId: 102, delayMinutes: 5 }]);
    // after:101+5:102+7:102_1 → after:101+5,after:102+7,after:102_1+7
    expect(terms('after:101+5:102+7:102_1')[0]!.jobs.map((j) => j.delayMinutes)).toEqual([5, 7, 7]);
    // after:101:102+5 → after:101,after:102+5
    expect(terms('after:101:102+5')[0]!.jobs.map((j) => j.delayMinutes)).toEqual([undefined, 5]);
    // after:101+5:102,after:102_1 → ...,after:102_1 (a new term starts without one)
    expect(terms('after:101+5:102,after:102_1')[1]!.jobs).toEqual([{ jobId: 102, arrayTaskId: 1 }]);
    // afterany:101+5:102_1 → afterany:101+5,afterany:102_1+5
    expect(terms('afterany:101+5:102_1')[0]!.jobs[1]).toEqual({ jobId: 102, arrayTaskId: 1, delayMinutes: 5 });
  });

  it('combines with "," (all) or "?" (any)', () => {
    // afterok:101,afterany:101
    expect(parseDependency('afterok:101,afterany:101').combine).toBe('all');
    // afterok:101?afterany:101 ; afterok:101?singleton
    expect(parseDependency('afterok:101?afterany:101').combine).toBe('any');
    expect(parseDependency('afterok:101?singleton').combine).toBe('any');
    expect(parseDependency('singleton?afterok:101').combine).toBe('any');
  });

  it('counts a job named twice with the same type once, keeping the first', () => {
    // afterok:101:101 → afterok:101 ; afterok:101,afterok:101+5 → afterok:101
    expect(terms('afterok:101:101')).toEqual([{ type: 'afterok', jobs: [{ jobId: 101 }] }]);
    expect(terms('afterok:101,afterok:101+5')).toEqual([{ type: 'afterok', jobs: [{ jobId: 101 }] }]);
    // after:101+5:101 → after:101+5 ; afterany:101?afterany:101 → afterany:101
    expect(terms('after:101+5:101')).toEqual([{ type: 'after', jobs: [{ jobId: 101, delayMinutes: 5 }] }]);
    expect(terms('afterany:101?afterany:101')).toEqual([{ type: 'afterany', jobs: [{ jobId: 101 }] }]);
    // afterok:101,singleton,afterok:101 → afterok:101,singleton
    expect(terms('afterok:101,singleton,afterok:101')).toEqual([
      { type: 'afterok', jobs: [{ jobId: 101 }] },
      { type: 'singleton', jobs: [] },
    ]);
    // a different type is a different dependency: afterok:101+5,after:101
    expect(terms('afterok:101+5,after:101')).toHaveLength(2);
  });

  it('expands task lists as text, so a delay lands on the last task', () => {
    // afterok:102_[1-2] → afterok:102_1,afterok:102_2
    expect(terms('afterok:102_[1-2]')).toEqual([
      { type: 'afterok', jobs: [{ jobId: 102, arrayTaskId: 1 }, { jobId: 102, arrayTaskId: 2 }] },
    ]);
    // afterok:102_[1,3] ; afterok:102_[9] ; afterok:1102_[1]
    expect(terms('afterok:102_[1,3]')[0]!.jobs).toEqual([{ jobId: 102, arrayTaskId: 1 }, { jobId: 102, arrayTaskId: 3 }]);
    expect(terms('afterok:102_[9]')[0]!.jobs).toEqual([{ jobId: 102, arrayTaskId: 9 }]);
    expect(terms('afterok:1102_[1]')[0]!.jobs).toEqual([{ jobId: 1102, arrayTaskId: 1 }]);
    // afterok:102_[1-2]+3 → afterok:102_1,afterok:102_2+3
    expect(terms('afterok:102_[1-2]+3')[0]!.jobs).toEqual([
      { jobId: 102, arrayTaskId: 1 },
      { jobId: 102, arrayTaskId: 2, delayMinutes: 3 },
    ]);
    // afterok:102_[1-2]:102_[3] → 102_1, 102_2, 102_3
    expect(terms('afterok:102_[1-2]:102_[3]')[0]!.jobs.map((j) => j.arrayTaskId)).toEqual([1, 2, 3]);
    // afterok:102_[1-2]?afterany:101 → all with '?'
    expect(parseDependency('afterok:102_[1-2]?afterany:101').combine).toBe('any');
    expect(terms('afterok:102_[1-2],afterany:102_[3]')).toEqual([
      { type: 'afterok', jobs: [{ jobId: 102, arrayTaskId: 1 }, { jobId: 102, arrayTaskId: 2 }] },
      { type: 'afterany', jobs: [{ jobId: 102, arrayTaskId: 3 }] },
    ]);
  });

  it('has no terms for "" and "0" (observed: Dependency=(null))', () => {
    expect(parseDependency('').terms).toEqual([]);
    expect(parseDependency('0').terms).toEqual([]);
  });

  // Observed on Slurm 22.05: "sbatch: error: Batch job submission failed: Job dependency
  // problem", exit 1 (the controller's ESLURM_DEPENDENCY; the caller adds the prefix).
  it.each([
    'foo', 'afterok:abc', 'afterok:', 'afterany', 'afterok:101,', 'afterok:101?', 'singleton:101', 'singleton+5',
    'singletonx', 'singleton,', 'after:101+abc', 'after:101+0', 'after:101+-1', 'afterok:101:abc', 'afterok::101',
    'afterok:101 ', ' afterok:101', 'afterok:0', 'afterok:101_abc', 'afterok:4294967296', 'afterok:0x10',
    'afterok:101,,afterany:101', 'afterok:101;afterany:101', 'afterokay:101', 'afterfoo:101', 'afterburst:101',
    'afterbur:101', '101,afterok:101', '101?101', '101:101', '102_[1-2]', 'afterok:102_[3-1]', 'afterok:102_[]',
    'afterok:102_[1-2]x', 'afterok:102_[2000]', 'afterok:102_1_2', 'afterok:102_[1-2]?', 'afterok:102_[5-]',
    'afterok:102_[1-2', 'afterok:102_[1:5]', 'afterok:102_[1-3:]', 'afterok:102_[3:1]', 'afterok:102_[1,3:2]',
    'afterok:102_[,1]',
  ])('refuses %j', (text) => {
    expect(thrown(() => parseDependency(text))).toMatchObject({
      message: 'Job dependency problem',
      code: 'ESLURM_DEPENDENCY',
      exitCode: 1,
    });
  });

  it('answers expand as the controller does without select support for it', () => {
    // Observed: "Batch job submission failed: Requested operation not supported on this system"
    expect(thrown(() => parseDependency('expand:101'))).toMatchObject({
      message: 'Requested operation not supported on this system',
      code: 'ESLURM_NOT_SUPPORTED',
    });
  });

  // Slurm 22.05 accepts these, with results no one would ask for; we refuse them. Observed:
  // "afterok:101,afterany:101?after:101" turned every ',' into '?'; "after:101+5m" and
  // "afterok:101+5+6" were +5, and "after:101+5x,afterok:102" dropped the afterok term; "afterok:-1" was job 4294967295; "afterok:101_" task 0,
  // "afterok:101_-1" every task; "[1-3:2]" only task 1, "[1-2%3]" tasks 1-23, "[x]" task 0.
  it.each([
    'afterok:101,afterany:101?after:101',
    'afterok:101?afterany:101,after:101',
    'after:101+5m',
    'afterok:101+5+6',
    'after:101+5x,afterok:102',
    'afterok:-1',
    'afterok:101_',
    'afterok:101_-1',
    'afterok:102_[1-3:2]',
    'afterok:102_[1-2%3]',
    'afterok:102_[x]',
    'afterok:102_[a-b]',
    'afterok:102_[-3]',
    'afterok:102_[1,]',
    'afterok:102_[ 1]',
    'afterok:102_[1-2-3]',
    'afterok:102_[1x,3]',
  ])('refuses the accident %j', (text) => {
    expect(thrown(() => parseDependency(text)).message).toBe('Job dependency problem');
  });
});
