// Every operation tsrestd serves under /slurm/v0.0.38/, in the order the document lists them.
import type { RestRoute } from '../route.js';
import { pingRoute } from './ping.js';
import { jobRoute, jobsRoute } from './jobs.js';
import { nodeRoute, nodesRoute } from './nodes.js';

export const ROUTES: readonly RestRoute[] = [pingRoute, jobsRoute, jobRoute, nodesRoute, nodeRoute];
