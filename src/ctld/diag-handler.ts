// The `diag` request (sdiag, slurmrestd's GET /diag): the controller's figures since it
// started — jobs (diag-stats.ts), scheduling passes (scheduler.ts) and requests served by
// name and by user (net/rpc-stats.ts).
import type { RpcStats } from '../net/rpc-stats.js';
import type { Controller } from './controller.js';
import type { CycleFigures, Scheduler } from './scheduler.js';
import type { JobFigures } from './diag-stats.js';

export interface DiagView {
  /** Unix seconds: now, and when the figures started. */
  now: number;
  since: number;
  jobs: JobFigures & { pending: number; running: number };
  cycles: CycleFigures;
  rpcsByOp: Array<{ op: string; count: number; totalMicros: number }>;
  rpcsByUser: Array<{ uid: number; count: number; totalMicros: number }>;
}

export function diagHandler(ctl: Controller, scheduler: Scheduler, stats: RpcStats | undefined): () => Promise<DiagView> {
  return async () => ({
    now: Math.floor(Date.now() / 1000),
    since: ctl.diag.since,
    jobs: ctl.diag.figures([...ctl.jobs.values()].map((job) => job.record)),
    cycles: { ...scheduler.cycles },
    rpcsByOp: [...(stats?.byOp ?? [])].map(([op, c]) => ({ op, ...c })),
    rpcsByUser: [...(stats?.byUser ?? [])].map(([uid, c]) => ({ uid, ...c })),
  });
}
