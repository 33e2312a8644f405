// tsrestd's HTTP application: fastify with the v0.0.38 components registered once as a shared
// schema, each route of routes/ registered with its request and answer schemas from them (so
// requests are checked and answers written by the document /openapi/v3 serves), requests under
// /slurm/ authenticated first (auth.ts), failures answered with the errors array
// (errors.ts), and the dashboard's routes (dashboard/index.ts) added last.
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { TOOLKIT_VERSION } from '../os/version.js';
import { UserError } from '../core/errors.js';
import type { RestContext } from './context.js';
import type { RestUser } from './auth.js';
import { errorsBody, RestError } from './errors.js';
import { COMPONENTS } from './openapi/components.js';
import { openapiDocument } from './openapi/document.js';
import type { RestRoute } from './route.js';
import { ROUTES } from './routes/index.js';
import { registerDashboard } from './dashboard/index.js';

/** The id the shared schema is registered under: routes refer to `openapi#/components/schemas/<name>`. */
const SHARED = 'openapi';
/** The largest body taken: a 4 MB script (slurmctld's max_script_size) and its description. */
const BODY_LIMIT = 5 * 1024 * 1024;

declare module 'fastify' {
  interface FastifyRequest {
    /** Who sent it, once authenticated (requests under /slurm/). */
    slurmUser?: RestUser;
  }
}

export async function buildApp(ctx: RestContext, routes: readonly RestRoute[] = ROUTES): Promise<FastifyInstance> {
  const { default: Fastify } = await import('fastify');
  const app = Fastify({
    logger: false,
    bodyLimit: BODY_LIMIT,
    ajv: {
      customOptions: {
        // The document is OpenAPI 3.0: its `format`s (int64) and keywords are not ajv's own.
        strict: false,
        formats: { int32: true, int64: true, double: true },
        // A field tsrestd does not take is refused by name, not dropped unseen.
        removeAdditional: false,
      },
    },
  });
  app.addSchema({ $id: SHARED, components: { schemas: COMPONENTS } });

  app.addHook('onRequest', async (request, reply) => {
    if (!request.url.startsWith('/slurm/')) return;
    const outcome = await ctx.authenticate(request);
    if (outcome.ok) {
      request.slurmUser = outcome.user;
      return;
    }
    ctx.log.verbose(`rest: ${request.method} ${request.url}: authentication failed: ${outcome.why}`);
    // slurmrestd's answer to a request it cannot authenticate: 401 and these words.
    await reply.code(401).type('text/plain').send('Authentication failure');
  });

  app.setErrorHandler((error: FastifyError, request, reply) => replyError(error, request, reply, ctx));
  app.setNotFoundHandler((request, reply) => {
    void reply.code(404).send(errorsBody(new RestError('ESLURM_REST_INVALID_QUERY', `Unable to find requested URL ${request.method} ${request.url}`, 'HTTP request', 404), 'HTTP request').body);
  });

  for (const route of routes) registerRoute(app, route, ctx);
  const document = openapiDocument(routes, TOOLKIT_VERSION);
  app.get('/openapi/v3', async () => document);

  await registerDashboard(app, ctx);
  return app;
}

function registerRoute(app: FastifyInstance, route: RestRoute, ctx: RestContext): void {
  const shared = (name: string) => ({ $ref: `${SHARED}#/components/schemas/${name}` });
  const params = (where: 'path' | 'query') => {
    const list = (route.parameters ?? []).filter((p) => p.in === where);
    if (list.length === 0) return undefined;
    return {
      type: 'object',
      properties: Object.fromEntries(list.map((p) => [p.name, p.schema])),
      ...(where === 'path' && { required: list.map((p) => p.name) }),
    };
  };
  const url = route.path.replace(/\{(\w+)\}/g, ':$1');
  app.route({
    method: route.method,
    url,
    schema: {
      ...(params('path') && { params: params('path') }),
      ...(params('query') && { querystring: params('query') }),
      ...(route.body && { body: shared(route.body) }),
      response: { 200: shared(route.response), default: shared(route.response) },
    },
    handler: async (request) => {
      try {
        return await route.handle(
          {
            params: request.params as Record<string, string>,
            query: (request.query ?? {}) as Record<string, unknown>,
            body: request.body,
            user: request.slurmUser!,
          },
          ctx,
        );
      } catch (error) {
        throw Object.assign(error instanceof Error ? error : new Error(String(error)), { restSource: route.source });
      }
    },
  });
}

function replyError(error: FastifyError & { restSource?: string }, request: FastifyRequest, reply: FastifyReply, ctx: RestContext): void {
  let failure: unknown = error;
  // fastify's own refusals: a body or query its schema rejects, JSON that does not parse.
  if (error.validation) failure = new RestError('ESLURM_REST_FAIL_PARSING', `${error.validationContext ?? 'request'}${error.message.replace(/^(body|querystring|params)/, '')}`, 'HTTP request', 400);
  else if (error.statusCode !== undefined && error.statusCode < 500 && !(error instanceof RestError)) {
    failure = new RestError('ESLURM_REST_FAIL_PARSING', error.message, 'HTTP request', error.statusCode);
  } else if (!(error instanceof RestError) && !(error instanceof UserError)) {
    // A bug of ours: its stack in the log, Slurm's internal error in the answer.
    ctx.log.error(`rest: ${request.method} ${request.url} failed: ${error.stack ?? error.message}`);
  }
  const { status, body } = errorsBody(failure, error.restSource ?? 'HTTP request');
  void reply.code(status).send(body);
}
