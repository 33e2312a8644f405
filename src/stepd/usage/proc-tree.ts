// One sample of a task from /proc, as Slurm's jobacct_gather/linux takes it: the task's process
// and every descendant (found by their parent pids), their resident set and virtual size
// (VmRSS, VmSize of /proc/PID/status) summed, their CPU time (utime and stime of
// /proc/PID/stat, plus cutime and cstime: the children each has reaped), and the bytes they
// read and wrote (read_bytes, write_bytes of /proc/PID/io, when it may be read).
import { readdir, readFile } from 'node:fs/promises';

export interface ProcSample {
  rssKiB: number;
  vmSizeKiB: number;
  userCpuUsec: number;
  systemCpuUsec: number;
  readBytes?: number;
  writeBytes?: number;
}

/** Linux's USER_HZ, which /proc/PID/stat counts in (100 on every architecture Node runs on). */
const TICK_USEC = 10_000;

/** A walk of /proc under way: the samples that ask meanwhile share it (one walk, not one each). */
let walking: Promise<Map<number, number[]>> | undefined;

/** Every process's parent, from /proc/PID/stat (field 4), for finding a task's descendants. */
export function parentsOf(): Promise<Map<number, number[]>> {
  walking ??= walkProc().finally(() => (walking = undefined));
  return walking;
}

async function walkProc(): Promise<Map<number, number[]>> {
  const children = new Map<number, number[]>();
  const entries = await readdir('/proc').catch(() => [] as string[]);
  await Promise.all(
    entries.map(async (name) => {
      if (!/^\d+$/.test(name)) return;
      const stat = await readFile(`/proc/${name}/stat`, 'utf8').catch(() => undefined);
      const fields = stat === undefined ? undefined : statFields(stat);
      if (!fields) return;
      const ppid = Number(fields[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(name)]);
    }),
  );
  return children;
}

/**
 * The task rooted at `pid`, summed over it and its descendants; undefined when it is gone.
 * `skipRoot`: the root is the task exec helper waiting for the program (its own memory is not the task's).
 */
export async function sampleTree(pid: number, children: Map<number, number[]>, skipRoot = false): Promise<ProcSample | undefined> {
  const pids: number[] = [];
  for (const stack = [pid]; stack.length > 0; ) {
    const next = stack.pop()!;
    pids.push(next);
    stack.push(...(children.get(next) ?? []));
  }
  const samples = await Promise.all(pids.map((p) => sampleOne(p, skipRoot && p === pid)));
  if (samples[0] === undefined) return undefined;
  const total: ProcSample = { rssKiB: 0, vmSizeKiB: 0, userCpuUsec: 0, systemCpuUsec: 0 };
  for (const s of samples) {
    if (!s) continue;
    total.rssKiB += s.rssKiB;
    total.vmSizeKiB += s.vmSizeKiB;
    total.userCpuUsec += s.userCpuUsec;
    total.systemCpuUsec += s.systemCpuUsec;
    if (s.readBytes !== undefined) total.readBytes = (total.readBytes ?? 0) + s.readBytes;
    if (s.writeBytes !== undefined) total.writeBytes = (total.writeBytes ?? 0) + s.writeBytes;
  }
  return total;
}

async function sampleOne(pid: number, cpuOnly: boolean): Promise<ProcSample | undefined> {
  const [stat, status, io] = await Promise.all([
    readFile(`/proc/${pid}/stat`, 'utf8').catch(() => undefined),
    cpuOnly ? undefined : readFile(`/proc/${pid}/status`, 'utf8').catch(() => undefined),
    cpuOnly ? undefined : readFile(`/proc/${pid}/io`, 'utf8').catch(() => undefined),
  ]);
  const fields = stat === undefined ? undefined : statFields(stat);
  if (!fields) return undefined;
  // After the command: state(0) ppid(1) ... utime(11) stime(12) cutime(13) cstime(14).
  const ticks = (i: number): number => Number(fields[i]) * TICK_USEC;
  const sample: ProcSample = {
    rssKiB: kib(status, 'VmRSS') ?? 0,
    vmSizeKiB: kib(status, 'VmSize') ?? 0,
    userCpuUsec: ticks(11) + ticks(13),
    systemCpuUsec: ticks(12) + ticks(14),
  };
  const read = io === undefined ? undefined : /^read_bytes:\s*(\d+)/m.exec(io);
  const written = io === undefined ? undefined : /^write_bytes:\s*(\d+)/m.exec(io);
  if (read) sample.readBytes = Number(read[1]);
  if (written) sample.writeBytes = Number(written[1]);
  return sample;
}

/** The fields after the command name (which may hold spaces and parentheses). */
function statFields(stat: string): string[] | undefined {
  const end = stat.lastIndexOf(')');
  return end < 0 ? undefined : stat.slice(end + 2).split(' ');
}

function kib(status: string | undefined, key: string): number | undefined {
  const match = status === undefined ? undefined : new RegExp(`^${key}:\\s*(\\d+) kB`, 'm').exec(status);
  return match ? Number(match[1]) : undefined;
}
