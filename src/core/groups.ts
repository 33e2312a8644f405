// Group names as getgrgid gives them, from /etc/group (Node has no group lookup of its own).
import { readFileSync } from 'node:fs';

let table: Map<number, string> | undefined;

function groups(): Map<number, string> {
  if (table) return table;
  table = new Map();
  try {
    for (const line of readFileSync('/etc/group', 'utf8').split('\n')) {
      const [name, , gid] = line.split(':');
      if (name && gid !== undefined && /^\d+$/.test(gid) && !table.has(Number(gid))) table.set(Number(gid), name);
    }
  } catch {
    // no group file: every group shows as its number
  }
  return table;
}

/** The name of a gid, or undefined when the system has none for it. */
export function groupNameForGid(gid: number): string | undefined {
  return groups().get(gid);
}
