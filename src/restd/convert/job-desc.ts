// POST /job/submit's `job` (v0.0.38_job_properties, already checked against its schema) as
// tslurm's job description, owned by the authenticated user: each field onto the one sbatch's
// option of the same meaning fills, with sbatch's parsers where the value is text (array,
// dependency, mail type). A value those parsers refuse is refused with their words.
import { hostname } from 'node:os';
import { parseArraySpec } from '../../core/array-spec.js';
import { parseDependency } from '../../core/dependency-spec.js';
import { INFINITE } from '../../core/slurm-constants.js';
import { checkJobExtras } from '../../cli/job-extras.js';
import { jobDescriptor } from '../../protocol/job-desc-defaults.js';
import type { JobDescriptor } from '../../protocol/job-desc.js';
import { homeOf } from '../../os/users.js';
import type { RestUser } from '../auth.js';

/** v0.0.38_job_properties as tsrestd takes it (openapi/job-properties.ts). */
export interface JobProperties {
  account?: string;
  argv?: string[];
  array?: string;
  begin_time?: number;
  comment?: string;
  constraints?: string;
  cpus_per_task?: number;
  current_working_directory?: string;
  dependency?: string;
  environment: Record<string, string>;
  exclusive?: 'user' | 'mcs' | 'true' | 'false';
  gres?: string;
  gpus?: string;
  gpus_per_node?: string;
  gpus_per_task?: string;
  hold?: boolean;
  kill_on_invalid_dependency?: boolean;
  mail_type?: string;
  mail_user?: string;
  memory_per_cpu?: number;
  memory_per_node?: number;
  minimum_cpus_per_node?: number;
  name?: string;
  nice?: number;
  nodes?: number[];
  open_mode?: 'append' | 'truncate';
  partition?: string;
  qos?: string;
  requeue?: boolean;
  reservation?: string;
  standard_error?: string;
  standard_input?: string;
  standard_output?: string;
  tasks?: number;
  tasks_per_node?: number;
  time_limit?: number;
  time_minimum?: number;
  wckey?: string;
}

export function jobDescFromProperties(script: string, job: JobProperties, user: RestUser): JobDescriptor {
  const workDir = job.current_working_directory ?? homeOf(user.name) ?? '/';
  const extras = checkJobExtras(
    {
      ...(job.account !== undefined && { account: job.account }),
      ...(job.qos !== undefined && { qos: job.qos }),
      ...(job.wckey !== undefined && { wckey: job.wckey }),
      ...(job.mail_user !== undefined && { mailUser: job.mail_user }),
      ...(job.mail_type !== undefined && { mailType: job.mail_type }),
      ...(job.nice !== undefined && { nice: String(job.nice) }),
    },
    'sbatch',
  );
  const exclusive = job.exclusive === 'true';
  return jobDescriptor({
    ...extras,
    ...(job.time_minimum !== undefined && { timeMin: job.time_minimum }),
    ...(job.minimum_cpus_per_node !== undefined && { minCpusPerNode: job.minimum_cpus_per_node }),
    ...(job.gpus_per_node !== undefined && { gpusPerNode: job.gpus_per_node }),
    ...(job.gpus_per_task !== undefined && { gpusPerTask: job.gpus_per_task }),
    script,
    argv: job.argv ?? [],
    // sbatch's name for a script it read from standard input.
    name: job.name ?? 'sbatch',
    partition: job.partition,
    ntasks: job.tasks,
    minNodes: job.nodes?.[0],
    maxNodes: job.nodes?.[1],
    cpusPerTask: job.cpus_per_task,
    ntasksPerNode: job.tasks_per_node,
    memPerNode: job.memory_per_node,
    memPerCpu: job.memory_per_cpu,
    constraint: job.constraints,
    gres: job.gres,
    gpus: job.gpus,
    exclusive,
    ...(job.exclusive === 'user' || job.exclusive === 'mcs' ? { exclusiveMode: job.exclusive } : {}),
    timeLimit: job.time_limit ?? INFINITE,
    output: job.standard_output,
    error: job.standard_error,
    input: job.standard_input,
    workDir,
    environment: Object.entries(job.environment).map(([key, value]) => `${key}=${value}`),
    array: job.array !== undefined && job.array !== '' ? parseArraySpec(job.array) : undefined,
    dependency: job.dependency !== undefined && job.dependency !== '' ? parseDependency(job.dependency) : undefined,
    hold: job.hold ?? false,
    beginTime: job.begin_time ?? 0,
    requeue: job.requeue,
    killOnInvalidDep: job.kill_on_invalid_dependency,
    openMode: job.open_mode,
    comment: job.comment,
    ...(job.reservation !== undefined && { reservation: job.reservation }),
    userId: user.uid,
    groupId: user.gid,
    userName: user.name,
    submitHost: hostname(),
    submitDir: workDir,
  });
}
