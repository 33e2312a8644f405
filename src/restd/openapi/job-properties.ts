// v0.0.38_job_properties as tsrestd takes it in POST /job/submit: the fields of slurmrestd
// 22.05's job description that tslurm acts on, with its names and meanings (minutes for time
// limits, MB for memory, `nodes` as [minimum, maximum]). A field of Slurm's description that
// tslurm would not act on is refused with the field's name (additionalProperties: false)
// instead of being dropped unseen; convert/job-desc.ts maps each field onto tslurm's own.
import { bool, int, int64, object, str, type Schema } from './schema-kit.js';

const strEnum = (description: string, values: readonly string[]): Schema => ({ type: 'string', description, enum: [...values] });

export const JOB_PROPERTIES: Schema = object(
  {
    account: str('Charge resources used by this job to specified account.'),
    argv: { type: 'array', description: 'Arguments to the script.', items: { type: 'string' } },
    array: str('Submit a job array, multiple jobs to be executed with identical parameters.'),
    begin_time: int64('Defer the allocation of the job until the specified time (Unix seconds).'),
    comment: str('An arbitrary comment.'),
    constraints: str('node features required by job.'),
    cpus_per_task: int('Number of CPUs each task needs.'),
    current_working_directory: str('Working directory of the batch script (default: the user\'s home directory).'),
    dependency: str('Defer the start of this job until the specified dependencies have been satisfied.'),
    environment: {
      type: 'object',
      description: 'Dictionary of environment entries.',
      additionalProperties: { type: 'string' },
    },
    exclusive: strEnum('Share nodes with no other job ("true"), or only with the same user\'s ("user") or MCS label\'s ("mcs").', [
      'user',
      'mcs',
      'true',
      'false',
    ]),
    gres: str('Specifies a comma delimited list of generic consumable resources.'),
    gpus: str('GPUs per job.'),
    gpus_per_node: str('GPUs per node.'),
    gpus_per_task: str('GPUs per task.'),
    hold: bool('Specify the job is to be submitted in a held state (priority of zero).'),
    kill_on_invalid_dependency: bool('If a job has an invalid dependency, then Slurm is to terminate it.'),
    mail_type: str('Notify user by email when certain event types occur.'),
    mail_user: str('User to receive email notification of state changes as defined by mail_type.'),
    memory_per_cpu: int('Minimum real memory per cpu (MB).'),
    memory_per_node: int('Minimum real memory per node (MB).'),
    minimum_cpus_per_node: int('Minimum number of CPUs per node.'),
    name: str('Specify a name for the job allocation.'),
    nice: int('Run the job with an adjusted scheduling priority within Slurm.'),
    nodes: {
      type: 'array',
      description: 'Request that a minimum of minnodes nodes and a maximum node count: [min] or [min, max].',
      items: { type: 'integer', minimum: 0 },
      minItems: 1,
      maxItems: 2,
    },
    open_mode: strEnum('Open the output and error files using append or truncate mode as specified.', ['append', 'truncate']),
    partition: str('Request a specific partition for the resource allocation.'),
    qos: str('Request a quality of service for the job.'),
    requeue: bool('Specifies that the batch job should eligible to being requeue.'),
    reservation: str('Allocate resources for the job from the named reservation.'),
    standard_error: str("Instruct Slurm to connect the batch script's standard error directly to the file name."),
    standard_input: str("Instruct Slurm to connect the batch script's standard input directly to the file name."),
    standard_output: str("Instruct Slurm to connect the batch script's standard output directly to the file name."),
    tasks: int('Advises the Slurm controller that job steps run within the allocation will launch a maximum of number tasks.'),
    tasks_per_node: int('Request the maximum ntasks be invoked on each node.'),
    time_limit: int('Step time limit in minutes.'),
    time_minimum: int('Minimum run time in minutes.'),
    wckey: str('Specify wckey to be used with job.'),
  },
  ['environment'],
  { additionalProperties: false },
);
