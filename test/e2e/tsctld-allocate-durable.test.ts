// An allocation the controller starts at once (tsrun's, tsalloc's) is on disk, start and all,
// before its answer leaves: one journal record (the submit record carrying the start) is
// flushed, not a submit record and then a start record. A controller SIGKILLed the moment the
// answer arrives comes back with the job RUNNING on the nodes it was given.
import { afterAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { readFileSync } from 'node:fs';
import { fixture } from '../helpers/run-bin.js';
import { testController } from '../helpers/controller.js';
import { TSLURM_PROTOCOL_VERSION } from '../../src/core/protocol-version.js';
import { jobDescriptor } from '../../src/protocol/job-desc-defaults.js';
import type { AllocateAnswer } from '../../src/protocol/ctld-answers.js';

const small = fixture('clusters', 'small.yaml'); // node[1-4], 4 CPUs; partition small: 10 min, 2 nodes
const JOB_RUNNING = 1;

/** Sends `allocate` and SIGKILLs the controller as soon as the answer's line has arrived. */
function allocateThenKill(stateDir: string, body: unknown, ctldPid: number): Promise<AllocateAnswer> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(path.join(stateDir, 'tsctld.sock'));
    let text = '';
    socket.on('connect', () => socket.write(`${JSON.stringify({ v: TSLURM_PROTOCOL_VERSION, id: 1, op: 'allocate', body })}\n`));
    socket.on('data', (chunk) => {
      text += chunk.toString('utf8');
      const newline = text.indexOf('\n');
      if (newline === -1) return;
      process.kill(ctldPid, 'SIGKILL');
      socket.destroy();
      const reply = JSON.parse(text.slice(0, newline)) as { ok: boolean; body?: AllocateAnswer; error?: { message: string } };
      if (reply.ok) resolve(reply.body!);
      else reject(new Error(reply.error?.message ?? 'refused'));
    });
    socket.on('error', reject);
  });
}

describe('an allocation started at once, and a controller killed at its answer', () => {
  const ctl = testController();
  // Stands in for the tsrun holding the job: a live process whose command line names tsrun.
  const holder = spawn('sh', ['-c', 'sleep 120', 'tsrun-holder'], { stdio: 'ignore' });
  afterAll(async () => {
    holder.kill('SIGKILL');
    await ctl.stop();
  });

  it('journals the job once, running, before answering; the restarted controller has it RUNNING on its nodes', async () => {
    await ctl.run('tsbatch', ['--cluster', small, '--hold', '--wrap', 'true']); // starts the controller
    const ctldPid = Number.parseInt(readFileSync(path.join(ctl.stateDir, 'tsctld.pid'), 'utf8'), 10);
    const user = os.userInfo();
    const desc = jobDescriptor({
      name: 'durable',
      command: 'true',
      ntasks: 2,
      workDir: ctl.workDir,
      interactive: { pid: holder.pid!, ownStep: true },
      userId: user.uid,
      groupId: user.gid,
      userName: user.username,
      submitHost: os.hostname(),
      submitDir: ctl.workDir,
    });
    const answer = await allocateThenKill(ctl.stateDir, { desc }, ctldPid);
    expect(answer.pending).toBe(false);
    const id = answer.jobId;
    const nodes = answer.grant!.nodeNames;

    // What the journal held when the answer left: the submit record, carrying the start.
    const records = readFileSync(path.join(ctl.stateDir, 'ctld', 'journal'), 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as { t: string; id?: number; job?: { id: number; state: number; nodes: string[] | null; start: number } })
      .filter((r) => r.id === id || r.job?.id === id);
    expect(records.map((r) => r.t)).toEqual(['submit']);
    expect(records[0]!.job).toMatchObject({ state: JOB_RUNNING, nodes });
    expect(records[0]!.job!.start).toBeGreaterThan(0);

    // The next command starts a new controller, which finds the job's holder alive.
    await ctl.run('tsbatch', ['--cluster', small, '--hold', '--wrap', 'true']);
    expect(await ctl.jobField(id, 'JobState')).toBe('RUNNING');
    expect(await ctl.jobField(id, 'NodeList')).toBe(nodes.join(','));
    expect(await ctl.jobField(id, 'StartTime')).not.toBe('Unknown');

    // Its holder gone, the job ends as a lost srun's does.
    holder.kill('SIGKILL');
    await ctl.until(async () => (await ctl.jobField(id, 'JobState')) === 'CANCELLED');
  });
});
