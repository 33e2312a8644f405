// OverSubscribe's value with its count: the cluster file's strict reading, and scontrol
// update's, whose quirks were observed on Slurm 22.05.8 (scontrol update PartitionName=debug
// OverSubscribe=..., then scontrol show partition).
import { describe, expect, it } from 'vitest';
import { overSubscribeText, parseOverSubscribe, scontrolOverSubscribe } from '../../../src/config/oversubscribe.js';

describe('OverSubscribe in the cluster file and slurm.conf', () => {
  it.each([
    ['NO', 'NO', 1],
    ['exclusive', 'EXCLUSIVE', 1],
    ['YES', 'YES', 4],
    ['FORCE', 'FORCE', 4],
    ['FORCE:8', 'FORCE', 8],
    ['yes:2', 'YES', 2],
    ['FORCE:32767', 'FORCE', 32767],
  ])('%s', (text, oversubscribe, shareCount) => {
    expect(parseOverSubscribe(text)).toEqual({ oversubscribe, shareCount });
  });

  it.each(['MAYBE', 'FORCE:0', 'FORCE:32768', 'YES:', 'NO:3', 'EXCLUSIVE:2', 'FORCE:-1', 'FORCE:x'])('refuses %s', (text) => {
    expect(parseOverSubscribe(text)).toBeUndefined();
  });
});

describe('OverSubscribe= of scontrol update, as scontrol 22.05 reads it', () => {
  it.each([
    ['FORCE:8', 'FORCE:8'],
    ['YES:2', 'YES:2'],
    ['FORCE', 'FORCE:4'],
    ['force:3', 'FORCE:3'],
    ['YES:0', 'EXCLUSIVE'],
    ['YES:', 'EXCLUSIVE'],
    ['FORCE:abc', 'EXCLUSIVE'],
    ['FORCE:70000', 'FORCE:4464'],
    ['FORCE:-1', 'FORCE:32767'],
    ['FORCE:99999999999999999999999', 'FORCE:32767'],
    ['NO:3', 'NO'],
    ['EXCLUSIVE:2', 'EXCLUSIVE'],
  ])('%s is shown as %s', (text, shown) => {
    expect(overSubscribeText(scontrolOverSubscribe(text)!)).toBe(shown);
  });

  it('refuses another word', () => {
    expect(scontrolOverSubscribe('BOGUS')).toBeUndefined();
  });
});
