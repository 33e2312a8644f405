// GET /slurm/v0.0.38/diag: sdiag's figures from the controller (ctld/diag-handler.ts) under
// slurmrestd's names. tslurm has no agents, no slurmdbd and no backfill statistics: those keys
// are not sent. A request is named by tslurm's own request name (`submit`, `jobs`), which has
// no Slurm message type id.
import type { DiagView } from '../../ctld/diag-handler.js';
import { nameForUid } from '../../os/users.js';
import { restMeta } from '../meta.js';
import type { RestRoute } from '../route.js';

const average = (c: { count: number; totalMicros: number }): number => (c.count === 0 ? 0 : Math.round(c.totalMicros / c.count));

export const diagRoute: RestRoute = {
  method: 'GET',
  path: '/slurm/v0.0.38/diag',
  operationId: 'slurm_v0_0_38_diag',
  summary: 'get diagnostics',
  response: 'v0.0.38_diag',
  source: 'slurm_get_statistics',
  async handle(_request, ctx) {
    const d = await ctx.controller.call<DiagView>('diag');
    const minutes = Math.max((d.now - d.since) / 60, 1);
    return {
      meta: restMeta(),
      errors: [],
      statistics: {
        req_time: d.now,
        req_time_start: d.since,
        // One Node thread serves every request.
        server_thread_count: 1,
        schedule_cycle_max: d.cycles.maxMicros,
        schedule_cycle_last: d.cycles.lastMicros,
        schedule_cycle_total: d.cycles.count,
        schedule_cycle_mean: d.cycles.count === 0 ? 0 : Math.round(d.cycles.totalMicros / d.cycles.count),
        schedule_cycle_per_minute: Math.round(d.cycles.count / minutes),
        schedule_queue_length: d.cycles.lastQueueLength,
        jobs_submitted: d.jobs.submitted,
        jobs_started: d.jobs.started,
        jobs_completed: d.jobs.completed,
        jobs_canceled: d.jobs.canceled,
        jobs_failed: d.jobs.failed,
        jobs_pending: d.jobs.pending,
        jobs_running: d.jobs.running,
        job_states_ts: d.now,
        rpcs_by_message_type: d.rpcsByOp.map((c) => ({ message_type: c.op, count: c.count, average_time: average(c), total_time: c.totalMicros })),
        rpcs_by_user: d.rpcsByUser.map((c) => ({ user: nameForUid(c.uid), user_id: c.uid, count: c.count, average_time: average(c), total_time: c.totalMicros })),
      },
    };
  },
};
