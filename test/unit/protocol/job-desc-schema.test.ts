// The job description schema takes every description the commands build (as it arrives: JSON,
// undefined fields dropped) and refuses what slurmctld refuses, naming the field and why.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseTsbatchArgs } from '../../../src/commands/tsbatch/request.js';
import { buildStepRequest } from '../../../src/commands/tsrun/request.js';
import { jobDescFor } from '../../../src/commands/tsrun/ctld-request.js';
import type { RawTsrunOptions } from '../../../src/commands/tsrun/options.js';
import { checkBody, examine } from '../../../src/protocol/check-body.js';
import { CTLD_BODIES } from '../../../src/protocol/ctld-messages.js';
import { JobDescSchema, type JobDescriptor } from '../../../src/protocol/job-desc.js';
import { UserError } from '../../../src/core/errors.js';

const wire = (value: unknown): unknown => JSON.parse(JSON.stringify(value));
const identity = { userId: 1000, groupId: 1000, userName: 'alice', submitHost: 'login1' };

async function tsbatchDesc(argv: string[]): Promise<JobDescriptor> {
  const dir = mkdtempSync(path.join(tmpdir(), 'desc-schema-'));
  writeFileSync(path.join(dir, 'job.sh'), '#!/bin/sh\necho hi\n');
  return (await parseTsbatchArgs(argv, { env: { PATH: '/usr/bin:/bin' }, cwd: dir, identity })).desc;
}

function refusal(body: unknown, op = 'submit'): UserError {
  try {
    checkBody(op, CTLD_BODIES[op as 'submit'], body);
  } catch (error) {
    if (error instanceof UserError) return error;
    throw error;
  }
  throw new Error('accepted');
}

