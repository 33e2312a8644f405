// A task's final rusage: the kernel's wait4() figures for the program and every child it
// reaped. The step host's spawn server reaps its children with wait4 and sends them with each
// end (os/spawn-server.ts); on Node's spawn, which reaps its children without asking for
// theirs, the task exec helper stays the program's parent to report them (tstask_exec
// --rusage-fd), on a descriptor read here.
import { readFileSync } from 'node:fs';
import type { Readable } from 'node:stream';
import type { WaitRusage } from '../../os/spawn-server-frames.js';

export type Rusage = WaitRusage;

/** The helper's line (`rusage MAXRSS UTIME STIME INBLOCK OUBLOCK`), or undefined when none came. */
export function parseRusage(text: string): Rusage | undefined {
  const match = /^rusage (\d+) (\d+) (\d+) (\d+) (\d+)$/m.exec(text);
  if (!match) return undefined;
  const [maxRssKiB, userCpuUsec, systemCpuUsec, inBlocks, outBlocks] = match.slice(1).map(Number) as [number, number, number, number, number];
  return { maxRssKiB, userCpuUsec, systemCpuUsec, inBlocks, outBlocks };
}

/** Reads the report from our end of the helper's descriptor; settles once every holder closed it. */
export function readRusage(stream: Readable | undefined): Promise<Rusage | undefined> {
  if (!stream) return Promise.resolve(undefined);
  return new Promise((resolve) => {
    let text = '';
    stream.setEncoding('utf8');
    stream.on('data', (chunk: string) => {
      // One short line is all the helper writes; anything longer is not it.
      if (text.length < 256) text += chunk;
    });
    stream.once('error', () => resolve(parseRusage(text)));
    stream.once('close', () => resolve(parseRusage(text)));
    stream.once('end', () => {
      resolve(parseRusage(text));
      stream.destroy();
    });
  });
}

/**
 * The program's own pid behind the helper that waits for it (its one child), for a signal
 * meant for the program alone (scancel -b); `pid` itself when it has no child (yet, or any more).
 */
export function programPid(pid: number): number {
  try {
    const children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean);
    return children.length === 1 ? Number(children[0]) : pid;
  } catch {
    return pid;
  }
}
