// job_container/tmpfs: every job gets a private directory as its /tmp, removed with everything
// in it when the job ends (Slurm's src/plugins/job_container/tmpfs/, job_container.conf).
//
// Two modes (option `mode`: auto, namespace, tmpdir):
// - namespace (auto picks it as root when `unshare --mount --propagation private true` works):
//   container_p_join wraps each task's argv so it starts in a private mount namespace with
//   <base_path>/<job>/.<job> bound over /tmp (and a fresh tmpfs on /dev/shm), then `exec`s the
//   task (same pid). Slurm keeps one namespace per job and setns()es each task into it; here
//   each task gets its own namespace over the same directory, so the job's tasks still share
//   /tmp. A program that cannot be executed is reported by sh (exit 127).
// - tmpdir (any user): the same directory is exported as TMPDIR; /tmp itself is shared.
//
// Options (cluster YAML `options: { job_container_tmpfs: {...} }`, job_container.conf's names):
// base_path (BasePath; default <os tmpdir>/tslurm-job_container), auto_base_path (AutoBasePath:
// create base_path if missing; default true only for the default base_path), dirs (Dirs, the
// namespace mode's mount points; default [/tmp, /dev/shm]), mode.
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chown, mkdir, rm, stat } from 'node:fs/promises';
import { constants, tmpdir } from 'node:os';
import path from 'node:path';
import {
  SLURM_ERROR,
  SLURM_SUCCESS,
  SLURM_VERSION_NUMBER,
  type ContainerTask,
  type PluginHost,
  type Rc,
} from '../src/plugin-api/index.js';

export const plugin_name = 'job_container tmpfs plugin';
export const plugin_type = 'job_container/tmpfs';
export const plugin_version = SLURM_VERSION_NUMBER(0, 1, 0);

// Run by /bin/sh inside the new namespace: $1 the job's directory, $2 the dirs, then the task.
const MOUNT_SCRIPT = [
  'd=$1; dirs=$2; shift 2',
  'for m in $dirs; do',
  '  if [ "$m" = /tmp ]; then mount --bind "$d" /tmp || exit 1',
  '  elif [ -d "$m" ]; then mount -t tmpfs -o nosuid,nodev tmpfs "$m" || exit 1; fi',
  'done',
  'exec "$@"',
].join('\n');

let host: PluginHost | undefined;
let basePath = path.join(tmpdir(), 'tslurm-job_container');
let autoBasePath = true;
let dirs = ['/tmp', '/dev/shm'];
let namespaces = false;
let unshare: string | undefined;

export async function init(h: PluginHost): Promise<Rc> {
  host = h;
  const o = h.options;
  if (o['base_path'] !== undefined) {
    if (typeof o['base_path'] !== 'string' || !path.isAbsolute(o['base_path'])) return bad('base_path must be an absolute path');
    basePath = o['base_path'];
    autoBasePath = false;
  }
  if (o['auto_base_path'] !== undefined) {
    if (typeof o['auto_base_path'] !== 'boolean') return bad('auto_base_path must be true or false');
    autoBasePath = o['auto_base_path'];
  }
  if (o['dirs'] !== undefined) {
    const list = o['dirs'];
    if (!Array.isArray(list) || !list.every((d) => typeof d === 'string' && path.isAbsolute(d) && !/\s/.test(d))) {
      return bad('dirs must be a list of absolute paths');
    }
    dirs = list as string[];
  }
  const mode = o['mode'] ?? 'auto';
  if (mode !== 'auto' && mode !== 'namespace' && mode !== 'tmpdir') return bad('mode must be auto, namespace or tmpdir');
  namespaces = mode !== 'tmpdir' && (mode === 'namespace' || process.getuid?.() === 0) && (await unshareWorks());
  if (mode === 'namespace' && !namespaces) return bad('mode namespace needs root and a working unshare --mount');
  h.log.verbose(`${namespaces ? 'private mount namespaces' : 'TMPDIR'} under ${basePath}`);
  return SLURM_SUCCESS;
}

