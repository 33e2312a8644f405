// What a step host needs to run a job's script (slurmd's batch_job_launch_msg_t), as the
// controller sends it in `batch-launch`, and where the host keeps one job's files.
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { rm, rmdir, unlink } from 'node:fs/promises';
import path from 'node:path';
import type * as v from 'valibot';
import type { BatchResultSchema } from '../protocol/node-messages.js';
import type { BatchSpec, KillRequest } from '../protocol/stepd-messages.js';

// The batch spec and the kill order are described in protocol/stepd-messages.ts.
export type { BatchSpec, KillRequest };

/** What a batch step ends with: the script's wait status (protocol/node-messages.ts). */
export type BatchResult = v.InferOutput<typeof BatchResultSchema>;

/** The files of one job in a step host's spool. */
export function jobDirFiles(spool: string, jobId: number) {
  const dir = path.join(spool, 'jobs', String(jobId));
  return {
    dir,
    script: path.join(dir, 'script'),
    /** Which launch of the job runs here, and on which node (for a report after a restart). */
    launch: path.join(dir, 'launch.json'),
    /** The result, written atomically when the controller cannot take it at once; removed once it has. */
    result: path.join(dir, 'result.json'),
  };
}

/**
 * A new, empty directory for the job (one a previous launch left is emptied first): one mkdir
 * in the common case, where removing first would walk a directory that is not there.
 */
export function makeJobDir(spool: string, jobId: number): void {
  const { dir } = jobDirFiles(spool, jobId);
  try {
    mkdirSync(dir, { mode: 0o700 });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') rmSync(dir, { recursive: true, force: true });
    else if (code !== 'ENOENT') throw error;
    mkdirSync(dir, { recursive: true, mode: 0o700 });
  }
}

/**
 * Removes the job's directory: the files the host writes there by name, then the directory;
 * anything else in it (an older build's file, a `.new` a failed write left) by a walk. Off the
 * event loop: a directory operation can wait on the file system's journal for milliseconds.
 */
export async function removeJobDir(spool: string, jobId: number, extra: readonly string[] = []): Promise<void> {
  const files = jobDirFiles(spool, jobId);
  const names = [files.script, files.launch, files.result, ...extra.map((name) => path.join(files.dir, name))];
  try {
    await Promise.all(names.map((file) => unlink(file).catch((error: NodeJS.ErrnoException) => (error.code === 'ENOENT' ? undefined : Promise.reject(error)))));
    await rmdir(files.dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') await rm(files.dir, { recursive: true, force: true });
  }
}

/** A job's launch as its directory records it: on which node, and which launch of the job. */
export interface LaunchRecord {
  node: string;
  gen: number;
}

/** The result a step host kept for `jobId`, with the launch it belongs to; undefined when none. */
export function readStoredResult(spool: string, jobId: number): (LaunchRecord & { result: BatchResult }) | undefined {
  try {
    return JSON.parse(readFileSync(jobDirFiles(spool, jobId).result, 'utf8')) as LaunchRecord & { result: BatchResult };
  } catch {
    return undefined;
  }
}
