// A task's start in one fork and one exec: the leading wrappers of its argv that would each
// exec once before the program (the task exec helper's layers, which proctrack/cgroup,
// job_container/tmpfs and the step host put there, and setpriv's switch to the user) are
// taken apart into what the spawn server's child does itself before its one execve (see
// native/spawn-server). The layers are applied in their order of exec: everything before
// setpriv as root (cgroups, mount namespace, directory), the umask and limits after it as the
// user. A layer this cannot take whole stays in argv and runs as it is, with what follows it.
import path from 'node:path';
import type { ServedForm } from '../os/spawn-server.js';
import type { TaskSetup } from '../os/spawn-server-frames.js';

/** The served form of `argv`, or undefined when nothing leading it can be folded. */
export interface FoldedTask extends Omit<ServedForm, 'stdio'> {
  /** The descriptor the helper would have reported the program's rusage on (--rusage-fd). */
  rusageFd: number | undefined;
}

interface Folding {
  setup: TaskSetup & { procs: string[]; rlimits: string[] };
  cwd?: string;
  umask?: number;
  ids?: { uid: number; gid: number; groups: number[] };
  rusageFd?: number;
}

export function foldTaskExec(argv: readonly string[], helper: string): FoldedTask | undefined {
  const folding: Folding = { setup: { procs: [], mountNs: undefined, chdirFallback: false, rlimits: [], taskPid: false } };
  let rest = argv;
  for (;;) {
    const next = rest[0] === helper ? helperLayer(rest, folding) : setprivLayer(rest, folding);
    if (next === undefined) break;
    rest = rest.slice(next);
  }
  if (rest === argv || rest.length === 0) return undefined;
  const { setup, cwd, umask, ids, rusageFd } = folding;
  return { argv: rest, setup, cwd, umask, ids, rusageFd };
}

/**
 * One `tstask_exec [options] --` layer, added to `folding` when every option can be: how many
 * words it took, or undefined (nothing added).
 */
function helperLayer(argv: readonly string[], folding: Folding): number | undefined {
  const end = argv.indexOf('--');
  if (end < 0 || (end - 1) % 2 !== 0) return undefined;
  const layer: Folding = { ...folding, setup: { ...folding.setup, procs: [...folding.setup.procs], rlimits: [...folding.setup.rlimits] } };
  const asUser = folding.ids !== undefined;
  for (let i = 1; i < end; i += 2) {
    const [name, value] = [argv[i]!, argv[i + 1]!];
    // Root's steps must come before setpriv, and a cgroup before the namespace, as they ran.
    if (name === '--procs' && !asUser && layer.setup.mountNs === undefined) layer.setup.procs.push(value);
    else if (name === '--mount-ns' && !asUser && layer.setup.mountNs === undefined) layer.setup.mountNs = value;
    else if (name === '--chdir' && !asUser) {
      layer.cwd = value;
      layer.setup.chdirFallback = true;
    } else if (name === '--umask' && /^[0-7]+$/.test(value)) layer.umask = Number.parseInt(value, 8);
    else if (name === '--rlimit') layer.setup.rlimits.push(value);
    else if (name === '--rusage-fd' && layer.rusageFd === undefined && /^\d+$/.test(value)) layer.rusageFd = Number(value);
    else return undefined;
  }
  layer.setup.taskPid = true;
  Object.assign(folding, layer);
  return end + 1;
}

/** run-as.ts's `setpriv --reuid U --regid G --groups LIST --`: the user's ids, once. */
function setprivLayer(argv: readonly string[], folding: Folding): number | undefined {
  if (folding.ids !== undefined || path.basename(argv[0] ?? '') !== 'setpriv') return undefined;
  const [, reuid, uid, regid, gid, groups, list, dashes] = argv;
  if (reuid !== '--reuid' || regid !== '--regid' || groups !== '--groups' || dashes !== '--') return undefined;
  const ids = [uid, gid, ...(list === '' ? [] : (list ?? '').split(','))];
  if (!ids.every((id) => id !== undefined && /^\d+$/.test(id))) return undefined;
  const [userId, groupId, ...rest] = ids.map(Number) as [number, number, ...number[]];
  folding.ids = { uid: userId, gid: groupId, groups: rest };
  return 8;
}
