// A controller with jobs in it, for tests of the commands that read the queue: a tsctld on a
// private state directory, and jobs submitted straight over its socket (the submit request
// tsbatch sends), so a test can build a queue without depending on tsbatch's options.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import path from 'node:path';
import { CtldClient, type CallArgs } from '../../src/client/ctld-client.js';
import type { JobDescriptor } from '../../src/protocol/job-desc.js';
import { jobDescriptor } from '../../src/protocol/job-desc-defaults.js';
import type { JobView } from '../../src/protocol/job-view.js';
import { runBin } from './run-bin.js';

export interface QueueController {
  stateDir: string;
  /** Environment for runBin: this state directory. */
  env: Record<string, string>;
  submit(desc: Partial<JobDescriptor>): Promise<number>;
  call<T>(op: string, body?: unknown): Promise<T>;
  jobs(): Promise<JobView[]>;
  /** Polls the controller's jobs until `check` holds (or throws after `ms`). */
  until(check: (jobs: JobView[]) => boolean, ms?: number): Promise<JobView[]>;
  /** Cancels every job still pending or running, then stops the controller. */
  stop(): Promise<void>;
}

export async function startQueueController(cluster: string, extraEnv: Record<string, string> = {}): Promise<QueueController> {
  const root = mkdtempSync(path.join(tmpdir(), 'tslurm-queue-'));
  const stateDir = path.join(root, 'state');
  const env = { TSLURM_STATE_DIR: stateDir, TSLURM_CTLD_IDLE_EXIT: '30', TSLURM_KILL_WAIT: '1', ...extraEnv };
  const started = await runBin('tsctld', ['--cluster', cluster, '--idle-exit', '30'], { env });
  if (started.exitCode !== 0) throw new Error(`tsctld did not start: ${started.stderr}`);
  const socket = path.join(stateDir, 'tsctld.sock');
  const call = async <T>(...[op, body]: CallArgs): Promise<T> => {
    const client = await CtldClient.connect(socket);
    try {
      return await client.call<T>(...([op, body] as CallArgs));
    } finally {
      client.close();
    }
  };
  const jobs = (): Promise<JobView[]> => call<JobView[]>('jobs', {});
  return {
    stateDir,
    env,
    call,
    jobs,
    submit: async (desc) => (await call<{ jobId: number }>('submit', { desc: jobDesc(root, desc), testOnly: false })).jobId,
    until: async (check, ms = 20_000) => {
      const end = Date.now() + ms;
      for (;;) {
        const views = await jobs();
        if (check(views)) return views;
        if (Date.now() > end) throw new Error(`queue not as expected in time: ${JSON.stringify(views.map((v) => [v.jobId, v.state, v.reason]))}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    },
    stop: async () => {
      try {
        const live = (await jobs()).filter((v) => (v.state & 0xff) <= 2).map((v) => String(v.jobId));
        if (live.length > 0) await call('cancel', { ids: live, userId: process.getuid?.() ?? 0 });
        await new Promise((resolve) => setTimeout(resolve, 300));
      } catch {
        // already gone
      }
      stopPid(path.join(stateDir, 'tsctld.pid'));
    },
  };
}

function stopPid(pidFile: string): void {
  try {
    process.kill(Number.parseInt(readFileSync(pidFile, 'utf8'), 10), 'SIGTERM');
  } catch {
    // not running
  }
}

/** A batch job as tsbatch would describe `--wrap='sleep 3600'` (it outlives any slow test run), with the given changes. */
function jobDesc(workDir: string, desc: Partial<JobDescriptor>): JobDescriptor {
  return jobDescriptor({
    script: '#!/bin/sh\nsleep 3600\n',
    name: 'wrap',
    workDir,
    environment: [`PATH=${process.env.PATH ?? '/usr/bin:/bin'}`],
    userId: process.getuid?.() ?? 0,
    groupId: process.getgid?.() ?? 0,
    userName: userInfo().username,
    submitHost: 'localhost',
    submitDir: workDir,
    ...desc,
  });
}
