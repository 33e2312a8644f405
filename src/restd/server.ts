// tsrestd's HTTP application: fastify with the v0.0.38 components registered once as a shared
// schema, each route of routes/ registered with its request and answer schemas from them (so
// requests are checked and answers written by the document /openapi/v3 serves), requests under
// /slurm/ and /slurmdb/ authenticated first (auth.ts), failures answered as slurmrestd 22.05 answers them
// (errors.ts; its plain-text lines for a URL or method it does not serve and a body that does
// not parse), and the dashboard's routes (dashboard/index.ts) added last.
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { TOOLKIT_VERSION } from '../os/version.js';
import type { RestContext } from './context.js';
import type { RestUser } from './auth.js';
import { UserError } from '../core/errors.js';
import { errnoValue } from '../core/errno.js';
import { errorsBody, RestError, type RestErrorEntry } from './errors.js';
import { COMPONENTS } from './openapi/components.js';
import { openapiDocument } from './openapi/document.js';
import type { RestRequest, RestRoute } from './route.js';
import { ROUTES } from './routes/index.js';
import { registerDashboard } from './dashboard/index.js';

/** The id the shared schema is registered under: routes refer to `openapi#/components/schemas/<name>`. */
const SHARED = 'openapi';
/** The largest body taken: a 4 MB script (slurmctld's max_script_size) and its description. */
const BODY_LIMIT = 5 * 1024 * 1024;

// slurmrestd 22.05's plain-text answers (observed).
const UNKNOWN_URL = 'Unable find requested URL. Please view /openapi/v3 for API reference.';
const UNKNOWN_METHOD = 'Requested REST method is not defined at URL. Please view /openapi/v3 for API reference.';
const UNPARSED = 'Unable to parse query.';

declare module 'fastify' {
  interface FastifyRequest {
    /** Who sent it, once authenticated (requests under /slurm/ and /slurmdb/). */
    slurmUser?: RestUser;
  }
  interface FastifyContextConfig {
    /** The tsrestd route a request reached (its failures' style and source). */
    restRoute?: RestRoute;
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
  // An empty JSON body (a GET a client sent with the JSON content type) is no body, as
  // slurmrestd takes it; fastify's own parser (kept for the rest: it refuses __proto__ and
  // constructor.prototype keys) refuses it.
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, text, done) => {
    if (text === '') return done(null, undefined);
    parseJson(request, text as string, done);
  });

  app.addHook('onRequest', async (request, reply) => {
    if (!request.url.startsWith('/slurm/') && !request.url.startsWith('/slurmdb/')) return;
    const outcome = await ctx.authenticate(request);
    if (outcome.ok) {
      request.slurmUser = outcome.user;
      return;
    }
    ctx.log.verbose(`rest: ${request.method} ${request.url}: authentication failed: ${outcome.why}`);
    await reply.code(401).type('text/plain').send('Authentication failure');
  });

  app.setErrorHandler((error: FastifyError, request, reply) => replyFastifyError(error, request, reply, ctx));
  const served = routes.map((route) => new RegExp(`^${route.path.replace(/\{\w+\}/g, '[^/]+')}/?$`));
  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0]!;
    const known = served.some((pattern) => pattern.test(path));
    void reply
      .code(known ? 405 : 404)
      .type('text/plain')
      .send(known ? UNKNOWN_METHOD : UNKNOWN_URL);
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
  app.route({
    method: route.method,
    url: route.path.replace(/\{(\w+)\}/g, ':$1'),
    config: { restRoute: route },
    schema: {
      ...(params('path') && { params: params('path') }),
      ...(params('query') && { querystring: params('query') }),
      ...(route.body && { body: shared(route.body) }),
      response: { 200: shared(route.response), default: shared(route.response) },
    },
    // slurmrestd takes a job description's keys in any case (NAME, Name): the schema's are lower.
    ...(route.body && { preValidation: async (request: FastifyRequest) => lowerJobKeys(request.body) }),
    handler: async (request, reply) => {
      const restRequest: RestRequest = {
        params: request.params as Record<string, string>,
        query: (request.query ?? {}) as Record<string, unknown>,
        body: request.body,
        user: request.slurmUser!,
      };
      try {
        const answer = await route.handle(restRequest, ctx);
        // JSON already written (the job listing's kept bytes) goes out as it is.
        return typeof answer === 'string' || Buffer.isBuffer(answer) ? reply.type('application/json; charset=utf-8').send(answer) : answer;
      } catch (error) {
        // A refusal (ours, the controller's) is the answer; anything else is a bug of ours: its
        // stack in the log, Slurm's internal error in the answer.
        if (!(error instanceof RestError) && !(error instanceof UserError)) {
          ctx.log.error(`rest: ${request.method} ${request.url} failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
        }
        const { status, body } = errorsBody(error, route);
        return reply.code(status).send(body);
      }
    },
  });
}

function lowerJobKeys(body: unknown): void {
  const job = (body as { job?: unknown } | null)?.job;
  if (typeof job !== 'object' || job === null || Array.isArray(job)) return;
  const record = job as Record<string, unknown>;
  for (const key of Object.keys(record)) {
    const lower = key.toLowerCase();
    if (lower === key || lower in record) continue;
    record[lower] = record[key];
    delete record[key];
  }
}

// fastify's own refusals, before a handler ran: a body that is not JSON, a body, query or path
// its schema refuses. Answered as slurmrestd answers what it cannot parse.
function replyFastifyError(error: FastifyError, request: FastifyRequest, reply: FastifyReply, ctx: RestContext): void {
  const route = request.routeOptions.config.restRoute;
  if (error.validation && route) {
    const problems: RestErrorEntry[] = error.validation.map((issue) => validationEntry(issue, error.validationContext));
    const signal = error.validationContext === 'querystring' && error.validation.some((issue) => issue.instancePath === '/signal');
    const failure = signal
      ? new RestError('ESLURM_REST_INVALID_QUERY', 'invalid signal: 0', 'HTTP request: signal')
      : new RestError('ESLURM_REST_FAIL_PARSING', 'request does not parse', 'HTTP request', { style: route.style, before: problems });
    const { status, body } = errorsBody(failure, route);
    void reply.code(status).send(body);
    return;
  }
  if (error.statusCode !== undefined && error.statusCode < 500) {
    void reply.code(400).type('text/plain').send(error.statusCode === 413 ? `${UNPARSED} (body too large)` : UNPARSED);
    return;
  }
  ctx.log.error(`rest: ${request.method} ${request.url} failed: ${error.stack ?? error.message}`);
  const { status, body } = errorsBody(error, route ?? { source: 'HTTP request' });
  void reply.code(status).send(body);
}

interface ValidationIssue {
  keyword: string;
  instancePath: string;
  params: Record<string, unknown>;
  message?: string;
}

// One schema problem as slurmrestd words its parse notes: an unknown key, the missing
// environment (its own errno), else where and what.
function validationEntry(issue: ValidationIssue, context: string | undefined): RestErrorEntry {
  if (issue.keyword === 'additionalProperties') return { description: `Unknown key "${String(issue.params.additionalProperty)}"`, source: 'hsearch_r' };
  if (issue.keyword === 'required' && issue.params.missingProperty === 'environment') {
    return { error: 'environment must be set', error_code: errnoValue('ESLURM_ENVIRONMENT_MISSING') };
  }
  return { description: `${context ?? 'request'}${issue.instancePath} ${issue.message ?? 'is invalid'}`, source: 'HTTP request' };
}
