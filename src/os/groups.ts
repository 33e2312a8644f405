// Group names and memberships as getgrgid and getgrouplist give them, from /etc/group (Node has
// no group lookup of its own).
import { readFileSync } from 'node:fs';
import { readIdFile } from './users.js';

let table: Map<number, string> | undefined;

// gid → the first name the file gives it.
function groups(): Map<number, string> {
  if (table) return table;
  table = new Map();
  for (const [name, gid] of readIdFile('/etc/group')) if (!table.has(gid)) table.set(gid, name);
  return table;
}

/** The name of a gid, or undefined when the system has none for it. */
export function groupNameForGid(gid: number): string | undefined {
  return groups().get(gid);
}

/** The gid of a group name; undefined when the system has none by that name. */
export function gidForName(name: string): number | undefined {
  for (const [gid, group] of groups()) if (group === name) return gid;
  return undefined;
}

/** getgrouplist(): `primaryGid` and every group of /etc/group that lists `userName` as a member. */
export function supplementaryGids(userName: string, primaryGid: number): number[] {
  const gids = [primaryGid];
  let text = '';
  try {
    text = readFileSync('/etc/group', 'utf8');
  } catch {
    return gids; // no group file: only the primary group is known
  }
  for (const line of text.split('\n')) {
    const [, , id, members] = line.split(':');
    if (id === undefined || !/^\d+$/.test(id) || !members) continue;
    const gid = Number(id);
    if (!gids.includes(gid) && members.split(',').includes(userName)) gids.push(gid);
  }
  return gids;
}
