// Group names as getgrgid gives them, from /etc/group (Node has no group lookup of its own).
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
