// What the controller trusts on disk (DESIGN.md §8): its state directory, and the files it
// reads state or keys from, only when they belong to the user it runs as and nobody else may
// write them. Anyone who can write the journal can submit jobs as anyone; root's controller
// on a directory another user made would run that user's jobs as root. The refusal names
// the path, what was found and the command that fixes it, as OpenSSH does for its keys.
import { lstatSync, readFileSync, statSync, type Stats } from 'node:fs';
import { userInfo } from 'node:os';
import { UserError } from '../core/errors.js';

/** Refuses `dir` (when it exists) unless it is a directory of this user that only it may write. */
export function checkTrustedDir(dir: string, what = 'state directory'): void {
  // A symbolic link is followed: what counts is who may write the directory it leads to.
  const info = statOrUndefined(dir, statSync);
  if (info === undefined) return;
  if (!info.isDirectory()) throw new UserError(`${what} ${dir} is not a directory`);
  refuseUntrusted(dir, info, what, '700');
}

/** Refuses `file` (when it exists) unless it is a regular file of this user that only it may write. */
export function checkTrustedFile(file: string, what: string): void {
  const info = statOrUndefined(file);
  if (info === undefined) return;
  if (!info.isFile()) throw new UserError(`${what} ${file} is not a regular file`);
  refuseUntrusted(file, info, what, '600');
}

// The problem with `info` as something this user may trust, or undefined when there is none.
function untrustedReason(info: Pick<Stats, 'uid' | 'mode'>): string | undefined {
  const me = process.geteuid?.();
  if (me === undefined) return undefined;
  const problems: string[] = [];
  if (info.uid !== me) problems.push(`owned by ${userName(info.uid)}`);
  const writers = [(info.mode & 0o020) !== 0 ? 'group' : '', (info.mode & 0o002) !== 0 ? 'others' : ''].filter(Boolean);
  if (writers.length > 0) problems.push(`writable by ${writers.join(' and ')}`);
  return problems.length === 0 ? undefined : problems.join(', ');
}

function refuseUntrusted(file: string, info: Stats, what: string, mode: string): void {
  const reason = untrustedReason(info);
  if (reason === undefined) return;
  const me = process.geteuid!();
  const fixes: string[] = [];
  if (info.uid !== me) fixes.push(`chown ${loginName(me) ?? me} ${file}`);
  fixes.push(`chmod ${mode} ${file}`);
  const found = `mode ${(info.mode & 0o7777).toString(8).padStart(4, '0')}, ${reason}`;
  throw new UserError(
    `bad ownership or modes for ${what} ${file} (${found}): it must belong to ${loginName(me) ?? `uid ${me}`} and be writable by no one else; check its contents, then: ${fixes.join('; ')}`,
  );
}

function statOrUndefined(file: string, stat: (file: string) => Stats = lstatSync): Stats | undefined {
  try {
    return stat(file);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
    throw new UserError(`cannot check ${file}: ${code ?? (error as Error).message}`);
  }
}

// `name (uid N)`, or `uid N` when this host has no name for it.
function userName(uid: number): string {
  const name = loginName(uid);
  return name === undefined ? `uid ${uid}` : `${name} (uid ${uid})`;
}

// The login name of `uid`. Node has no getpwuid() for other uids; /etc/passwd is what it reads without NSS modules.
function loginName(uid: number): string | undefined {
  if (uid === process.geteuid?.()) {
    try {
      return userInfo().username;
    } catch {
      // no passwd entry for this user
    }
  }
  try {
    for (const line of readFileSync('/etc/passwd', 'utf8').split('\n')) {
      const [name, , id] = line.split(':');
      if (id === String(uid) && name) return name;
    }
  } catch {
    // no passwd file
  }
  return undefined;
}
