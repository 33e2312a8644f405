// What the batch step daemon needs to run a job's script (slurmd's batch_job_launch_msg_t):
// written by the controller as JSON into the job's directory, read by batch-main.ts.
import path from 'node:path';
import type * as v from 'valibot';
import type { BatchResultSchema } from '../protocol/node-messages.js';
import type { BatchSpec, KillRequest } from '../protocol/stepd-messages.js';

// The batch spec and the kill order are described in protocol/stepd-messages.ts.
export type { BatchSpec, KillRequest };

/** What the batch step daemon leaves behind: the script's wait status (protocol/node-messages.ts). */
export type BatchResult = v.InferOutput<typeof BatchResultSchema>;

/** The files of one job in the state directory. */
export function jobDirFiles(stateDir: string, jobId: number) {
  const dir = path.join(stateDir, 'jobs', String(jobId));
  return {
    dir,
    script: path.join(dir, 'script'),
    spec: path.join(dir, 'spec.json'),
    kill: path.join(dir, 'kill.json'),
    signal: path.join(dir, 'signal.json'),
    result: path.join(dir, 'result.json'),
    log: path.join(dir, 'stepd.log'),
  };
}
