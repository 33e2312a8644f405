// Message bodies are checked when the controller receives them: a body that is not a valid
// request is refused with one line naming the field and why, and nothing of it reaches the job
// table or the journal. A journal that already holds such a job (written by an older build,
// or by hand) does not poison the queue: the job is put aside with a log line on start.
import { afterAll, describe, expect, it } from 'vitest';
import net from 'node:net';
import { appendFileSync, existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fixture } from '../helpers/run-bin.js';
import { testController } from '../helpers/controller.js';
import { TSLURM_PROTOCOL_VERSION } from '../../src/core/protocol-version.js';

const small = fixture('clusters', 'small.yaml');

interface Reply {
  ok: boolean;
  body?: unknown;
  error?: { message: string; code?: string };
}

/** Sends one request over the controller's Unix socket, as any local process could. */
function rawRequest(stateDir: string, op: string, body: unknown): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(path.join(stateDir, 'tsctld.sock'));
    let text = '';
    socket.on('connect', () => socket.write(`${JSON.stringify({ v: TSLURM_PROTOCOL_VERSION, id: 7, op, body })}\n`));
    socket.on('data', (chunk) => {
      text += chunk.toString('utf8');
      const newline = text.indexOf('\n');
      if (newline === -1) return;
      socket.destroy();
      resolve(JSON.parse(text.slice(0, newline)) as Reply);
    });
    socket.on('error', reject);
  });
}

function journalLines(stateDir: string): Array<{ seq: number; t: string; job?: { id: number; desc: Record<string, unknown> } }> {
  const file = path.join(stateDir, 'ctld', 'journal');
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as { seq: number; t: string });
}

describe('controller request bodies', () => {
  const ctl = testController();
  afterAll(() => ctl.stop());
  let desc: Record<string, unknown>;

  it('takes a real submission (the base the bad ones are made from)', async () => {
    const good = await ctl.run('tsbatch', ['--cluster', small, '--hold', '--parsable', '--wrap', 'true']);
    expect(good).toMatchObject({ exitCode: 0, stdout: '1\n' });
    desc = journalLines(ctl.stateDir).find((r) => r.t === 'submit')!.job!.desc;
    expect(desc).toMatchObject({ name: 'wrap', hold: true });
  });

  const refused: Array<[string, () => unknown, RegExp]> = [
    ['a dependency that is not a dependency', () => ({ ...desc, dependency: { x: 1 } }), /^Invalid job description: dependency\.(combine|terms|text): /],
    ['an empty description', () => ({}), /^Invalid job description: script: /],
    ['a negative task count', () => ({ ...desc, ntasks: -5 }), /^Invalid job description: ntasks: must be at least 1, got -5$/],
    ['a time limit that is not a number', () => ({ ...desc, timeLimit: 'NaN' }), /^Invalid job description: timeLimit: /],
    ['a time limit below zero', () => ({ ...desc, timeLimit: -1 }), /^Invalid job description: timeLimit: /],
    ['memory beyond any number', () => ({ ...desc, memPerNode: 1e99 }), /^Invalid job description: memPerNode: /],
    ['more nodes at least than at most', () => ({ ...desc, minNodes: 3, maxNodes: 2 }), /^Invalid job description: maxNodes: must be at least minNodes \(3\), got 2$/],
    ['a job name longer than Slurm takes', () => ({ ...desc, name: 'x'.repeat(1025) }), /^Invalid job description: name: /],
    ['an array of more tasks than MaxArraySize', () => ({ ...desc, array: { taskIds: [0, 5000], maxRunning: undefined, text: '0,5000' } }), /^Invalid job description: array\.taskIds/],
    ['an array throttle of 0', () => ({ ...desc, array: { taskIds: [0, 1], maxRunning: 0, text: '0-1%0' } }), /^Invalid job description: array\.maxRunning: must be at least 1, got 0$/],
    ['an unknown field', () => ({ ...desc, priority: 99 }), /^Invalid job description: priority: /],
  ];

  for (const [what, body, message] of refused) {
    it(`refuses ${what}, and journals nothing`, async () => {
      const before = journalLines(ctl.stateDir).length;
      const reply = await rawRequest(ctl.stateDir, 'submit', { desc: body(), testOnly: false });
      expect(reply.ok).toBe(false);
      expect(reply.error?.message).toMatch(message);
      expect(reply.error?.message).not.toMatch(/internal error/);
      expect(journalLines(ctl.stateDir).length).toBe(before);
      const queue = await ctl.run('tsqueue', ['-h', '-o', '%i %T']);
      expect(queue).toMatchObject({ exitCode: 0, stdout: '1 PENDING\n', stderr: '' });
    });
  }

  it('names the errno of the limit broken', async () => {
    const reply = await rawRequest(ctl.stateDir, 'submit', { desc: { ...desc, ntasks: -5 } });
    expect(reply.error).toMatchObject({ code: 'ESLURM_BAD_TASK_COUNT' });
    const long = await rawRequest(ctl.stateDir, 'submit', { desc: { ...desc, comment: 'c'.repeat(1025) } });
    expect(long.error).toMatchObject({ code: 'ESLURM_PATHNAME_TOO_LONG' });
  });

  it('checks the bodies of other requests too', async () => {
    expect((await rawRequest(ctl.stateDir, 'cancel', { ids: 1, userId: 0 })).error?.message).toMatch(/^Invalid cancel request: ids: /);
    expect((await rawRequest(ctl.stateDir, 'cancel', { ids: ['1'], userId: 0, signal: 999 })).error?.message).toMatch(/^Invalid cancel request: signal: /);
    expect((await rawRequest(ctl.stateDir, 'update_job', { id: '1', userId: 0, update: { timeLimit: { op: 'set', minutes: Number.NaN } } })).error?.message).toMatch(
      /^Invalid update_job request: update\.timeLimit\.minutes: /,
    );
    expect((await rawRequest(ctl.stateDir, 'wait', null)).error?.message).toMatch(/^Invalid wait request: /);
    expect(await ctl.jobField(1, 'JobState')).toBe('PENDING');
  });

  it('still takes a valid raw submission', async () => {
    const reply = await rawRequest(ctl.stateDir, 'submit', { desc, testOnly: false });
    expect(reply).toMatchObject({ ok: true, body: { jobId: 2 } });
    await ctl.run('tscancel', ['1', '2']);
  });
});

