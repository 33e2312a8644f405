// One operation tsrestd serves: its method and OpenAPI path, the parameters and schemas the
// document lists for it (openapi/document.ts), and its handler. server.ts registers each with
// fastify from these same facts, so what is served and what is documented cannot differ.
import type { RestContext } from './context.js';
import type { RestUser } from './auth.js';
import type { ErrorStyle } from './errors.js';

export interface RestParameter {
  name: string;
  in: 'path' | 'query';
  description: string;
  /** A JSON schema of the value. */
  schema: Record<string, unknown>;
}

export interface RestRequest {
  params: Record<string, string>;
  query: Record<string, unknown>;
  body: unknown;
  user: RestUser;
}

export interface RestRoute {
  method: 'GET' | 'POST' | 'DELETE';
  /** The OpenAPI path: `/slurm/v0.0.38/job/{job_id}`. */
  path: string;
  operationId: string;
  summary: string;
  parameters?: readonly RestParameter[];
  /** The component that describes the request body. */
  body?: string;
  /** The component that describes the answer (failures too: each carries `errors`). */
  response: string;
  /** Names the failure's `source` in the errors array (Slurm names the call that failed). */
  source: string;
  /** How its failures name the errno (errors.ts); error_number unless given. */
  style?: ErrorStyle;
  /** The list a failed lookup still carries, empty (`jobs` of GET /job/{id}). */
  emptyList?: string;
  /** The plugin its answers' `meta` names (the accounting paths': openapi/dbv0.0.38); v0.0.38's unless given. */
  plugin?: { type: string; name: string };

  /** The answer: an object the route's schema writes, or JSON text already written. */
  handle(request: RestRequest, ctx: RestContext): Promise<object | string | Buffer>;
}

export const pathParam = (name: string, description: string): RestParameter => ({ name, in: 'path', description, schema: { type: 'string' } });

export const updateTime: RestParameter = {
  name: 'update_time',
  in: 'query',
  description: 'Filter if changed since update_time. Use of this parameter can result in faster replies.',
  schema: { type: 'integer', format: 'int64' },
};
