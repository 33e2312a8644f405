// Running a job's processes as the user who submitted it (DESIGN.md §8): a step daemon running
// as root starts tasks and batch scripts with the user's uid, primary gid and supplementary
// groups, as slurmstepd does after its fork. Node's spawn({ uid, gid }) cannot do it: libuv
// calls setgroups(0) and the task would lose its supplementary groups. So the task's argv is
// wrapped in util-linux's setpriv, which sets all three and then execs the task; it is small,
// always there on Linux hosts with util-linux, and leaves the task's pid, environment and
// file descriptors untouched.
import { runToEnd } from '../os/spawn.js';
import { accessSync, constants as fsConstants, statSync } from 'node:fs';
import { constants } from 'node:os';
import path from 'node:path';
import { UserError } from '../core/errors.js';
import { slurm_strerror } from '../core/errno.js';
import { supplementaryGids } from '../os/groups.js';
import { nameForUid } from '../os/users.js';
import type { RunAs } from '../protocol/stepd-messages.js';

/** Who a job's processes run as (plain data: it travels inside launch and batch specs). */
export type { RunAs };

const SETPRIV_PLACES = ['/usr/bin/setpriv', '/bin/setpriv', '/usr/sbin/setpriv', '/sbin/setpriv'];
let setprivPath: string | undefined;

/**
 * The identity to switch to for a job of `user`, or undefined when nothing switches: the
 * daemon is not root (it can only run things as itself), or root submitted the job.
 */
export function runAsFor(user: { uid: number; gid: number } | undefined): RunAs | undefined {
  if (!user || process.getuid?.() !== 0 || user.uid === 0) return undefined;
  const name = nameForUid(user.uid);
  // A uid without a passwd entry keeps only its primary group (nothing to look up by name).
  const groups = name === String(user.uid) ? [user.gid] : supplementaryGids(name, user.gid);
  return { uid: user.uid, gid: user.gid, groups, name };
}

function setpriv(): string {
  if (setprivPath) return setprivPath;
  for (const place of SETPRIV_PLACES) {
    try {
      accessSync(place, fsConstants.X_OK);
      setprivPath = place;
      return place;
    } catch {
      // not here
    }
  }
  throw new UserError('cannot run tasks as the submitting user: setpriv (util-linux) is not installed on this node');
}

/** `argv` to be executed as `who`: setpriv sets the groups, gid and uid, then execs it. */
export function argvAsUser(who: RunAs, argv: readonly string[]): string[] {
  return [setpriv(), '--reuid', String(who.uid), '--regid', String(who.gid), '--groups', who.groups.join(','), '--', ...argv];
}

/**
 * Whether `who` (undefined: this daemon itself) can enter `dir`, tried for real as that user
 * (permissions, ACLs and every directory above it): the text of the failure, or undefined
 * when it can.
 */
export function cannotEnter(who: RunAs | undefined, dir: string): Promise<string | undefined> {
  if (!who) return Promise.resolve(cannotEnterAsSelf(dir));
  const argv = argvAsUser(who, ['/bin/sh', '-c', 'cd -- "$1"', 'sh', dir]);
  return runToEnd(argv, { cwd: '/' }).then(({ end }) => {
    if (end.kind === 'exited' && end.code === 0) return undefined;
    let exists = true;
    try {
      exists = statSync(dir).isDirectory();
    } catch {
      exists = false;
    }
    return exists ? 'Permission denied' : 'No such file or directory';
  });
}

// chdir()'s errno text for this process: ENOENT, ENOTDIR or EACCES, as strerror words them.
function cannotEnterAsSelf(dir: string): string | undefined {
  try {
    if (!statSync(dir).isDirectory()) return slurm_strerror(constants.errno.ENOTDIR);
    accessSync(dir, fsConstants.X_OK);
    return undefined;
  } catch (error) {
    const errno = (error as NodeJS.ErrnoException).errno;
    return slurm_strerror(typeof errno === 'number' ? Math.abs(errno) : constants.errno.EACCES);
  }
}

/**
 * What execve would say when `who` (absent: this process) runs `file` from `cwd` with this
 * PATH: an errno code (ENOENT, EACCES), or undefined when it would start. Checked before a
 * wrapper (setpriv, proctrack's join) runs so that a missing or forbidden program still gets
 * slurmstepd's own `execve(): ...` report rather than the wrapper's message.
 */
export function execProblem(who: RunAs | undefined, file: string, cwd: string, pathVar: string | undefined): string | undefined {
  // Every task of a node's share asks the same, twice, in one turn of the event loop: the
  // PATH walk is answered once per turn (a tenth of the step host's CPU in tsrun -n256).
  const key = `${who ? `${who.uid}:${who.gid}:${who.groups.join(',')}` : ''}\0${file}\0${cwd}\0${pathVar ?? ''}`;
  if (answered.has(key)) return answered.get(key);
  if (answered.size === 0) setImmediate(() => answered.clear());
  const problem = findExecProblem(who, file, cwd, pathVar);
  answered.set(key, problem);
  return problem;
}

const answered = new Map<string, string | undefined>();

function findExecProblem(who: RunAs | undefined, file: string, cwd: string, pathVar: string | undefined): string | undefined {
  const candidates = file.includes('/')
    ? [path.resolve(cwd, file)]
    : (pathVar ?? '/usr/bin:/bin').split(':').map((dir) => path.resolve(cwd, dir || '.', file));
  let problem = 'ENOENT';
  for (const candidate of candidates) {
    let stats;
    try {
      // No exception for a missing file: most PATH entries miss, for every task of a step.
      stats = statSync(candidate, { throwIfNoEntry: false });
    } catch {
      continue;
    }
    if (stats === undefined) continue;
    if (stats.isFile() && (who ? mayExecute(who, stats) : mayExecuteSelf(candidate))) return undefined;
    problem = 'EACCES';
  }
  return problem;
}

function mayExecuteSelf(file: string): boolean {
  try {
    accessSync(file, fsConstants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function mayExecute(who: RunAs, stats: { mode: number; uid: number; gid: number }): boolean {
  if (stats.uid === who.uid) return (stats.mode & 0o100) !== 0;
  if (who.groups.includes(stats.gid)) return (stats.mode & 0o010) !== 0;
  return (stats.mode & 0o001) !== 0;
}