describe('the job description schema', () => {
  const accepted: string[][] = [
    ['--wrap=true'],
    ['job.sh', 'a', 'b'],
    ['-N', '0', '--wrap=x'],
    ['-N', '2-4', '-n', '8', '-c', '2', '--ntasks-per-node=4', '--mem=0', '--wrap=x'],
    ['--mem-per-cpu=1G', '-t', '0', '--wrap=x'],
    ['-t', 'UNLIMITED', '--begin=now+1hour', '--hold', '--wrap=x'],
    ['--array=0-1000%1', '--wrap=x'],
    ['--array=1,3,5', '-d', 'afterok:12_*?afterany:13_[1-3]+5', '--wrap=x'],
    ['-d', 'singleton', '--kill-on-invalid-dep=yes', '--wrap=x'],
    ['-o', '%x-%j.out', '-e', 'err', '-i', '/dev/null', '--open-mode=append', '--comment', 'c', '--wrap=x'],
    ['-w', 'node[1-2]', '-x', 'node3', '-C', 'avx2', '--gres=gpu:1', '--gpus=1', '--exclusive=user', '--wrap=x'],
    ['--requeue', '--overcommit', '--contiguous', '--export=NONE', '-p', 'debug', '--reservation=r1', '--wrap=x'],
    ['-J', 'x'.repeat(1024), '--wrap=x'],
  ];
  for (const argv of accepted) {
    it(`takes what tsbatch builds for ${argv.join(' ').slice(0, 60)}`, async () => {
      const result = examine(JobDescSchema, wire(await tsbatchDesc(argv)));
      expect(result.ok ? 'ok' : result.problem).toBe('ok');
    });
  }

  it("takes what tsrun builds for its job", () => {
    const raw = { ntasks: '4', nodes: '2', time: '10', mem: '100' } as unknown as RawTsrunOptions;
    const result = examine(JobDescSchema, wire(jobDescFor(buildStepRequest(raw, ['/bin/true']))));
    expect(result.ok ? 'ok' : result.problem).toBe('ok');
  });

  it('refuses with the field, why, and the errno of the limit', async () => {
    const desc = wire(await tsbatchDesc(['--wrap=true'])) as Record<string, unknown>;
    const cases: Array<[Record<string, unknown>, string, string | undefined]> = [
      [{ ntasks: -5 }, 'Invalid job description: ntasks: must be at least 1, got -5', 'ESLURM_BAD_TASK_COUNT'],
      [{ ntasks: 1.5 }, 'Invalid job description: ntasks: must be a whole number, got 1.5', 'ESLURM_BAD_TASK_COUNT'],
      [{ cpusPerTask: 0 }, 'Invalid job description: cpusPerTask: must be at least 1, got 0', 'ESLURM_INVALID_CPU_COUNT'],
      [{ timeLimit: 'NaN' }, 'Invalid job description: timeLimit: expected number, got "NaN"', 'ESLURM_INVALID_TIME_LIMIT'],
      [{ timeLimit: 2 ** 32 }, 'Invalid job description: timeLimit: must be at most 4294967295, got 4294967296', 'ESLURM_INVALID_TIME_LIMIT'],
      [{ memPerCpu: 1e99 }, 'Invalid job description: memPerCpu: must be at most 9007199254740991, got 1e+99', 'ESLURM_INVALID_TASK_MEMORY'],
      [{ minNodes: 4, maxNodes: 2 }, 'Invalid job description: maxNodes: must be at least minNodes (4), got 2', 'ESLURM_INVALID_NODE_COUNT'],
      [{ name: 'é'.repeat(513) }, 'Invalid job description: name: longer than 1024 bytes (1026)', 'ESLURM_PATHNAME_TOO_LONG'],
      [{ script: `#!/bin/sh\n${'#'.repeat(4 * 1024 * 1024)}` }, 'Invalid job description: script: longer than 4194304 bytes (4194314)', 'ESLURM_PATHNAME_TOO_LONG'],
      [{ workDir: 'relative' }, 'Invalid job description: workDir: must be an absolute path', undefined],
      [{ array: { taskIds: [], text: '' } }, 'Invalid job description: array.taskIds: must not be empty', 'ESLURM_INVALID_ARRAY'],
      [{ array: { taskIds: [3, 1], text: '3,1' } }, 'Invalid job description: array.taskIds: must be ascending without duplicates', 'ESLURM_INVALID_ARRAY'],
      [{ array: { taskIds: [1001], text: '1001' } }, 'Invalid job description: array.taskIds.0: must be at most 1000, got 1001', 'ESLURM_INVALID_ARRAY'],
      [{ dependency: { x: 1 } }, 'Invalid job description: dependency.combine: missing', 'ESLURM_DEPENDENCY'],
      [
        { dependency: { combine: 'all', terms: [{ type: 'afterwards', jobs: [] }], text: 'afterwards:1' } },
        'Invalid job description: dependency.terms.0.type: must be one of after, afterany, afterok, afternotok, aftercorr, afterburstbuffer, singleton, got "afterwards"',
        'ESLURM_DEPENDENCY',
      ],
      [
        { dependency: { combine: 'all', terms: [{ type: 'afterok', jobs: [] }], text: 'afterok' } },
        'Invalid job description: dependency.terms.0: singleton names no job, every other type at least one',
        'ESLURM_DEPENDENCY',
      ],
      [{ dependency: { combine: 'all', terms: [{ type: 'afterok', jobs: [{ jobId: 0 }] }], text: 'afterok:0' } }, 'Invalid job description: dependency.terms.0.jobs.0.jobId: must be at least 1, got 0', 'ESLURM_DEPENDENCY'],
      [{ userId: -1 }, 'Invalid job description: userId: must be at least 0, got -1', 'ESLURM_USER_ID_MISSING'],
      [{ priority: 1 }, 'Invalid job description: priority: unknown field', undefined],
    ];
    for (const [change, message, code] of cases) {
      const error = refusal({ desc: { ...desc, ...change } });
      expect({ message: error.message, code: error.code }).toEqual({ message, code });
    }
    expect(refusal({ desc: {} }).message).toBe('Invalid job description: script: missing');
    expect(refusal({}).message).toBe('Invalid submit request: desc: missing');
    expect(refusal('x').message).toBe('Invalid submit request: expected Object, got "x"');
  });
});
