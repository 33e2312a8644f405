import { describe, expect, it } from 'vitest';
import { parseSwf, processorsOf } from '../../../../src/ctld/simulate/swf.js';
import { percentile, summarise } from '../../../../src/ctld/simulate/metrics.js';

const line = (fields: Partial<Record<number, number>>) =>
  Array.from({ length: 18 }, (_, k) => fields[k + 1] ?? -1).join(' ');

describe('parseSwf', () => {
  it('reads the 18 fields of each job and the header comments', () => {
    const trace = parseSwf(
      ['; Version: 2.2', '; UnixStartTime: 1700000000', ';just a remark', line({ 1: 7, 2: 30, 4: 120, 5: 8, 8: 4, 9: 600, 10: 2048, 11: 1, 12: 3 }), ''].join('\n'),
    );
    expect(trace.invalid).toBe(0);
    expect(trace.header.get('UnixStartTime')).toBe('1700000000');
    expect(trace.header.get('Version')).toBe('2.2');
    expect(trace.jobs).toHaveLength(1);
    const job = trace.jobs[0]!;
    expect([job.id, job.submit, job.runTime, job.allocatedProcs, job.requestedProcs, job.requestedTime, job.requestedMemory, job.userId]).toEqual([7, 30, 120, 8, 4, 600, 2048, 3]);
    expect(job.thinkTime).toBe(-1);
    expect(processorsOf(job)).toBe(4);
  });

  it('takes the allocated processors when none were requested', () => {
    const [job] = parseSwf(line({ 1: 1, 2: 0, 4: 5, 5: 16 })).jobs;
    expect(processorsOf(job!)).toBe(16);
  });

  it('skips and counts lines it cannot use, saying why', () => {
    const trace = parseSwf(
      [
        line({ 1: 1, 2: 0, 4: 10, 8: 1 }),
        '2 0 -1 10 1', // too few fields
        line({ 1: 3, 2: 0, 4: -1, 8: 1 }), // no run time
        line({ 1: 4, 2: -1, 4: 10, 8: 1 }), // no submit time
        line({ 1: 5, 2: 0, 4: 10 }), // no processors at all
        line({ 1: 6, 2: 0, 4: 10, 8: 1 }).replace(/^6/, 'six'),
      ].join('\n'),
    );
    expect(trace.jobs.map((j) => j.id)).toEqual([1]);
    expect(trace.invalid).toBe(5);
    expect(trace.problems).toEqual([
      'line 2: 5 fields, SWF has 18',
      'line 3: no run time',
      'line 4: no submit time',
      'line 5: no processor count',
      'line 6: field 1 is not a number: six',
    ]);
  });
});

describe('summarise', () => {
  it('computes waits, bounded slowdown and utilisation', () => {
    const s = summarise(
      [
        { submit: 0, start: 0, end: 100, cpus: 2, timedOut: false },
        { submit: 0, start: 100, end: 105, cpus: 4, timedOut: true },
      ],
      { total: 3, rejected: 1, neverStarted: 0, invalidLines: 0 },
      4,
      2,
    );
    expect(s.makespan).toBe(105);
    expect(s.wait.mean).toBe(50);
    expect(s.wait.max).toBe(100);
    // max(1, 100/100) and max(1, (100 + 5) / 10)
    expect(s.boundedSlowdown.mean).toBeCloseTo((1 + 10.5) / 2);
    expect(s.utilisation).toBeCloseTo((2 * 100 + 4 * 5) / (4 * 105));
    expect(s.jobs).toEqual({ total: 3, ran: 2, rejected: 1, neverStarted: 0, invalidLines: 0, timedOut: 1 });
  });

  it('takes nearest-rank percentiles', () => {
    expect(percentile([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 0.95)).toBe(10);
    expect(percentile([1, 2, 3, 4], 0.5)).toBe(2);
    expect(percentile([], 0.5)).toBe(0);
  });
});