function bad(message: string): Rc {
  host?.log.error(message);
  host?.slurm_seterrno(constants.errno.EINVAL);
  return SLURM_ERROR;
}

// The task's PATH may not have it (--export=NONE), so the wrapper names unshare by its full path.
function findUnshare(): string | undefined {
  const dirs = (process.env.PATH ?? '').split(':').concat(['/usr/bin', '/bin', '/usr/sbin', '/sbin']);
  return dirs.map((d) => path.join(d, 'unshare')).find((f) => path.isAbsolute(f) && existsSync(f));
}

function unshareWorks(): Promise<boolean> {
  unshare = findUnshare();
  if (unshare === undefined) return Promise.resolve(false);
  return new Promise((resolve) => {
    execFile(unshare!, ['--mount', '--propagation', 'private', 'true'], { timeout: 5000 }, (error) => resolve(!error));
  });
}

/** <base_path>/<job>/.<job>, Slurm's layout: the job's directory holds the one mounted on /tmp. */
function jobDir(job_id: number): string {
  return path.join(basePath, String(job_id));
}

function tmpDirOf(job_id: number): string {
  return path.join(jobDir(job_id), `.${job_id}`);
}

export async function container_p_create(job_id: number): Promise<Rc> {
  try {
    if (!autoBasePath && !(await stat(basePath)).isDirectory()) return bad(`BasePath ${basePath} is not a directory`);
    if (autoBasePath) await mkdir(basePath, { recursive: true, mode: 0o755 });
    // 0700 like Slurm's: other users' jobs cannot look into this job's /tmp.
    await mkdir(tmpDirOf(job_id), { recursive: true, mode: 0o700 });
    return SLURM_SUCCESS;
  } catch (error) {
    const err = error as NodeJS.ErrnoException;
    host?.log.error(`cannot create the directory of job ${job_id} under ${basePath}: ${err.message}`);
    host?.slurm_seterrno(constants.errno[err.code as keyof typeof constants.errno] ?? constants.errno.EIO);
    return SLURM_ERROR;
  }
}

export function container_p_add_cont(_job_id: number, _cont_id: bigint): Rc {
  return SLURM_SUCCESS;
}

export async function container_p_join(job_id: number, uid: number, task: ContainerTask): Promise<Rc> {
  const dir = tmpDirOf(job_id);
  // The job's /tmp belongs to the job's user, as Slurm's does: a root daemon made it (the
  // directory above it too, which TMPDIR goes through).
  if (process.getuid?.() === 0 && uid !== 0) {
    try {
      await chown(jobDir(job_id), uid, -1);
      await chown(dir, uid, -1);
    } catch (error) {
      host?.log.error(`cannot give the directory of job ${job_id} to uid ${uid}: ${(error as Error).message}`);
      host?.slurm_seterrno(constants.errno.EPERM);
      return SLURM_ERROR;
    }
  }
  if (!namespaces) {
    task.env.set('TMPDIR', dir);
    return SLURM_SUCCESS;
  }
  task.argv = [unshare!, '--mount', '--propagation', 'private', '--', '/bin/sh', '-c', MOUNT_SCRIPT, 'job_container/tmpfs', dir, dirs.join(' '), ...task.argv];
  return SLURM_SUCCESS;
}

export function container_p_add_pid(_job_id: number, _pid: number, _uid: number): Rc {
  return SLURM_SUCCESS;
}

export async function container_p_delete(job_id: number): Promise<Rc> {
  try {
    await rm(jobDir(job_id), { recursive: true, force: true });
    return SLURM_SUCCESS;
  } catch (error) {
    host?.log.error(`cannot remove ${jobDir(job_id)}: ${(error as Error).message}`);
    host?.slurm_seterrno(constants.errno.EIO);
    return SLURM_ERROR;
  }
}

export function container_p_reconfig(): void {}
