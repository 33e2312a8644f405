// The accounting paths' schemas (/slurmdb/v0.0.38/jobs, /job/{job_id}), under slurmrestd 22.05's
// dbv0.0.38 names and descriptions (its document: /work/ref/restd-dbv0.0.38-openapi-22.05.8.json).
// They describe what tsacct --json writes for a job (commands/tsacct/data.ts), which is what
// these paths send: where 22.05's document and its answers disagree (allocation_nodes, a count
// sent as a number, documented as a string) the schema says what is sent. Fastify writes the
// answers from these schemas, so every key sent must be listed here.
import { int, int64, list, nullable, object, ref, str, strings, type Schema } from './schema-kit.js';

const usec = (what: string): Schema =>
  object({ seconds: int64(`Total number of CPU-seconds used ${what}, in seconds`), microseconds: int64(`Total number of CPU-seconds used ${what}, in microseconds`) });

// A TRES figure; a step's max usage also says on which task and node it was reached.
const tres = object({
  type: str('TRES type'),
  name: str('TRES name (optional)'),
  id: int('database id'),
  count: int64('count of TRES'),
  task: int('task that reached the figure (max only)'),
  node: str('node that reached the figure (max only)'),
});

const exitCode = object({
  status: str('Job exit status'),
  return_code: int('Return code from parent process'),
  signal: object({ signal_id: int('Signal number process received'), name: str('Name of signal received') }),
});

const step = object({
  time: object({
    elapsed: int('Total time elapsed'),
    end: int64('Timestamp of when job ended'),
    start: int64('Timestamp of when job started'),
    suspended: int64('Timestamp of when job last suspended'),
    system: usec('by the system on behalf of the step'),
    total: usec('by the step'),
    user: usec('by the step in user land'),
  }),
  exit_code: ref('dbv0.0.38_job_exit_code'),
  nodes: object({ count: int('Total number of nodes in step'), range: str('Nodes in step') }),
  tasks: object({ count: int('Number of tasks in step') }),
  kill_request_user: nullable(str('User who requested job killed')),
  state: str('State of job step'),
  step: object({
    job_id: int('Parent job id'),
    het: object({ component: nullable(int('Parent HetJob component id')) }),
    id: str('Step id'),
    name: str('Step name'),
  }),
  tres: object({
    allocated: ref('dbv0.0.38_tres_list'),
    requested: object({ max: ref('dbv0.0.38_tres_list'), average: ref('dbv0.0.38_tres_list') }),
  }),
});

const job = object({
  account: str('Account charged by job'),
  comment: object({ administrator: str('Administrator set comment'), job: str('Job comment'), system: str('System set comment') }),
  allocation_nodes: int('Nodes allocated to job'),
  array: object({
    job_id: int('Job id of array'),
    limits: object({ max: object({ running: object({ tasks: int('Max running tasks in array at any one time') }) }) }),
    task_id: int('Array task id'),
    task: str('Array task'),
  }),
  association: ref('dbv0.0.38_association_short_info'),
  cluster: str('Assigned cluster'),
  constraints: str('Constraints on job'),
  derived_exit_code: ref('dbv0.0.38_job_exit_code'),
  time: object({
    elapsed: int('Total time elapsed'),
    eligible: int64('Total time eligible to run'),
    end: int64('Timestamp of when job ended'),
    start: int64('Timestamp of when job started'),
    submission: int64('Timestamp of when job submitted'),
    suspended: int64('Timestamp of when job last suspended'),
    system: usec('by the system on behalf of the job'),
    limit: int('Job wall clock time limit'),
    total: usec('by the job'),
    user: usec('by the job in user land'),
  }),
  exit_code: ref('dbv0.0.38_job_exit_code'),
  flags: strings('List of properties of job'),
  group: str("User's group to run job"),
  het: object({ job_id: int('Parent HetJob id'), job_offset: nullable(int('Offset of this job to parent')) }),
  job_id: int('Job id'),
  name: str('Assigned job name'),
  mcs: object({ label: str('Assigned MCS label') }),
  nodes: str('List of nodes allocated for job'),
  partition: str("Assigned job's partition"),
  priority: int64('Priority'),
  qos: str('Assigned qos name'),
  required: object({ CPUs: int('Required number of CPUs'), memory: int64('Required amount of memory (MiB)') }),
  kill_request_user: nullable(str('User who requested job killed')),
  // 22.05 documents the reservation's name as an integer, and sends one.
  reservation: object({ id: int('Database id of reservation'), name: int('Name of reservation') }),
  state: object({ current: str('Current state of job'), reason: str("Last reason job didn't run") }),
  steps: list('Job step description', 'dbv0.0.38_job_step'),
  tres: object({ allocated: ref('dbv0.0.38_tres_list'), requested: ref('dbv0.0.38_tres_list') }),
  user: str('Job user'),
  wckey: object({ wckey: str('Job assigned wckey'), flags: strings('wckey flags') }),
  working_directory: str('Directory where job was initially started'),
});

// 22.05's dbv0.0.38 errors: description, error_number, error and source, each when known.
const error = object({
  description: str('Explaination of cause of error'),
  error_number: int('Slurm internal error number'),
  error: str('Error message'),
  source: str('Where error occured in the source'),
});

export const SLURMDB_COMPONENTS: Record<string, Schema> = {
  'dbv0.0.38_association_short_info': object({ account: str('Account name'), cluster: str('Cluster name'), partition: str('Partition name (optional)'), user: str('User name') }),
  'dbv0.0.38_error': error,
  'dbv0.0.38_errors': { type: 'array', description: 'Slurm errors', items: ref('dbv0.0.38_error') },
  'dbv0.0.38_job': job,
  'dbv0.0.38_job_exit_code': exitCode,
  'dbv0.0.38_job_info': object(
    { meta: ref('v0.0.38_meta'), errors: list('Slurm errors', 'dbv0.0.38_error'), jobs: list('Array of jobs', 'dbv0.0.38_job') },
    ['meta', 'errors'],
  ),
  'dbv0.0.38_job_step': step,
  'dbv0.0.38_tres_list': { type: 'array', description: 'TRES list of attributes', items: tres },
};
