// The jobs a request names, as Slurm's commands name them: `12`, `12_3` (an array task), `12`
// for every task of array 12.
import { UserError } from '../core/errors.js';
import type { Controller } from './controller.js';
import type { CtldJob } from './job.js';

/** The jobs an id names; an unknown id is Slurm's "Invalid job id specified". */
export function findJobs(ctl: Controller, text: string): CtldJob[] {
  const match = /^(\d+)(?:_(\d+))?$/.exec(String(text).trim());
  if (!match) throw UserError.fromErrno('ESLURM_INVALID_JOB_ID');
  const id = Number(match[1]);
  let jobs = [...ctl.byId(id)];
  if (match[2] !== undefined) jobs = jobs.filter((job) => job.arrayJobId === id && job.arrayTaskId === Number(match[2]));
  if (jobs.length === 0) throw UserError.fromErrno('ESLURM_INVALID_JOB_ID');
  return jobs;
}
