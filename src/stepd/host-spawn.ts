// How the step host starts its tasks, task scripts and batch scripts: through its spawn server
// (native/spawn-server, os/spawn-server.ts) when it was built, else Node's spawn.
// TSLURM_SPAWN_SERVER=0 asks for Node's spawn (a comparison, a suspected server problem).
// Through the server, the task exec helper's layers leading argv are done by the server's
// child itself (task-exec-fold.ts): the task is one fork and one exec, and the server's wait4
// gives its rusage. On Node's spawn the helper runs, and reports the rusage when asked.
import type { Readable } from 'node:stream';
import { startServedChild, type ServedForm, type ServedOptions } from '../os/spawn-server.js';
import { ServedChild } from '../os/served-child.js';
import type { StartedChild } from '../os/spawn.js';
import { nativeHelper } from './native-helper.js';
import { foldTaskExec } from './task-exec-fold.js';
import { taskExecHelper } from './task-pid.js';
import { readRusage, type Rusage } from './usage/task-rusage.js';

export interface HostChild extends StartedChild {
  /** The task exec helper stays between the host and the program, waiting for it (--rusage-fd on Node's spawn). */
  viaHelper: boolean;
  /** The program's final rusage (wait4), once it has ended: the server's, or the helper's report. */
  rusage: Promise<Rusage | undefined>;
}

/** Starts one child of the step host; resolves once it runs or failed to. */
export async function startHostChild(argv: readonly string[], options: ServedOptions): Promise<HostChild> {
  const helper = process.env.TSLURM_SPAWN_SERVER === '0' ? undefined : nativeHelper('tsspawn_server');
  const taskExec = taskExecHelper();
  let folded: ServedForm | undefined;
  const serve = taskExec === undefined ? undefined : (asked: readonly string[], opts: ServedOptions): ServedForm | undefined => (folded = servedForm(asked, opts, taskExec));
  const started = await startServedChild(helper, argv, { ...options, serve });
  const { child } = started;
  // The helper with --rusage-fd is there unless the server took every layer of it.
  const rusageFd = started.served && folded ? undefined : taskExec === undefined ? undefined : foldTaskExec(argv, taskExec)?.rusageFd;
  if (rusageFd !== undefined) {
    const report = child.pid === undefined ? undefined : ((child.stdio[rusageFd] as Readable | null) ?? undefined);
    return { ...started, viaHelper: true, rusage: readRusage(report) };
  }
  const rusage = child instanceof ServedChild ? started.ended.then(() => child.rusage) : Promise.resolve(undefined);
  return { ...started, viaHelper: false, rusage };
}

/** `argv` folded for the server, when its descriptors allow it (the helper's rusage one goes). */
function servedForm(argv: readonly string[], options: ServedOptions, taskExec: string): ServedForm | undefined {
  const fold = foldTaskExec(argv, taskExec);
  // A helper layer left (one it cannot take whole) runs as it is, and so do those before it.
  if (!fold || fold.argv[0] === taskExec || (fold.ids && (options.uid !== undefined || options.gid !== undefined))) return undefined;
  const stdio = options.stdio;
  const { rusageFd, ...form } = fold;
  if (rusageFd === undefined) return { ...form, stdio };
  // The descriptor the helper reported on is the last asked for; the program never had it.
  if (!Array.isArray(stdio) || stdio.length !== rusageFd + 1) return undefined;
  return { ...form, stdio: stdio.slice(0, rusageFd) };
}
