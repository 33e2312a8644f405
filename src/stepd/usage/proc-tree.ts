// One sample of a task from /proc, as Slurm's jobacct_gather/linux takes it: the task's process
// and every descendant (found by their parent pids), their resident set and virtual size
// (VmRSS, VmSize of /proc/PID/status) summed, their CPU time (utime and stime of
// /proc/PID/stat, plus cutime and cstime: the children each has reaped), and the bytes they
// read and wrote (read_bytes, write_bytes of /proc/PID/io, when it may be read).
import { readdirSync, readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';

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

/**
 * How long one scan of /proc serves: the nodes of a step a host runs start (and take their
 * first sample) one after the other. A task's own process is always sampled; only children it
 * started since the scan are missed, by that first sample alone.
 */
const SCAN_REUSE_MS = 500;
let lastScan: { at: number; children: Map<number, number[]> } | undefined;

/**
 * Every process's parent, from /proc/PID/stat (field 4), for finding a task's descendants. Read
 * synchronously (a /proc read never waits on a disk): a scan of a few hundred processes costs
 * a tenth of the CPU time of the same reads through the thread pool, and the nodes of a step
 * sampling at the same moment share one scan.
 */
export function parentsOf(): Map<number, number[]> {
  if (lastScan && Date.now() - lastScan.at < SCAN_REUSE_MS) return lastScan.children;
  const children = new Map<number, number[]>();
  let entries: string[] = [];
  try {
    entries = readdirSync('/proc');
  } catch {
    // no /proc: no descendants found
  }
  for (const name of entries) {
    if (!/^\d+$/.test(name)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${name}/stat`, 'utf8');
    } catch {
      continue; // gone since the listing
    }
    const fields = statFields(stat);
    if (!fields) continue;
    const ppid = Number(fields[1]);
    const known = children.get(ppid);
    if (known) known.push(Number(name));
    else children.set(ppid, [Number(name)]);
  }
  lastScan = { at: Date.now(), children };
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
