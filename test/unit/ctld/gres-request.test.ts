import { describe, expect, it } from 'vitest';
import {
  buildGresRequest,
  checkGresKnown,
  formatGres,
  parseGpusOption,
  parseGresOption,
} from '../../../src/ctld/gres-request.js';
import { UserError } from '../../../src/core/errors.js';

function refused(run: () => unknown): UserError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(UserError);
    return error as UserError;
  }
  throw new Error('accepted');
}

describe('--gres', () => {
  it('parses name, name:count, name:type, name:type:count, lists', () => {
    expect(parseGresOption('gpu')).toEqual([{ name: 'gpu', count: 1 }]);
    expect(parseGresOption('gpu:2')).toEqual([{ name: 'gpu', count: 2 }]);
    expect(parseGresOption('gpu:a100')).toEqual([{ name: 'gpu', type: 'a100', count: 1 }]);
    expect(parseGresOption('gpu:a100:1')).toEqual([{ name: 'gpu', type: 'a100', count: 1 }]);
    expect(parseGresOption('gpu:a100:2,nvme:1')).toEqual([
      { name: 'gpu', type: 'a100', count: 2 },
      { name: 'nvme', count: 1 },
    ]);
    expect(parseGresOption('mps:2k')).toEqual([{ name: 'mps', count: 2048 }]);
  });

  it('asks for nothing with none or a zero count (as real Slurm accepts)', () => {
    expect(parseGresOption('none')).toEqual([]);
    expect(parseGresOption('gpu:0')).toEqual([]);
    expect(parseGpusOption('0')).toEqual([]);
  });

  it.each(['', 'gpu:', ':2', 'gpu::2', 'gpu:-1', 'gpu:a100:x', 'gpu:a:b:1', 'gpu,', 'gpu:1,gpu:2', '1gpu'])(
    'refuses %j',
    (text) => {
      const error = refused(() => parseGresOption(text));
      expect(error.message).toBe('Invalid generic resource (gres) specification');
      expect(error.code).toBe('ESLURM_INVALID_GRES');
    },
  );
});

describe('--gpus', () => {
  it('parses N and type:N', () => {
    expect(parseGpusOption('2')).toEqual([{ name: 'gpu', count: 2 }]);
    expect(parseGpusOption('a100:3')).toEqual([{ name: 'gpu', type: 'a100', count: 3 }]);
  });

  it.each(['x', '-1', 'a100:x', 'a:b:1', ''])('refuses %j', (text) => {
    expect(refused(() => parseGpusOption(text)).code).toBe('ESLURM_INVALID_GRES');
  });

  it('builds per-node, per-job and per-task requests', () => {
    expect(buildGresRequest({ gres: 'nvme:1', gpusPerNode: '2', gpus: 'a100:4', gpusPerTask: '1' })).toEqual({
      perNode: [{ name: 'nvme', count: 1 }, { name: 'gpu', count: 2 }],
      perJob: [{ name: 'gpu', type: 'a100', count: 4 }],
      perTask: [{ name: 'gpu', count: 1 }],
    });
    expect(buildGresRequest({})).toEqual({ perNode: [], perJob: [], perTask: [] });
  });
});

describe('checkGresKnown / formatGres', () => {
  const nodes = [{ gres_list: [{ name: 'gpu', type: 'a100', count: 8 }, { name: 'nvme', count: 2 }] }];

  it('accepts configured names and types, refuses others', () => {
    expect(() => checkGresKnown(buildGresRequest({ gres: 'gpu:2,nvme' }), nodes)).not.toThrow();
    expect(() => checkGresKnown(buildGresRequest({ gpus: 'a100:2' }), nodes)).not.toThrow();
    expect(refused(() => checkGresKnown(buildGresRequest({ gpus: 'v100:2' }), nodes)).code).toBe('ESLURM_INVALID_GRES');
    expect(refused(() => checkGresKnown(buildGresRequest({ gres: 'fpga:1' }), [])).message).toBe(
      'Invalid generic resource (gres) specification',
    );
  });

  it('prints Slurm syntax', () => {
    expect(formatGres([{ name: 'gpu', type: 'a100', count: 2 }, { name: 'nvme', count: 1 }])).toBe('gpu:a100:2,nvme:1');
  });
});
