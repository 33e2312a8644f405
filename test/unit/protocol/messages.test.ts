// Every request of tsctld and tsstepd has a schema, and the server-side check refuses bodies
// that are not what the request carries, with the op and the field in the message.
import { describe, expect, it } from 'vitest';
import * as v from 'valibot';
import { checkBody } from '../../../src/protocol/check-body.js';
import { CTLD_BODIES } from '../../../src/protocol/ctld-messages.js';
import { STEPD_BODIES } from '../../../src/protocol/stepd-messages.js';
import { UserError } from '../../../src/core/errors.js';

const NO_BODY = new Set(['ping', 'shutdown', 'diag', 'cluster_info', 'reconfigure', 'resv_list', 'jobs', 'steps', 'batch-jobs']);

function refused(op: string, schema: v.GenericSchema, body: unknown): string {
  try {
    checkBody(op, schema, body);
  } catch (error) {
    if (error instanceof UserError) return error.message;
    throw error;
  }
  return 'accepted';
}

describe('request bodies', () => {
  for (const [table, bodies] of [['tsctld', CTLD_BODIES], ['tsstepd', STEPD_BODIES]] as const) {
    it(`${table}: a request that carries something refuses no body, and a string`, () => {
      for (const [op, schema] of Object.entries(bodies) as Array<[string, v.GenericSchema]>) {
        if (NO_BODY.has(op)) {
          expect(refused(op, schema, undefined)).toBe('accepted');
          continue;
        }
        expect(refused(op, schema, undefined)).toMatch(new RegExp(`^Invalid ${op} request: no body$`));
        expect(refused(op, schema, 'x')).toMatch(new RegExp(`^Invalid ${op} request: `));
      }
    });
  }

  it('names the field and the limit', () => {
    expect(refused('batch-signal', STEPD_BODIES['batch-signal'], { jobId: 3, signal: 0 })).toBe('Invalid batch-signal request: signal: must be at least 1, got 0');
    expect(refused('cancel', CTLD_BODIES.cancel, { ids: ['1'], userId: 0, signal: 65 })).toBe('Invalid cancel request: signal: must be at most 64, got 65');
    expect(refused('complete', CTLD_BODIES.complete, { jobId: 0, status: 0 })).toBe('Invalid complete request: jobId: must be at least 1, got 0');
    expect(refused('resv_create', CTLD_BODIES.resv_create, { userId: 0, request: { flags: ['MAINT', 'FAST'] } })).toBe(
      'Invalid resv_create request: request.flags.1: must be one of MAINT, OVERLAP, IGNORE_JOBS, SPEC_NODES, ALL_NODES, got "FAST"',
    );
    expect(refused('update_job', CTLD_BODIES.update_job, { userId: 0, id: '1', update: { priority: 5 } })).toBe('Invalid update_job request: update.priority: unknown field');
    expect(refused('node-register', CTLD_BODIES['node-register'], { node: 'n1', host: 'h', port: 70000, cpus: 1, realMemory: 1, pid: 1 })).toBe(
      'Invalid node-register request: port: must be at most 65535, got 70000',
    );
    expect(refused('bcast', STEPD_BODIES.bcast, { jobId: 1, nodeName: 'n1', dest: 'rel', data: '', mode: 33188, force: false, times: null })).toBe(
      'Invalid bcast request: dest: must be an absolute path',
    );
  });
});

describe('batch results', () => {
  it('carry an optional usage, checked field by field', async () => {
    const { BatchCompleteSchema } = await import('../../../src/protocol/node-messages.js');
    const base = { node: 'n1', jobId: 4, gen: 0, result: { status: 0, cause: null, failure: null } };
    expect(refused('batch-complete', BatchCompleteSchema, base)).toBe('accepted');
    const usage = { maxRssKiB: 10, maxRssTask: 0, maxRssNode: 'n1', aveRssKiB: 10, maxVmSizeKiB: 20, maxVmSizeTask: 0, maxVmSizeNode: 'n1', aveVmSizeKiB: 20, userCpuUsec: 5, systemCpuUsec: 6, sampledAt: 1 };
    expect(refused('batch-complete', BatchCompleteSchema, { ...base, result: { ...base.result, usage } })).toBe('accepted');
    expect(refused('batch-complete', BatchCompleteSchema, { ...base, result: { ...base.result, usage: { ...usage, maxRssKiB: -1 } } })).toMatch(/^Invalid batch-complete request: result\.usage\.maxRssKiB: /);
  });
});
