// job_container/cncu: Cray's compute-node clean-up (Slurm's src/plugins/job_container/cncu/)
// on any host. Each job's container collects the proctrack containers given by add_cont and
// the task pids given by add_pid; container_p_delete kills whatever of them is left (each task
// leads a process group, and ids below 2^32 are process groups, as Slurm's pgid ids are), then
// runs the clean-up command, as Cray's CNCU runs its clean-up after the job.
//
// Options (`options: { job_container_cncu: {...} }`): cleanup_command (run by /bin/sh with
// SLURM_JOB_ID and SLURM_CONTAINER_IDS in its environment; none by default), cleanup_timeout
// (seconds, default 60).
import { constants } from 'node:os';
import {
  SLURM_ERROR,
  SLURM_SUCCESS,
  SLURM_VERSION_NUMBER,
  type PluginHost,
  type Rc,
  run_command,
} from '../src/plugin-api/index.js';

export const plugin_name = 'job_container cncu plugin';
export const plugin_type = 'job_container/cncu';
export const plugin_version = SLURM_VERSION_NUMBER(0, 1, 0);

interface JobContainer {
  conts: Set<bigint>;
  pids: Set<number>;
}

const PGID_LIMIT = 1n << 32n;
let host: PluginHost | undefined;
let cleanupCommand: string | undefined;
let cleanupTimeoutMs = 60_000;
const jobs = new Map<number, JobContainer>();

export function init(h: PluginHost): Rc {
  host = h;
  const { cleanup_command: command, cleanup_timeout: timeout } = h.options;
  if (command !== undefined && typeof command !== 'string') return bad('cleanup_command must be a string');
  if (timeout !== undefined && (typeof timeout !== 'number' || !(timeout > 0))) return bad('cleanup_timeout must be a number of seconds');
  cleanupCommand = command;
  if (timeout !== undefined) cleanupTimeoutMs = timeout * 1000;
  return SLURM_SUCCESS;
}

export function fini(): void {
  jobs.clear();
}

function bad(message: string, errnum: number = constants.errno.EINVAL): Rc {
  host?.log.error(message);
  host?.slurm_seterrno(errnum);
  return SLURM_ERROR;
}

function jobOf(job_id: number): JobContainer | undefined {
  const job = jobs.get(job_id);
  if (!job) bad(`job ${job_id} has no container`, constants.errno.ENOENT);
  return job;
}

export function container_p_create(job_id: number): Rc {
  if (!jobs.has(job_id)) jobs.set(job_id, { conts: new Set(), pids: new Set() });
  return SLURM_SUCCESS;
}

export function container_p_add_cont(job_id: number, cont_id: bigint): Rc {
  const job = jobOf(job_id);
  if (!job) return SLURM_ERROR;
  job.conts.add(cont_id);
  return SLURM_SUCCESS;
}

export function container_p_add_pid(job_id: number, pid: number, _uid: number): Rc {
  const job = jobOf(job_id);
  if (!job) return SLURM_ERROR;
  job.pids.add(pid);
  return SLURM_SUCCESS;
}

export async function container_p_delete(job_id: number): Promise<Rc> {
  const job = jobOf(job_id);
  if (!job) return SLURM_ERROR;
  jobs.delete(job_id);
  const groups = [...job.pids, ...[...job.conts].filter((id) => id > 1n && id < PGID_LIMIT).map(Number)];
  for (const id of groups) kill(id);
  if (cleanupCommand === undefined) return SLURM_SUCCESS;
  const env = { ...process.env, SLURM_JOB_ID: String(job_id), SLURM_CONTAINER_IDS: [...job.conts].join(',') };
  const { end, stderr, timedOut } = await run_command(['/bin/sh', '-c', cleanupCommand], { env, timeoutMs: cleanupTimeoutMs });
  if (!timedOut && end.kind === 'exited' && end.code === 0) return SLURM_SUCCESS;
  const status = end.kind === 'exited' ? end.code : end.kind === 'signaled' ? end.signal : end.errno;
  const why = timedOut ? `did not end within ${cleanupTimeoutMs / 1000} s` : `exited with ${status}`;
  return bad(`clean-up command for job ${job_id} ${why}${stderr ? `: ${stderr.trim()}` : ''}`, constants.errno.EIO);
}

// The process group led by `id` and the process itself; what is gone already is no error.
function kill(id: number): void {
  for (const target of [-id, id]) {
    try {
      process.kill(target, constants.signals.SIGKILL);
    } catch {
      // gone
    }
  }
}

export function container_p_reconfig(): void {}
