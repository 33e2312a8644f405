// sacct's options → what to read from the store (a JobFilter) and how to print it. Time
// window defaults as sacct's: from midnight today until now, none with -j, and with -s a
// window of now unless -S says otherwise (so `-s CD` alone finds nothing, as in Slurm).
import { parseBeginTime, TimeSpecError } from '../../core/begin-time.js';
import { UserError } from '../../core/errors.js';
import { jobStateFromName } from '../../core/job-state.js';
import { expandHostlist } from '../../core/hostlist.js';
import { uidForName } from '../../os/users.js';
import type { JobFilter } from '../../acct/records.js';
import { BATCH_STEP_ID, EXTERN_STEP_ID } from '../../acct/records.js';
import { BRIEF_FORMAT, DEFAULT_FORMAT, LONG_FORMAT } from './fields.js';
import { parseFormat, type Column, type PrintStyle } from './print.js';
import { unitIndex, type SizeMode } from './values.js';

export interface TsacctOptions {
  allusers?: boolean;
  brief?: boolean;
  delimiter?: string;
  endtime?: string;
  jobs?: string;
  json?: boolean;
  long?: boolean;
  name?: string;
  noheader?: boolean;
  nodelist?: string;
  noconvert?: boolean;
  format?: string;
  parsable?: boolean;
  parsable2?: boolean;
  partition?: string;
  state?: string;
  starttime?: string;
  user?: string;
  units?: string;
  allocations?: boolean;
  yaml?: boolean;
  accounts?: string;
  cluster?: string;
}

export interface TsacctParams {
  filter: JobFilter;
  accounts: string[] | undefined;
  nodes: Set<string> | undefined;
  columns: Column[];
  style: PrintStyle;
  sizes: SizeMode;
  output: 'table' | 'json' | 'yaml';
}

export function tsacctParams(o: TsacctOptions, env: { now: Date; euid: number; formatEnv: string | undefined }): TsacctParams {
  const nowSec = Math.floor(env.now.getTime() / 1000);
  const filter: JobFilter = {};
  if (o.jobs !== undefined) filter.jobIds = parseJobIds(o.jobs);
  const states = o.state === undefined ? undefined : parseStates(o.state);
  if (states) filter.states = states;
  const start = o.starttime === undefined ? undefined : parseTime(o.starttime, env.now);
  const end = o.endtime === undefined ? undefined : parseTime(o.endtime, env.now);
  if (start !== undefined || end !== undefined) {
    filter.start = start ?? (states ? nowSec : filter.jobIds ? 0 : midnight(env.now));
    filter.end = end ?? nowSec;
  } else if (states) {
    filter.start = nowSec;
    filter.end = nowSec;
  } else if (!filter.jobIds) {
    filter.start = midnight(env.now);
    filter.end = nowSec;
  }
  if (o.user !== undefined) filter.uids = list(o.user).map(parseUser);
  // A user other than root sees only their own jobs unless -a or -u says otherwise.
  else if (!o.allusers && env.euid !== 0) filter.uids = [env.euid];
  if (o.name !== undefined) filter.names = list(o.name);
  if (o.partition !== undefined) filter.partitions = list(o.partition);
  if (o.allocations) filter.noSteps = true;
  const format = o.brief ? BRIEF_FORMAT : o.long ? LONG_FORMAT : (o.format ?? env.formatEnv ?? DEFAULT_FORMAT);
  const delimiter = o.parsable || o.parsable2 ? (o.delimiter ?? '|') : undefined;
  let sizes: SizeMode = { kind: 'exact' };
  if (o.noconvert) sizes = { kind: 'none' };
  if (o.units !== undefined) {
    const unit = unitIndex(o.units);
    if (unit === undefined || o.units.length !== 1) throw new UserError(`Invalid units specification: ${o.units}`);
    sizes = { kind: 'unit', unit };
  }
  return {
    filter,
    accounts: o.accounts === undefined ? undefined : list(o.accounts),
    nodes: o.nodelist === undefined ? undefined : new Set(expandHostlist(o.nodelist)),
    columns: parseFormat(format),
    style: { delimiter, ending: o.parsable === true && !o.parsable2, header: !o.noheader },
    sizes,
    output: o.json ? 'json' : o.yaml ? 'yaml' : 'table',
  };
}

function list(text: string): string[] {
  return text.split(',').map((s) => s.trim()).filter((s) => s !== '');
}

// parse_time()'s forms; sacct says the line itself and exits 1 (observed: /work/ref/sacct.txt).
function parseTime(text: string, now: Date): number {
  try {
    return parseBeginTime(text, now);
  } catch (error) {
    if (error instanceof TimeSpecError) throw new UserError(error.message, { bare: true, exitCode: 1 });
    throw error;
  }
}

function midnight(now: Date): number {
  const d = new Date(now);
  d.setHours(0, 0, 0, 0);
  return Math.floor(d.getTime() / 1000);
}

function parseStates(text: string): number[] {
  return list(text).map((name) => {
    const state = jobStateFromName(name);
    if (state === undefined) throw new UserError(`fatal: unrecognized job state value '${name}'`);
    return state;
  });
}

function parseUser(text: string): number {
  if (/^\d+$/.test(text)) return Number(text);
  const uid = uidForName(text);
  if (uid === undefined) throw new UserError(`Invalid user id: ${text}`);
  return uid;
}

/** `7`, `7_3`, `7.batch`, `7.extern`, `7.0` (sacct -j). */
export function parseJobIds(text: string): NonNullable<JobFilter['jobIds']> {
  return list(text).map((word) => {
    const match = /^(\d+)(?:_(\d+))?(?:\.(\d+|batch|extern))?$/.exec(word);
    if (!match) throw new UserError(`Invalid job id: ${word}`);
    const step = match[3];
    return {
      jobId: Number(match[1]),
      ...(match[2] !== undefined && { taskId: Number(match[2]) }),
      ...(step !== undefined && { stepId: step === 'batch' ? BATCH_STEP_ID : step === 'extern' ? EXTERN_STEP_ID : Number(step) }),
    };
  });
}
