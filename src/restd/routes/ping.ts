// GET /slurm/v0.0.38/ping: is the controller up (slurmrestd asks slurmctld with slurm_ping).
import { restMeta } from '../meta.js';
import type { RestRoute } from '../route.js';

export const pingRoute: RestRoute = {
  method: 'GET',
  path: '/slurm/v0.0.38/ping',
  operationId: 'slurm_v0_0_38_ping',
  summary: 'ping test',
  response: 'v0.0.38_pings',
  source: 'slurm_ping',
  async handle(_request, ctx) {
    const up = await ctx.controller.call('ping').then(
      () => true,
      () => false,
    );
    return { meta: restMeta(), errors: [], pings: [{ hostname: ctx.controllerHost, ping: up ? 'UP' : 'DOWN', status: up ? 0 : -1, mode: 'primary' }] };
  },
};
