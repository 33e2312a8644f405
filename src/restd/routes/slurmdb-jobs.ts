// GET /slurmdb/v0.0.38/jobs and GET /slurmdb/v0.0.38/job/{job_id}: the jobs of the accounting
// store the controller writes in the state directory (the one tsacct reads; slurmrestd asks
// slurmdbd), each with its steps, as tsacct --json writes them (the same dbv0.0.38 records).
// Read directly, so they answer with no controller running. As 22.05's dbv0.0.38 answers: a
// query it cannot read is status 500 with error 9000; nothing found is status 200 with error
// 9003 "Nothing found" and no jobs (a store not made yet holds nothing); a store that cannot
// be read is status 200 with error 7000, slurmrestd's answer when slurmdbd cannot be reached.
import { accountingStorePath } from '../../acct/store-path.js';
import type { AcctJob } from '../../acct/records.js';
import { errorEntry } from '../errors.js';
import { DB_PLUGIN, restMeta } from '../meta.js';
import { pathParam, type RestParameter, type RestRoute } from '../route.js';
import type { RestContext } from '../context.js';
import { jobIdQuery, jobQuery, QUERY_KEYS, type JobQuery } from '../slurmdb/job-query.js';

/** Where 22.05 says its failures came from. */
const SOURCE = 'slurmdb_jobs_get';

const DESCRIPTIONS: Record<string, string> = {
  submit_time: 'Filter by submission time (instead of start_time)',
  start_time: 'Filter by start time',
  end_time: 'Filter by end time',
  account: 'Comma delimited list of accounts to match',
  association: 'Comma delimited list of associations to match',
  cluster: 'Comma delimited list of cluster to match',
  constraints: 'Comma delimited list of constraints to match',
  cpus_max: 'Number of CPUs high range',
  cpus_min: 'Number of CPUs low range',
  skip_steps: 'Report no job step information',
  disable_wait_for_result: 'Disable waiting for result from slurmdbd',
  exit_code: 'Exit code of job',
  format: 'Comma delimited list of formats to match',
  groups: 'Comma delimited list of groups to match',
  job_name: 'Comma delimited list of job names to match',
  nodes_max: 'Number of nodes high range',
  nodes_min: 'Number of nodes low range',
  partition: 'Comma delimited list of partitions to match',
  qos: 'Comma delimited list of QOS to match',
  reason: 'Comma delimited list of job reasons to match',
  reservation: 'Comma delimited list of reservations to match',
  state: 'Comma delimited list of states to match',
  step: 'Comma delimited list of job steps to match',
  node: 'Comma delimited list of used nodes to match',
  wckey: 'Comma delimited list of wckeys to match',
};

export const slurmdbJobsRoute: RestRoute = {
  method: 'GET',
  path: '/slurmdb/v0.0.38/jobs',
  operationId: 'slurmdb_v0_0_38_get_jobs',
  summary: 'Get job list',
  parameters: QUERY_KEYS.map(queryParameter),
  response: 'dbv0.0.38_job_info',
  source: SOURCE,
  plugin: DB_PLUGIN,
  async handle(request, ctx) {
    return answer(ctx, jobQuery(request.query, new Date()));
  },
};

export const slurmdbJobRoute: RestRoute = {
  method: 'GET',
  path: '/slurmdb/v0.0.38/job/{job_id}',
  operationId: 'slurmdb_v0_0_38_get_job',
  summary: 'Get job info',
  parameters: [pathParam('job_id', 'Slurm JobID')],
  response: 'dbv0.0.38_job_info',
  source: SOURCE,
  plugin: DB_PLUGIN,
  async handle(request, ctx) {
    return answer(ctx, jobIdQuery(request.params.job_id!));
  },
};

async function answer(ctx: RestContext, query: JobQuery): Promise<object> {
  const meta = restMeta(DB_PLUGIN);
  let jobs: AcctJob[];
  try {
    jobs = await readJobs(ctx.stateDir, query);
  } catch (error) {
    ctx.log.error(`rest: accounting store ${accountingStorePath(ctx.stateDir)} cannot be read: ${(error as Error).message}`);
    return { meta, errors: [errorEntry('ESLURM_DB_CONNECTION', 'error_number', 'Failed connecting to slurmdbd', SOURCE)], jobs: [] };
  }
  if (jobs.length === 0) return { meta, errors: [errorEntry('ESLURM_REST_EMPTY_RESULT', 'error_number', 'Nothing found', SOURCE)], jobs: [] };
  const { jobData } = await import('../../commands/tsacct/data.js');
  const now = Math.floor(Date.now() / 1000);
  return { meta, errors: [], jobs: jobs.map((job) => jobData(job, now)) };
}

async function readJobs(stateDir: string, query: JobQuery): Promise<AcctJob[]> {
  const { openStoreForReading, queryJobs } = await import('../../acct/index.js');
  const db = await openStoreForReading(accountingStorePath(stateDir));
  if (!db) return [];
  try {
    return queryJobs(db, query.filter).filter(query.matches);
  } finally {
    db.close();
  }
}

// The parameters as 22.05's document lists them (each a string, the two flags booleans), with
// `groups` where the document says `group`: 22.05 takes the one and refuses the other.
function queryParameter(name: string): RestParameter {
  const flag = name === 'skip_steps' || name === 'disable_wait_for_result';
  return { name, in: 'query', description: DESCRIPTIONS[name] ?? name, schema: { type: flag ? 'boolean' : 'string' } };
}
