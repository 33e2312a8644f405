// The session id of this process (getsid(0)), which Node does not expose: the sixth field of
// /proc/self/stat, after the command name in parentheses (which may itself hold spaces or
// parentheses, hence the last ')'). Slurm records it with a job as AllocSid
// (`AllocNode:Sid=host:sid` in scontrol show job). 0 where /proc cannot tell.
import { readFileSync } from 'node:fs';

export function sessionId(): number {
  try {
    const stat = readFileSync('/proc/self/stat', 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // After the name: state, ppid, pgrp, session.
    const sid = Number(fields[3]);
    return Number.isInteger(sid) && sid >= 0 ? sid : 0;
  } catch {
    return 0;
  }
}
