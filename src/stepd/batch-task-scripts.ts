// slurm.conf's TaskProlog and TaskEpilog around a batch script (the batch step's one task):
// slurmstepd runs them as for a step's task, with the job's output file as the task's and as
// its own stderr (observed on Slurm 22.05: /work/ref/task-prolog-conf-more.txt). The prolog's
// `print` lines and the epilog's stderr land in the job's files, slurmstepd's lines too.
import { writeSync } from 'node:fs';
import type { RunAs } from './run-as.js';
import type { StepContainer } from './step-container.js';
import type { TaskScriptContext } from './task-scripts.js';

/** Where the scripts of the batch step on `nodeName` write: `out` and `err`, the job's files. */
export function batchScriptContext(
  job: { nodeName: string; runAs?: RunAs | undefined },
  container: StepContainer,
  cwd: string,
  fds: { out: number; err: number },
): TaskScriptContext {
  const write = (fd: number, data: Buffer | string): void => {
    try {
      writeSync(fd, typeof data === 'string' ? Buffer.from(data) : data);
    } catch {
      // the output file may be gone; the script still runs
    }
  };
  return {
    container,
    runAs: job.runAs,
    cwd,
    report: (line) => write(fds.err, `slurmstepd-${job.nodeName}: error: ${line}\n`),
    reportDaemon: (line) => write(fds.err, `slurmstepd-${job.nodeName}: error: ${line}\n`),
    stdout: (chunk) => write(fds.out, chunk),
    stderr: (chunk) => write(fds.err, chunk),
    daemonStderr: (chunk) => write(fds.err, chunk),
  };
}
