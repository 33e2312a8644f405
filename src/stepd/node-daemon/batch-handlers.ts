// The requests a step host serves for batch steps, the same in a node daemon (over TCP, from
// its controller) and in the embedded step host (over its Unix socket, from the local
// controller): launch, kill, signal, and the list the controller re-attaches with.
import type { HandlerTable } from '../../net/rpc-server.js';
import type { STEPD_BODIES } from '../../protocol/stepd-messages.js';
import type { BatchRunner } from './batch-runner.js';

type BatchOps = 'batch-launch' | 'batch-kill' | 'batch-signal' | 'batch-jobs';

export function batchHandlers(runner: BatchRunner): Pick<HandlerTable<typeof STEPD_BODIES>, BatchOps> {
  return {
    'batch-launch': async (body) => runner.launch(body),
    'batch-kill': async (body) => runner.kill(body.jobId, body.request),
    'batch-signal': async (body) => runner.signal(body.jobId, body.signal, body.shellOnly === true),
    'batch-jobs': async () => ({ pid: process.pid, running: runner.running(), finished: runner.finished() }),
  };
}

/** The answer to `batch-jobs`. */
export interface BatchJobsAnswer {
  pid: number;
  running: Array<{ jobId: number; gen: number }>;
  finished: Array<{ jobId: number; gen: number }>;
}
