// The OpenAPI 3.0 document tsrestd serves at /openapi/v3: built from the routes it registers
// (route.ts) and the v0.0.38 components (components.ts), so it describes exactly what is
// served. Security as slurmrestd's: the user name and token headers.
import { SLURM_COMPAT_VERSION } from '../../cli/slurm-names.js';
import type { RestRoute } from '../route.js';
import { COMPONENTS } from './components.js';
import { ref } from './schema-kit.js';

export function openapiDocument(routes: readonly RestRoute[], toolkitVersion: string): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) {
    const content = (name: string) => ({ 'application/json': { schema: ref(name) } });
    (paths[route.path] ??= {})[route.method.toLowerCase()] = {
      tags: ['slurm'],
      operationId: route.operationId,
      summary: route.summary,
      ...(route.parameters && { parameters: route.parameters.map((p) => ({ ...p, required: p.in === 'path' })) }),
      ...(route.body && { requestBody: { required: true, content: content(route.body) } }),
      responses: {
        200: { description: route.summary, content: content(route.response) },
        default: { description: 'the errors array says what failed', content: content(route.response) },
      },
    };
  }
  return {
    openapi: '3.0.2',
    info: {
      title: 'tslurm REST API (slurmrestd v0.0.38)',
      description: `tsrestd ${toolkitVersion}: the part of Slurm ${SLURM_COMPAT_VERSION}'s slurmrestd v0.0.38 API that tslurm serves.`,
      version: '0.0.38',
    },
    tags: [{ name: 'slurm', description: 'methods that query slurmctld' }],
    servers: [{ url: '/' }],
    security: [{ user: [], token: [] }],
    paths,
    components: {
      schemas: COMPONENTS,
      securitySchemes: {
        user: { type: 'apiKey', description: 'User name', name: 'X-SLURM-USER-NAME', in: 'header' },
        token: { type: 'apiKey', description: 'User access token', name: 'X-SLURM-USER-TOKEN', in: 'header' },
      },
    },
  };
}
