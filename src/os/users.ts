// User names and ids as getpwnam/getpwuid give them, from /etc/passwd (Node has no passwd
// lookup of its own). Numeric names are taken as uids, as Slurm's commands take them.
import { readFileSync } from 'node:fs';
import { userInfo } from 'node:os';

let table: Map<string, number> | undefined;

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

function passwd(): Map<string, number> {
  table ??= readIdFile('/etc/passwd');
  return table;
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
    for (const line of readFileSync('/etc/passwd', 'utf8').split('\n')) {
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
    for (const line of readFileSync('/etc/passwd', 'utf8').split('\n')) {
      const fields = line.split(':');
      if (fields[0] === name && fields[5]) return fields[5];
    }
  } catch {
    // no passwd file: unknown
  }
  return userInfo().username === name ? userInfo().homedir : undefined;
}
