// Node state names, as sinfo (%t, %T) and scontrol (State=) print them in Slurm 22.05.
import { describe, expect, it } from 'vitest';
import {
  nodeStateFlagNames,
  nodeStateString,
  nodeStateStringComplete,
  nodeStateStringCompact,
} from '../../../src/core/node-state.js';
import {
  NODE_STATE_ALLOCATED,
  NODE_STATE_COMPLETING,
  NODE_STATE_DOWN,
  NODE_STATE_DRAIN,
  NODE_STATE_FAIL,
  NODE_STATE_FUTURE,
  NODE_STATE_IDLE,
  NODE_STATE_MAINT,
  NODE_STATE_MIXED,
  NODE_STATE_NO_RESPOND,
  NODE_STATE_UNKNOWN,
} from '../../../src/plugin-api/records.js';

describe('node state strings', () => {
  it.each([
    [NODE_STATE_IDLE, 'IDLE', 'IDLE', 'IDLE'],
    [NODE_STATE_IDLE | NODE_STATE_DRAIN, 'DRAIN', 'DRAINED', 'IDLE+DRAIN'], // observed: drain / drained / IDLE+DRAIN
    [NODE_STATE_IDLE | NODE_STATE_NO_RESPOND, 'IDLE*', 'IDLE*', 'IDLE+NOT_RESPONDING'], // observed: idle* after resume
    [NODE_STATE_ALLOCATED | NODE_STATE_DRAIN, 'DRNG', 'DRAINING', 'ALLOCATED+DRAIN'],
    [NODE_STATE_MIXED | NODE_STATE_DRAIN, 'DRNG', 'DRAINING', 'MIXED+DRAIN'],
    [NODE_STATE_IDLE | NODE_STATE_COMPLETING | NODE_STATE_DRAIN, 'DRNG', 'DRAINING', 'IDLE+COMPLETING+DRAIN'],
    [NODE_STATE_DOWN, 'DOWN', 'DOWN', 'DOWN'],
    [NODE_STATE_DOWN | NODE_STATE_NO_RESPOND, 'DOWN*', 'DOWN*', 'DOWN+NOT_RESPONDING'],
    [NODE_STATE_DOWN | NODE_STATE_DRAIN, 'DRAIN', 'DRAINED', 'DOWN+DRAIN'],
    [NODE_STATE_ALLOCATED, 'ALLOC', 'ALLOCATED', 'ALLOCATED'],
    [NODE_STATE_ALLOCATED | NODE_STATE_COMPLETING, 'ALLOC+', 'ALLOCATED+', 'ALLOCATED+COMPLETING'],
    [NODE_STATE_IDLE | NODE_STATE_COMPLETING, 'COMP', 'COMPLETING', 'IDLE+COMPLETING'],
    [NODE_STATE_MIXED, 'MIX', 'MIXED', 'MIXED'],
    [NODE_STATE_FUTURE, 'FUTR', 'FUTURE', 'FUTURE'],
    [NODE_STATE_UNKNOWN, 'UNK', 'UNKNOWN', 'UNKNOWN'],
    [NODE_STATE_IDLE | NODE_STATE_FAIL, 'FAIL', 'FAIL', 'IDLE+FAIL'],
    [NODE_STATE_ALLOCATED | NODE_STATE_FAIL, 'FAILG', 'FAILING', 'ALLOCATED+FAIL'],
    [NODE_STATE_IDLE | NODE_STATE_MAINT, 'MAINT', 'MAINT', 'IDLE+MAINTENANCE'],
    [NODE_STATE_IDLE | NODE_STATE_MAINT | NODE_STATE_DRAIN, 'DRAIN$', 'DRAINED$', 'IDLE+DRAIN+MAINTENANCE'],
  ])('%i: %s / %s / %s', (state, compact, long, complete) => {
    expect(nodeStateStringCompact(state)).toBe(compact);
    expect(nodeStateString(state)).toBe(long);
    expect(nodeStateStringComplete(state)).toBe(complete);
  });

  it("lists flags in Slurm's table order", () => {
    expect(nodeStateFlagNames(NODE_STATE_DRAIN | NODE_STATE_NO_RESPOND | NODE_STATE_COMPLETING)).toEqual([
      'COMPLETING',
      'DRAIN',
      'NOT_RESPONDING',
    ]);
  });
});
