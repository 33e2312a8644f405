// job_container/tmpfs: every job gets a private directory as its /tmp, removed with everything
// in it when the job ends (Slurm's src/plugins/job_container/tmpfs/, job_container.conf).
//
// Two modes (option `mode`: auto, namespace, tmpdir):
// - namespace (auto picks it as root when unshare, nsenter and mount work): container_p_create
//   makes one private mount namespace per job on this node, with <base_path>/<job>/.<job> bound
//   over /tmp and a fresh tmpfs on /dev/shm, and keeps it alive without a process by binding it
//   to <base_path>/<job>/.ns (`unshare --mount=FILE`), as Slurm does; container_p_join wraps each
//   task's argv in `nsenter --mount=<.ns>` so every task and step of the job (the batch script
//   too, whichever process starts it) shares that one /tmp and /dev/shm, as under slurmstepd's
//   setns(). container_p_delete unmounts it. TMPDIR is /tmp unless the user set one.
// - tmpdir (any user): the same directory is exported as TMPDIR; /tmp itself is shared.
//
// Options (cluster YAML `options: { job_container_tmpfs: {...} }`, job_container.conf's names):
// base_path (BasePath; default /var/tmp/tslurm-job_container, -<uid> when not root: outside
// /tmp, so nothing of tslurm's shows in a job's /tmp), auto_base_path (AutoBasePath: create
// base_path if missing; default true only for the default base_path), dirs (Dirs, the
// namespace mode's mount points; default [/tmp, /dev/shm]), mode.
import { existsSync, statSync } from 'node:fs';
import { chown, mkdir, rm, stat } from 'node:fs/promises';
import { constants } from 'node:os';
import path from 'node:path';
import {
  SLURM_ERROR,
  SLURM_SUCCESS,
  SLURM_VERSION_NUMBER,
  type ContainerTask,
  type PluginHost,
  type Rc,
  run_command,
} from '../src/plugin-api/index.js';

export const plugin_name = 'job_container tmpfs plugin';
export const plugin_type = 'job_container/tmpfs';
export const plugin_version = SLURM_VERSION_NUMBER(0, 1, 0);

// Run by /bin/sh as root at container_p_create: $1 the job's directory, $2 its /tmp, $3 the
// namespace file, $4 the unshare binary, then the dirs. The job's directory is bound onto itself
// and made private (Slurm does the same) so the namespace's bind mount can live in it whatever
// the host's propagation; the inner shell runs inside the new namespace.
const CREATE_SCRIPT = [
  'j=$1; t=$2; ns=$3; unshare=$4; shift 4',
  'if ! grep -qF " $j " /proc/self/mountinfo; then',
  '  mount --bind "$j" "$j" && mount --make-private "$j" || exit 1',
  'fi',
  ': > "$ns" || exit 1',
  'exec "$unshare" --mount="$ns" --propagation private /bin/sh -c \'' +
    't=$1; shift; for m; do ' +
    'if [ "$m" = /tmp ]; then mount --bind "$t" /tmp || exit 1; ' +
    'elif [ -d "$m" ]; then mount -t tmpfs -o nosuid,nodev tmpfs "$m" || exit 1; fi; done\' sh "$t" "$@"',
].join('\n');

// Run by /bin/sh inside the job's namespace for each task: setns() left it at the namespace's
// root, so it goes to the task's directory ($1; /tmp when that is missing there) and execs it.
const ENTER_SCRIPT = 'cd -- "$1" 2>/dev/null || cd /tmp; shift; exec "$@"';

let host: PluginHost | undefined;
let basePath = defaultBasePath();
let autoBasePath = true;
let dirs = ['/tmp', '/dev/shm'];
let namespaces = false;
const tools: { unshare?: string; nsenter?: string } = {};

/** Outside /tmp, so that neither a job's private /tmp nor the shared one shows tslurm's files. */
function defaultBasePath(): string {
  const uid = process.getuid?.() ?? 0;
  return uid === 0 ? '/var/tmp/tslurm-job_container' : `/var/tmp/tslurm-job_container-${uid}`;
}

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
  namespaces = mode !== 'tmpdir' && (mode === 'namespace' || process.getuid?.() === 0) && (await namespacesWork());
  if (mode === 'namespace' && !namespaces) return bad('mode namespace needs root and working unshare --mount and nsenter');
  h.log.verbose(`${namespaces ? 'a private mount namespace per job' : 'TMPDIR'} under ${basePath}`);
  return SLURM_SUCCESS;
}

function bad(message: string): Rc {
  host?.log.error(message);
  host?.slurm_seterrno(constants.errno.EINVAL);
  return SLURM_ERROR;
}

// A task's PATH may not have them (--export=NONE), so the wrappers name them by full path.
function findTool(name: string): string | undefined {
  const dirs = (process.env.PATH ?? '').split(':').concat(['/usr/bin', '/bin', '/usr/sbin', '/sbin']);
  return dirs.map((d) => path.join(d, name)).find((f) => path.isAbsolute(f) && existsSync(f));
}

function namespacesWork(): Promise<boolean> {
  tools.unshare = findTool('unshare');
  tools.nsenter = findTool('nsenter');
  if (tools.unshare === undefined || tools.nsenter === undefined) return Promise.resolve(false);
  return run_command([tools.unshare, '--mount', '--propagation', 'private', 'true'], { timeoutMs: 5000 }).then(
    ({ end, timedOut }) => !timedOut && end.kind === 'exited' && end.code === 0,
  );
}

/** <base_path>/<job>/.<job>, Slurm's layout: the job's directory holds the one mounted on /tmp. */
function jobDir(job_id: number): string {
  return path.join(basePath, String(job_id));
}

