// The schemas of tsrestd's OpenAPI document, under slurmrestd 22.05's v0.0.38 names and with
// its field names and descriptions (/work/ref/restd-openapi-v3-22.05.8.json holds the real
// document). Each lists the fields tsrestd fills; a v0.0.38 field tslurm has nothing for is
// left out rather than sent empty, so the document says exactly what is served. Fastify checks
// requests and writes answers from these same schemas (server.ts).
import { bool, int, int64, list, nullable, object, ref, response, str, strings, type Schema } from './schema-kit.js';
import { JOB_PROPERTIES } from './job-properties.js';
import { SLURMDB_COMPONENTS } from './slurmdb-components.js';

const meta = object({
  plugin: object({ type: str('plugin type'), name: str('plugin name') }),
  Slurm: object({
    version: object({ major: int('major version'), micro: int('micro version'), minor: int('minor version') }),
    release: str('version specifier'),
  }),
});

// slurmrestd 22.05 names the errno `error_number` in most answers, `errno` for a node,
// partition or reservation looked up by name and `error_code` in a submission's answer
// (observed); an entry may also be a note with description and source only.
const error = object({
  description: str('what was being done'),
  error_number: int('Slurm internal error number'),
  errno: int('Slurm internal error number (node, partition and reservation lookups)'),
  error_code: int('Slurm internal error number (job submission)'),
  error: str('error message'),
  source: str('where the error happened'),
});

const ping = object({
  hostname: str('slurm controller hostname'),
  ping: { type: 'string', description: 'slurm controller host up', enum: ['UP', 'DOWN'] },
  mode: str('slurm controller mode'),
  status: int('slurm controller status'),
});

// As cli/format/job-data.ts writes a job (squeue --json, the same v0.0.38 shape).
const job = object({
  array_job_id: int('job_id of a job array or 0 if N/A'),
  array_task_id: nullable(int('task_id of a job array')),
  array_max_tasks: int('Maximum number of running array tasks'),
  array_task_string: str('string expression of task IDs in this record'),
  batch_flag: bool('if batch: queued job with script'),
  batch_host: str('name of host running batch script'),
  cluster: str('name of cluster that the job is on'),
  command: str('command to be executed'),
  comment: str('arbitrary comment'),
  contiguous: bool('job requires contiguous nodes'),
  cpus_per_task: nullable(int('number of processors required for each task')),
  dependency: str('synchronize job execution with other jobs'),
  derived_exit_code: int('highest exit code of all job steps'),
  eligible_time: int64('time job is eligible for running'),
  end_time: int64('time of termination, actual or expected'),
  excluded_nodes: str('comma separated list of excluded nodes'),
  exit_code: int('exit code for job'),
  features: str('comma separated list of required features'),
  group_id: int('group job submitted as'),
  group_name: str('group job submitted as'),
  job_id: int('job ID'),
  job_state: str('state of the job'),
  name: str('name of the job'),
  nodes: str('list of nodes allocated to job'),
  tasks_per_node: int('number of tasks to invoke on each node'),
  cpus: int('minimum number of cpus required by job'),
  node_count: int('minimum number of nodes required by job'),
  tasks: int('requested task count'),
  partition: str('name of assigned partition'),
  memory_per_node: nullable(int('minimum real memory per node')),
  memory_per_cpu: nullable(int('minimum real memory per cpu')),
  minimum_cpus_per_node: int('minimum # CPUs per node'),
  priority: int('relative priority of the job'),
  required_nodes: str('comma separated list of required nodes'),
  requeue: bool('enable or disable job requeue option'),
  restart_cnt: int('count of job restarts'),
  shared: nullable(str('type and if job can share nodes with other jobs')),
  start_time: int64('time execution begins, actual or expected'),
  state_reason: str('reason job still pending or failed'),
  standard_error: str("pathname of job's stderr file"),
  standard_input: str("pathname of job's stdin file"),
  standard_output: str("pathname of job's stdout file"),
  submit_time: int64('time of job submission'),
  time_limit: nullable(int64('maximum run time in minutes')),
  tres_per_job: str('semicolon delimited list of TRES=# values'),
  tres_per_node: str('semicolon delimited list of TRES=# values'),
  user_id: int64('user id the job runs as'),
  user_name: str('user the job runs as'),
  current_working_directory: str('pathname of working directory'),
});

// As cli/format/data-parser.ts writes a node (sinfo --json); the host's facts only once its
// node daemon reported them.
const node = object({
  architecture: str('computer architecture'),
  boards: int('total number of boards per node'),
  boot_time: int64('timestamp of node boot'),
  cores: int('number of cores per socket'),
  cpu_load: int64('CPU load * 100'),
  free_memory: int('free memory in MiB'),
  cpus: int('configured count of cpus running on the node'),
  features: str(''),
  active_features: str("list of a node's available features"),
  gres: str("list of a node's generic resources"),
  name: str('node name to slurm'),
  address: str('state after reboot'),
  hostname: str("node's hostname"),
  state: str('current node state'),
  state_flags: strings('node state flags'),
  operating_system: str('operating system'),
  partitions: strings('assigned partitions'),
  port: int('TCP port number of the slurmd'),
  real_memory: int('configured MB of real memory on the node'),
  reason: str('reason for node being DOWN or DRAINING'),
  reason_changed_at: int('Time stamp when reason was set'),
  reason_set_by_user: nullable(str('User that set the reason')),
  slurmd_start_time: int64('timestamp of slurmd startup'),
  sockets: int('total number of sockets per node'),
  threads: int('number of threads per core'),
  temporary_disk: int('configured MB of total disk in TMP_FS'),
  weight: int('arbitrary priority of node for scheduling'),
  tres: str('TRES on node'),
  slurmd_version: str('Slurmd version'),
  alloc_memory: int64('Allocated memory (MB)'),
  alloc_cpus: int64('Allocated CPUs'),
  idle_cpus: int64('Idle CPUs'),
});

