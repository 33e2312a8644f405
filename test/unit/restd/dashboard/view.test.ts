import { describe, expect, it } from 'vitest';
import { exitCodeText, nodeCategory } from '../../../../src/restd/dashboard/view.js';

describe('what the page is sent', () => {
  it('colours a node by sinfo\'s state name', () => {
    const cases: Array<[string, string]> = [
      ['IDLE', 'idle'],
      ['MIXED', 'mixed'],
      ['ALLOCATED', 'allocated'],
      ['COMPLETING', 'allocated'],
      ['DRAINED', 'drained'],
      ['DRAINING', 'drained'],
      ['DOWN', 'down'],
      ['IDLE*', 'down'],
      ['FAIL', 'down'],
      ['FUTURE', 'other'],
      ['RESERVED', 'other'],
    ];
    expect(cases.map(([state]) => [state, nodeCategory(state)])).toEqual(cases);
  });

  it('prints wait statuses as sacct\'s ExitCode', () => {
    expect([exitCodeText(0), exitCodeText(256), exitCodeText(9), exitCodeText(0x8000 | 0)]).toEqual(['0:0', '1:0', '0:9', '128:0']);
  });
});