const sorted = (text: string): string[] => text.split('\n').filter(Boolean).sort();

describe('a journal holding an invalid job', () => {
  const ctl = testController();
  afterAll(() => ctl.stop());

  it('is replayed without it: the job is quarantined with one log line, the others recovered', async () => {
    expect((await ctl.run('tsbatch', ['--cluster', small, '--hold', '--parsable', '--wrap', 'true'])).stdout).toBe('1\n');
    const pid = Number(readFileSync(path.join(ctl.stateDir, 'tsctld.pid'), 'utf8'));
    process.kill(pid, 'SIGKILL');
    await ctl.until(() => {
      try {
        process.kill(pid, 0);
        return false;
      } catch {
        return true;
      }
    });
    const records = journalLines(ctl.stateDir);
    const submit = records.find((r) => r.t === 'submit')!;
    const last = Math.max(...records.map((r) => r.seq));
    // What an older controller accepted: job 2 with a dependency that is not one, then job 3 good.
    // (The old controller kept the submitted dependency in the job's progress too.)
    const bad = { ...submit, seq: last + 1, job: { ...submit.job!, id: 2, dependency: { x: 1 }, desc: { ...submit.job!.desc, dependency: { x: 1 } } } };
    const good = { ...submit, seq: last + 2, job: { ...submit.job!, id: 3 } };
    appendFileSync(path.join(ctl.stateDir, 'ctld', 'journal'), `${JSON.stringify(bad)}\n${JSON.stringify(good)}\n`);
    expect((await ctl.run('tsctld', ['--cluster', small, '--idle-exit', '120'])).exitCode).toBe(0);

    const queue = await ctl.run('tsqueue', ['-h', '-o', '%i %T']);
    expect(queue).toMatchObject({ exitCode: 0, stderr: '' });
    expect(sorted(queue.stdout)).toEqual(['1 PENDING', '3 PENDING']);
    const shown = await ctl.run('tscontrol', ['show', 'job']);
    expect(shown.exitCode).toBe(0);
    const log = readFileSync(path.join(ctl.stateDir, 'tsctld.log'), 'utf8');
    const lines = log.split('\n').filter((line) => line.includes('quarantine'));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/job 2: .*desc\.dependency\.(combine|terms|text)/);
    const aside = readdirSync(path.join(ctl.stateDir, 'ctld')).filter((name) => name.startsWith('quarantine'));
    expect(aside).toHaveLength(1);
    expect(readFileSync(path.join(ctl.stateDir, 'ctld', aside[0]!), 'utf8')).toContain('"x":1');

    // It stays out across another restart (the state saved on start no longer holds it).
    await ctl.stop();
    expect((await ctl.run('tsctld', ['--cluster', small, '--idle-exit', '120'])).exitCode).toBe(0);
    expect(sorted((await ctl.run('tsqueue', ['-h', '-o', '%i %T'])).stdout)).toEqual(['1 PENDING', '3 PENDING']);
    await ctl.run('tscancel', ['1', '3']);
  });
});