// As cli/format/data-parser.ts writes a partition; limits -1 for unlimited, null when unset.
const partition = object({
  flags: strings('partition options'),
  default_time_limit: nullable(int64('default time limit (minutes)')),
  maximum_nodes_per_job: nullable(int('Max nodes per job')),
  max_time_limit: nullable(int64('Max time limit per job')),
  // Slurm 22.05's key really has spaces.
  'min nodes per job': int('Min number of nodes per job'),
  name: str('Partition name'),
  nodes: str('list names of nodes in partition'),
  state: str('Partition state'),
  total_cpus: int('Total cpus in partition'),
  total_nodes: int('Total number of nodes in partition'),
  tres: str('configured TRES in partition'),
});

const reservation = object({
  accounts: str('Allowed accounts'),
  core_count: int('Number of reserved cores'),
  end_time: int('End time of the reservation'),
  flags: strings('Reservation options'),
  name: str('Reservationn name'),
  node_count: int('Count of nodes reserved'),
  node_list: str('List of reserved nodes'),
  partition: str('Partition'),
  start_time: int('Start time of reservation'),
  tres: str('List of TRES'),
  users: str('List of users'),
});

const rpcByType = object({
  message_type: str('message type (tslurm\'s request name)'),
  count: int('rpc count'),
  average_time: int('average time'),
  total_time: int('total time'),
});

const rpcByUser = object({
  user: str('user'),
  user_id: int('user id'),
  count: int('rpc count'),
  average_time: int('average time'),
  total_time: int('total time'),
});

const statistics = object({
  req_time: int('generation time'),
  req_time_start: int('data since'),
  server_thread_count: int('Server thread count'),
  schedule_cycle_max: int('Main Schedule max cycle'),
  schedule_cycle_last: int('Main Schedule last cycle'),
  schedule_cycle_total: int('Main Schedule cycle iterations'),
  schedule_cycle_mean: int('Average time for Schedule Max cycle'),
  schedule_cycle_per_minute: int('Main Schedule Cycles per minute'),
  schedule_queue_length: int('Main Schedule Last queue length'),
  jobs_submitted: int('Job submitted'),
  jobs_started: int('Job started'),
  jobs_completed: int('Job completed'),
  jobs_canceled: int('Job cancelled'),
  jobs_failed: int('Job failed'),
  jobs_pending: int('Job pending'),
  jobs_running: int('Job running'),
  job_states_ts: int('Job states timestamp'),
  rpcs_by_message_type: list('Remote Procedure Call statistics by message type', 'v0.0.38_diag_rpcm'),
  rpcs_by_user: list('Remote Procedure Call statistics by user', 'v0.0.38_diag_rpcu'),
});

// Without script or job the handler answers as slurmrestd does (500 and 400), not the schema.
const jobSubmission = object(
  {
    script: str('Executable script (full contents) to run in batch step'),
    job: ref('v0.0.38_job_properties'),
  },
  [],
  { additionalProperties: false },
);

export const SIGNAL_NAMES = ['HUP', 'INT', 'QUIT', 'ABRT', 'KILL', 'ALRM', 'TERM', 'USR1', 'USR2', 'URG', 'CONT', 'STOP', 'TSTP', 'TTIN', 'TTOU'] as const;

export const COMPONENTS: Record<string, Schema> = {
  'v0.0.38_diag': response({ statistics }),
  'v0.0.38_diag_rpcm': rpcByType,
  'v0.0.38_diag_rpcu': rpcByUser,
  'v0.0.38_error': error,
  'v0.0.38_errors': { type: 'array', description: 'Slurm errors', items: ref('v0.0.38_error') },
  'v0.0.38_job_properties': JOB_PROPERTIES,
  'v0.0.38_job_response_properties': job,
  'v0.0.38_job_submission': jobSubmission,
  'v0.0.38_job_submission_response': response({
    job_id: int('new job ID'),
    step_id: str('new job step ID'),
    job_submit_user_msg: str('Message to user from job_submit plugin'),
  }),
  'v0.0.38_jobs_response': response({ jobs: list('job descriptions', 'v0.0.38_job_response_properties') }),
  'v0.0.38_meta': meta,
  // Not a name of slurmrestd's document, which gives DELETE /job/{job_id} no answer schema:
  // what it sends (observed) is meta and errors alone.
  'v0.0.38_meta_errors': response({}),
  'v0.0.38_node': node,
  'v0.0.38_nodes_response': response({ nodes: list('nodes info', 'v0.0.38_node') }),
  'v0.0.38_partition': partition,
  'v0.0.38_partitions_response': response({ partitions: list('partition info', 'v0.0.38_partition') }),
  'v0.0.38_ping': ping,
  'v0.0.38_pings': response({ pings: list('slurm controller pings', 'v0.0.38_ping') }),
  'v0.0.38_reservation': reservation,
  'v0.0.38_reservations_response': response({ reservations: list('reservation info', 'v0.0.38_reservation') }),
  'v0.0.38_signal': { type: 'string', description: 'POSIX signal name', enum: [...SIGNAL_NAMES] },
  ...SLURMDB_COMPONENTS,
};

