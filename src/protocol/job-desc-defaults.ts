// What a job description holds for what its submission did not ask for (sbatch's and srun's
// job_desc_msg_t as slurm_init_job_desc_msg leaves it, in tslurm's terms): no script, no
// time limit of its own (the partition's applies), not held, no begin time, nodes shared.
// Every way a description is made (tsbatch, tsrun and tsalloc, the simulator) starts here.
import { INFINITE } from '../core/slurm-constants.js';
import type { JobDescriptor } from './job-desc.js';

/** The fields that have a default: every other required field must be given. */
type Defaulted = 'script' | 'argv' | 'exclusive' | 'overcommit' | 'contiguous' | 'timeLimit' | 'environment' | 'hold' | 'beginTime';

export type JobDescFields = Omit<JobDescriptor, Defaulted> & Partial<Pick<JobDescriptor, Defaulted>>;

/** A job description: `fields` over the defaults; a defaulted field given as undefined keeps its default. */
export function jobDescriptor(fields: JobDescFields): JobDescriptor {
  const desc: Record<string, unknown> = {
    script: '',
    argv: [],
    exclusive: false,
    overcommit: false,
    contiguous: false,
    timeLimit: INFINITE,
    environment: [],
    hold: false,
    beginTime: 0,
  } satisfies Pick<JobDescriptor, Defaulted>;
  for (const [key, value] of Object.entries(fields)) if (value !== undefined || !(key in desc)) desc[key] = value;
  return desc as JobDescriptor;
}
