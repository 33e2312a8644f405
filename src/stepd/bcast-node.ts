// One node's part of tsbcast (slurmd's _rpc_file_bcast): the file is written by a process that
// first joins the job's container (container_p_join: with job_container/tmpfs in namespace mode
// it starts in the job's private /tmp) and is added to it (container_p_add_pid), so DEST means
// what it means to the job's tasks. Plain data in and out, so a node daemon can run it too.
import { startChild } from '../os/spawn.js';
import { constants } from 'node:os';
import { fileURLToPath } from 'node:url';
import { envArrayToObject } from '../core/env-array.js';
import type { JobContainerFacade } from '../interfaces/job-container.js';
import { stepEnvOver } from './step-env.js';
import { argvAsUser, runAsFor } from './run-as.js';

export interface BcastNodeRequest {
  jobId: number;
  nodeName: string;
  /** Absolute path on the node. */
  dest: string;
  /** The file's contents. */
  data: Buffer;
  /** Permission bits the file is created with (the source's). */
  mode: number;
  /** -f: replace an existing file (else it is an error, EEXIST). */
  force: boolean;
  /** -p: the source's access and modification times (Unix seconds); null: not preserved. */
  times: { atime: number; mtime: number } | null;
  /** Who writes it (a root node daemon: the requesting user, as sbcast's file is theirs). */
  user?: { uid: number; gid: number };
}

/** 0, or the errno of the failure on the node (EEXIST, ENOENT, ...). */
export async function writeBcastFile(req: BcastNodeRequest, container: JobContainerFacade): Promise<number> {
  const uid = process.getuid?.() ?? 0;
  // From dist/chunks/ or dist/commands/ alike (every bundle sits one level below dist/).
  const writer = fileURLToPath(new URL('../stepd/bcast-writer.js', import.meta.url));
  const args = [req.dest, (req.mode & 0o7777).toString(8), req.force ? '1' : '0'];
  if (req.times) args.push(String(req.times.atime), String(req.times.mtime));
  const env = Object.entries(process.env).flatMap(([k, v]) => (v === undefined ? [] : [`${k}=${v}`]));
  // As the user (setpriv) inside, the container's own wrapping (as root) outside.
  const who = runAsFor(req.user);
  const argv = [process.execPath, writer, ...args];
  const task = { argv: who ? argvAsUser(who, argv) : argv, env: stepEnvOver(env) };
  // The job's container exists once a step or the batch script ran here; create is idempotent.
  await container.create(req.jobId);
  await container.join(req.jobId, uid, task);
  const { child, ended, closed } = startChild(task.argv, { env: envArrayToObject(env), stdio: ['pipe', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  // Its stderr read to the end: the writer's last line names the errno.
  const exited = Promise.all([ended, closed]).then(([end]) => (end.kind === 'exited' ? end.code : -1));
  try {
    if (child.pid !== undefined) await container.addPid(req.jobId, child.pid, uid);
  } catch (error) {
    child.kill('SIGKILL');
    throw error;
  }
  child.stdin!.end(req.data);
  const code = await exited;
  if (code === 0) return 0;
  const name = stderr.trim().split('\n').pop() ?? '';
  return (constants.errno as Record<string, number>)[name] ?? constants.errno.EIO;
}
