// User names and ids as getpwnam/getpwuid give them, from /etc/passwd (Node has no passwd
// lookup of its own). Numeric names are taken as uids, as Slurm's commands take them.
import { readFileSync } from 'node:fs';
import { userInfo } from 'node:os';

let table: Map<string, number> | undefined;

function passwd(): Map<string, number> {
  if (table) return table;
  table = new Map();
  try {
    for (const line of readFileSync('/etc/passwd', 'utf8').split('\n')) {
      const [name, , uid] = line.split(':');
      if (name && uid !== undefined && /^\d+$/.test(uid)) table.set(name, Number(uid));
    }
  } catch {
    // no passwd file: only the current user and numeric ids are known
  }
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
