import { describe, expect, it } from 'vitest';
import { formatMemoryMB, formatMemSuffix, parseMemoryMB } from '../../../src/core/memory-size.js';

describe('parseMemoryMB', () => {
  // Observed on Slurm 22.05: `srun --mem=<arg>` then `scontrol show job` MinMemoryNode=.
  it.each([
    ['100', 100], // MinMemoryNode=100M
    ['100M', 100],
    ['100m', 100],
    ['100MB', 100], // a trailing B after the unit is allowed
    ['1G', 1024], // MinMemoryNode=1G
    ['1g', 1024],
    ['1K', 1], // K rounds up: MinMemoryNode=1M
    ['1023K', 1],
    ['1025K', 2], // MinMemoryNode=2M
    ['2048k', 2],
    ['1T', 1024 * 1024], // parsed; the node then cannot satisfy it
    ['0', 0], // MinMemoryNode=0
    [' 100', 100], // strtoll skips leading white space
    ['+100', 100], // and takes a sign
    ['1536', 1536],
    ['-0', 0],
  ])('%j → %i MB', (text, mb) => {
    expect(parseMemoryMB(text)).toBe(mb);
  });

  // Observed on Slurm 22.05: "srun: error: Invalid --mem specification", exit 255.
  it.each(['1x', '1.5G', '-1', '', '1P', '100B', '100 ', 'G', '1GG', '1Gb ', '99999999999999999999'])(
    'rejects %j as srun does',
    (text) => {
      expect(() => parseMemoryMB(text)).toThrowError(
        expect.objectContaining({ message: 'Invalid --mem specification', exitCode: 255 }),
      );
    },
  );

  it('names the option (observed: "srun: error: Invalid --mem-per-cpu specification")', () => {
    expect(() => parseMemoryMB('1x', '--mem-per-cpu')).toThrow('Invalid --mem-per-cpu specification');
  });
});

describe('formatMemSuffix (scontrol MinMemoryNode=, squeue MIN_MEMORY)', () => {
  // Observed on Slurm 22.05 for --mem and --mem-per-cpu (MinMemoryCPU=1.50G).
  it.each([
    [100, '100M'],
    [4000, '4000M'],
    [1024, '1G'],
    [2048, '2G'],
    [1536, '1.50G'],
    [0, '0'],
  ])('%i MB → %s', (mb, text) => {
    expect(formatMemSuffix(mb)).toBe(text);
  });

  // From convert_num_unit's rule: scale while the value is a multiple of 512.
  it.each([
    [1280, '1280M'],
    [2560, '2.50G'],
    [1024 * 1024, '1T'],
    [1536 * 1024, '1.50T'],
    [1024 ** 3, '1P'],
  ])('%i MB → %s', (mb, text) => {
    expect(formatMemSuffix(mb)).toBe(text);
  });
});

describe('formatMemoryMB (mbytes_to_str)', () => {
  it.each([
    [4000, '4000'],
    [1536, '1536'],
    [1024, '1G'],
    [16 * 1024, '16G'],
    [1024 * 1024, '1T'],
    [1024 ** 3, '1P'],
    [0, '0'],
  ])('%i MB → %s', (mb, text) => {
    expect(formatMemoryMB(mb)).toBe(text);
  });

  it('round-trips through parseMemoryMB', () => {
    for (const mb of [1, 100, 1023, 1024, 1536, 4000, 16_384, 1024 * 1024]) {
      expect(parseMemoryMB(formatMemoryMB(mb))).toBe(mb);
    }
  });
});