function tmpDirOf(job_id: number): string {
  return path.join(jobDir(job_id), `.${job_id}`);
}

/** The job's mount namespace, bound to a file (Slurm's <BasePath>/<job>/.ns). */
function nsFileOf(job_id: number): string {
  return path.join(jobDir(job_id), '.ns');
}

/**
 * Whether this process already runs in the job's namespace (a tsrun inside the batch script
 * starts its step's tasks itself): there /tmp is the job's directory, and the namespace's own
 * file is not bound (it was bound outside, after the namespace was made).
 */
function insideNamespace(job_id: number): boolean {
  try {
    const here = statSync('/tmp');
    const mine = statSync(tmpDirOf(job_id));
    return here.ino === mine.ino && here.dev === mine.dev;
  } catch {
    return false;
  }
}

/** A namespace is bound there when the file is on another device (nsfs) than its directory. */
function namespaceExists(job_id: number): boolean {
  try {
    return statSync(nsFileOf(job_id)).dev !== statSync(jobDir(job_id)).dev;
  } catch {
    return false;
  }
}

async function sh(script: string, args: readonly string[]): Promise<void> {
  const { end, stderr, timedOut } = await run_command(['/bin/sh', '-c', script, 'job_container/tmpfs', ...args], { timeoutMs: 30_000 });
  if (!timedOut && end.kind === 'exited' && end.code === 0) return;
  const how = timedOut ? 'did not end within 30 s' : end.kind === 'exited' ? `exited with ${end.code}` : end.kind === 'signaled' ? `ended by ${end.signal}` : end.message;
  throw new Error(stderr.trim().split('\n').pop() || `/bin/sh ${how}`);
}

export async function container_p_create(job_id: number): Promise<Rc> {
  try {
    if (!autoBasePath && !(await stat(basePath)).isDirectory()) return bad(`BasePath ${basePath} is not a directory`);
    if (autoBasePath) await mkdir(basePath, { recursive: true, mode: 0o755 });
    // 0700 like Slurm's: other users' jobs cannot look into this job's /tmp.
    await mkdir(tmpDirOf(job_id), { recursive: true, mode: 0o700 });
    // Another process of this node (the batch step, the node daemon) may have made it already.
    if (namespaces && !insideNamespace(job_id) && !namespaceExists(job_id)) {
      await sh(CREATE_SCRIPT, [jobDir(job_id), tmpDirOf(job_id), nsFileOf(job_id), tools.unshare!, ...dirs]);
    }
    return SLURM_SUCCESS;
  } catch (error) {
    const err = error as NodeJS.ErrnoException;
    host?.log.error(`cannot create the container of job ${job_id} under ${basePath}: ${err.message}`);
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
  // slurmstepd's rule: a task without TMPDIR gets /tmp, its own is kept.
  task.env.append('TMPDIR', '/tmp');
  const cwd = task.cwd ?? '/';
  const missing = missingInside(job_id, cwd);
  if (missing !== undefined) task.cwdError = missing;
  if (insideNamespace(job_id)) {
    if (missing !== undefined) task.cwd = '/tmp';
    return SLURM_SUCCESS;
  }
  const inside = missing ? '/tmp' : cwd;
  // The host's helper enters the namespace and the directory itself and keeps the task's
  // environment in order; nsenter and a shell otherwise (the shell reorders the environment).
  task.argv = task.taskExec
    ? [task.taskExec, '--mount-ns', nsFileOf(job_id), '--chdir', inside, '--', ...task.argv]
    : [tools.nsenter!, `--mount=${nsFileOf(job_id)}`, '--', '/bin/sh', '-c', ENTER_SCRIPT, 'job_container/tmpfs', inside, ...task.argv];
  // The spawn itself happens outside the namespace, where that directory may not exist.
  if (task.cwd !== undefined) task.cwd = '/';
  return SLURM_SUCCESS;
}

/**
 * Why `cwd` is not a directory in the job's namespace (undefined: it is, or cannot be told
 * from outside). Under /tmp it is the job's directory that answers; a fresh tmpfs (/dev/shm)
 * holds nothing but what the job made, which the wrapper's fallback covers.
 */
function missingInside(job_id: number, cwd: string): string | undefined {
  if (cwd !== '/tmp' && !cwd.startsWith('/tmp/')) return undefined;
  if (!dirs.includes('/tmp')) return undefined;
  try {
    return statSync(path.join(tmpDirOf(job_id), cwd.slice('/tmp'.length))).isDirectory() ? undefined : 'Not a directory';
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EACCES' ? 'Permission denied' : 'No such file or directory';
  }
}

export function container_p_add_pid(_job_id: number, _pid: number, _uid: number): Rc {
  return SLURM_SUCCESS;
}

export async function container_p_delete(job_id: number): Promise<Rc> {
  try {
    // The namespace first (its processes, if any are left, keep it until they end), then the
    // job directory's own bind mount, then the files. Either may be gone already: the batch
    // step and the node daemon both end the job on a node.
    if (namespaces) await sh('umount "$1" 2>/dev/null; umount "$2" 2>/dev/null; exit 0', [nsFileOf(job_id), jobDir(job_id)]);
    await rm(jobDir(job_id), { recursive: true, force: true });
    return SLURM_SUCCESS;
  } catch (error) {
    host?.log.error(`cannot remove ${jobDir(job_id)}: ${(error as Error).message}`);
    host?.slurm_seterrno(constants.errno.EIO);
    return SLURM_ERROR;
  }
}

export function container_p_reconfig(): void {}
