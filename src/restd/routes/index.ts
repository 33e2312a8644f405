// Every operation tsrestd serves under /slurm/v0.0.38/ and /slurmdb/v0.0.38/, in the order the document lists them.
import type { RestRoute } from '../route.js';
import { pingRoute } from './ping.js';
import { diagRoute } from './diag.js';
import { jobRoute, jobsRoute } from './jobs.js';
import { submitRoute } from './submit.js';
import { cancelRoute } from './cancel.js';
import { updateJobRoute } from './update-job.js';
import { nodeRoute, nodesRoute } from './nodes.js';
import { partitionRoute, partitionsRoute } from './partitions.js';
import { reservationRoute, reservationsRoute } from './reservations.js';
import { slurmdbJobRoute, slurmdbJobsRoute } from './slurmdb-jobs.js';

export const ROUTES: readonly RestRoute[] = [
  diagRoute,
  pingRoute,
  jobsRoute,
  jobRoute,
  cancelRoute,
  updateJobRoute,
  submitRoute,
  nodesRoute,
  nodeRoute,
  partitionsRoute,
  partitionRoute,
  reservationsRoute,
  reservationRoute,
  slurmdbJobsRoute,
  slurmdbJobRoute,
];
