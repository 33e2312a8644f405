// The dashboard at `/` of tsrestd: the page's files, its live feed at /dashboard/events fed by
// one sampler of the controller, and the one-time login of the address tsrestd prints. The page
// itself holds no data and needs no credentials; the feed is authenticated as the API's
// requests are, and the page's Cancel and Hold go through the v0.0.38 API itself.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ClusterInfo } from '../../protocol/node-info.js';
import type { JobView } from '../../protocol/job-view.js';
import type { RestContext } from '../context.js';
import { jobsMirror } from '../jobs-mirror.js';
import { loadAssets } from './assets.js';
import { streamDashboard } from './events.js';
import { LoginCodes } from './login.js';
import { DashboardSampler } from './sampler.js';

/** How often the controller is polled unless TSRESTD_DASHBOARD_INTERVAL (seconds) says otherwise. */
export const DEFAULT_INTERVAL_MS = 3000;

declare module 'fastify' {
  interface FastifyInstance {
    /** The dashboard's address on a TCP listener (`http://host:port/`) with a fresh one-time login. */
    dashboardLink(base: string): string;
  }
}

export function dashboardInterval(env: NodeJS.ProcessEnv = process.env): number {
  const seconds = Number(env.TSRESTD_DASHBOARD_INTERVAL);
  return Number.isFinite(seconds) && seconds > 0 ? Math.max(100, seconds * 1000) : DEFAULT_INTERVAL_MS;
}

export async function registerDashboard(app: FastifyInstance, ctx: RestContext): Promise<void> {
  const assets = loadAssets();
  // The job list is tsrestd's copy, shared with GET /jobs: a quiet queue of 10,000 jobs costs
  // a poll a comparison in the controller, not an encoding sent and decoded again. Watcher's
  // reads (controller-link.ts): polling an idle cluster lets its controller exit.
  const mirror = jobsMirror(ctx.controller);
  const jobs = async (): Promise<readonly JobView[]> => (await mirror.jobs('watch')).views;
  const sampler = new DashboardSampler(
    { nodes: async () => (await ctx.controller.watch<ClusterInfo>('cluster_info')).nodes, jobs },
    dashboardInterval(),
  );
  const logins = new LoginCodes(ctx.stateDir);
  app.decorate('dashboardLink', (base: string) => `${base.endsWith('/') ? base : `${base}/`}#login=${logins.issue()}`);
  // The sampler polls only while a page watches its feed (sampler.ts says why and what is kept).
  app.addHook('onClose', async () => sampler.stop());

  const refuse = (reply: FastifyReply, status: number, error: string) =>
    reply.code(status).send({ errors: [{ error_number: -1, error, description: error, source: 'dashboard' }] });

  app.get('/', async (_request, reply) => {
    const page = assets.get('index.html')!;
    return reply.type(page.type).header('cache-control', 'no-cache').send(page.body);
  });
  app.get<{ Params: { file: string } }>('/dashboard/:file', async (request, reply) => {
    const asset = request.params.file === 'index.html' ? undefined : assets.get(request.params.file);
    if (!asset) return refuse(reply, 404, `no such file: ${request.params.file}`);
    return reply.type(asset.type).header('cache-control', 'no-cache').send(asset.body);
  });
  app.get('/dashboard/events', async (request: FastifyRequest, reply) => {
    const outcome = await ctx.authenticate(request);
    if (!outcome.ok) {
      ctx.log.verbose(`rest: dashboard feed: authentication failed: ${outcome.why}`);
      return refuse(reply, 401, 'Authentication failure');
    }
    // A page opening is a request that needs the controller: started as an API request starts
    // it (the polls that follow only watch), and polled before the page's first message so that
    // it opens on a fresh picture, not on the one of the last time a page watched.
    if (await ctx.controller.call('ping').then(() => true, () => false)) await sampler.refresh();
    streamDashboard(reply, sampler);
  });
  app.post<{ Body: { code?: unknown } }>('/dashboard/login', async (request, reply) => {
    const code = request.body?.code;
    const session = typeof code === 'string' ? logins.redeem(code) : null;
    if (!session) return refuse(reply, 401, 'this login link was used already or is not known; sign in with a token from `tscontrol token`');
    return reply.header('cache-control', 'no-store').send(session);
  });
}
