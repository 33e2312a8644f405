// The dashboard's place in tsrestd (issue 22, item 2): server.ts calls registerDashboard once,
// after the API routes, with the fastify app and the context the API uses. It serves nothing
// yet; the dashboard's own work replaces this file.
import type { FastifyInstance } from 'fastify';
import type { RestContext } from '../context.js';

export async function registerDashboard(_app: FastifyInstance, _ctx: RestContext): Promise<void> {}
