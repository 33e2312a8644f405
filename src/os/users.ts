// User names and ids as getpwnam/getpwuid give them, from /etc/passwd (Node has no passwd
// lookup of its own). Numeric names are taken as uids, as Slurm's commands take them.
import { readFileSync, statSync } from 'node:fs';
import { userInfo } from 'node:os';

const PASSWD = '/etc/passwd';
/** How stale the table may get: a daemon (tsrestd, tsctld) sees a user added within this long. */
const RECHECK_MS = 1000;

let table: Map<string, number> | undefined;
/** The file's identity when it was read (inode, size, mtime), and when that was last compared. */
let readAs = '';
let checkedAt = 0;

/** name → id of a passwd-style file (name:x:id:...), first entry of a name winning; empty when unreadable. */
export function readIdFile(file: string): Map<string, number> {
  const ids = new Map<string, number>();
  try {
    for (const line of readFileSync(file, 'utf8').split('\n')) {
      const [name, , id] = line.split(':');
      if (name && id !== undefined && /^\d+$/.test(id) && !ids.has(name)) ids.set(name, Number(id));
    }
  } catch {
    // no such file: only numeric ids (and the current user) are known
  }
  return ids;
}

// Read once, then again when the file changed (useradd, userdel, vipw replace it or write it in
// place): a long-running process learns of a user added after it started, at the cost of one
// stat a second, however many names it looks up.
function passwd(): Map<string, number> {
  const now = Date.now();
  if (table && now - checkedAt < RECHECK_MS) return table;
  checkedAt = now;
  const seen = fileIdentity(PASSWD);
  if (!table || seen !== readAs) {
    table = readIdFile(PASSWD);
    readAs = seen;
  }
  return table;
}

function fileIdentity(file: string): string {
  try {
    const stat = statSync(file, { bigint: true });
    return `${stat.ino}:${stat.size}:${stat.mtimeNs}`;
  } catch {
    return 'none';
  }
}

/** The uid of a user name (or a numeric uid as text); undefined when unknown. */
export function uidForName(name: string): number | undefined {
  if (/^\d+$/.test(name)) return Number(name);
  const uid = passwd().get(name);
  if (uid !== undefined) return uid;
  const me = userInfo();
  return me.username === name ? me.uid : undefined;
}

/** The name of a uid, or the uid as text when it has none. */
export function nameForUid(uid: number): string {
  for (const [name, id] of passwd()) if (id === uid) return name;
  const me = userInfo();
  return me.uid === uid ? me.username : String(uid);
}

/** The primary gid /etc/passwd gives a user name; undefined when it has no entry. */
export function primaryGidOf(name: string): number | undefined {
  try {
    for (const line of readFileSync(PASSWD, 'utf8').split('\n')) {
      const [user, , , gid] = line.split(':');
      if (user === name && gid !== undefined && /^\d+$/.test(gid)) return Number(gid);
    }
  } catch {
    // no passwd file
  }
  return undefined;
}

/** The home directory /etc/passwd gives a user name; undefined when it has no entry. */
export function homeOf(name: string): string | undefined {
  try {
    for (const line of readFileSync(PASSWD, 'utf8').split('\n')) {
      const fields = line.split(':');
      if (fields[0] === name && fields[5]) return fields[5];
    }
  } catch {
    // no passwd file: unknown
  }
  return userInfo().username === name ? userInfo().homedir : undefined;
}
