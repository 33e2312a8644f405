// The spawn server's control protocol (native/spawn-server/tsspawn_server.c says it in full):
// frames of a little-endian u32 length, a type byte and a body; requests go down its stdin,
// replies come up its stdout. Strings are NUL-terminated, so none may contain a NUL.

/** What the child's fd i is: /dev/null, a socket connected back to us, or a file opened anew. */
export type FdPlan = { kind: 'null' } | { kind: 'connect' } | { kind: 'open'; path: string; flags: number };

/**
 * What the task exec helper would do in the child before its execve (the step host folds its
 * options into the request): the cgroup.procs files to join (a cgroup v2 one through clone3's
 * CLONE_INTO_CGROUP), the mount namespace to enter, a directory that falls back to /tmp, the
 * submitter's soft limits, and SLURM_TASK_PID set to the child's pid.
 */
export interface TaskSetup {
  procs: readonly string[];
  mountNs: string | undefined;
  chdirFallback: boolean;
  rlimits: readonly string[];
  taskPid: boolean;
}

/** wait4's figures for a child and what it reaped (as tstask_exec --rusage-fd reported them). */
export interface WaitRusage {
  maxRssKiB: number;
  userCpuUsec: number;
  systemCpuUsec: number;
  /** Blocks of 512 bytes read from and written to storage (ru_inblock, ru_oublock). */
  inBlocks: number;
  outBlocks: number;
}

export interface SpawnRequest {
  id: number;
  argv: readonly string[];
  env: readonly string[];
  /** Empty: the server's own. */
  cwd: string;
  setsid: boolean;
  /** `groups`: the supplementary groups (setpriv's --groups); absent, none (as libuv). */
  ids: { uid: number; gid: number; groups?: readonly number[] } | undefined;
  umask: number;
  fds: readonly FdPlan[];
  setup?: TaskSetup | undefined;
}

export type Reply =
  | { type: 'started'; id: number; pid: number }
  | { type: 'failed'; id: number; errno: number }
  | { type: 'ended'; id: number; code: number; signal: number; rusage: WaitRusage };

/** The first frame: the secret each child proves itself with, and where it connects back to. */
export function encodeHello(secret: Buffer, socketPath: string): Buffer {
  return frame('H', [secret, cstr(socketPath)]);
}

export function encodeSpawn(request: SpawnRequest): Buffer {
  const groups = request.ids?.groups;
  const flags = (request.setsid ? 1 : 0) | (request.ids ? 2 : 0) | 4 | (groups ? 8 : 0);
  const setup = request.setup;
  const parts: Buffer[] = [
    u32(request.id),
    u32(flags),
    u32(request.ids?.uid ?? 0),
    u32(request.ids?.gid ?? 0),
    u32(request.umask),
    cstr(request.cwd),
    ...strings(request.argv),
    ...strings(request.env),
    u32(request.fds.length),
  ];
  for (const plan of request.fds) {
    parts.push(u32(plan.kind === 'null' ? 0 : plan.kind === 'connect' ? 1 : 2));
    if (plan.kind === 'open') parts.push(u32(plan.flags), cstr(plan.path));
  }
  parts.push(
    u32((setup?.taskPid ? 1 : 0) | (setup?.chdirFallback ? 2 : 0)),
    ...strings(setup?.procs ?? []),
    cstr(setup?.mountNs ?? ''),
    ...strings(setup?.rlimits ?? []),
    u32(groups?.length ?? 0),
    ...(groups ?? []).map(u32),
  );
  return frame('S', parts);
}

/** Cuts the server's stdout into replies, however the bytes arrive. */
export class ReplyReader {
  private pending: Buffer = Buffer.alloc(0);

  push(chunk: Buffer): Reply[] {
    this.pending = this.pending.length === 0 ? chunk : Buffer.concat([this.pending, chunk]);
    const replies: Reply[] = [];
    let at = 0;
    while (this.pending.length - at >= 4) {
      const length = this.pending.readUInt32LE(at);
      if (this.pending.length - at - 4 < length) break;
      const body = this.pending.subarray(at + 5, at + 4 + length);
      const reply = decode(String.fromCharCode(this.pending[at + 4]!), body);
      if (reply) replies.push(reply);
      at += 4 + length;
    }
    this.pending = this.pending.subarray(at);
    return replies;
  }
}

function decode(type: string, body: Buffer): Reply | undefined {
  const field = (i: number): number => body.readUInt32LE(4 * i);
  if (type === 'P') return { type: 'started', id: field(0), pid: field(1) };
  if (type === 'E') return { type: 'failed', id: field(0), errno: field(1) };
  if (type === 'X') {
    const u64 = (i: number): number => field(i) + field(i + 1) * 2 ** 32;
    const rusage = { maxRssKiB: field(3), userCpuUsec: u64(4), systemCpuUsec: u64(6), inBlocks: field(8), outBlocks: field(9) };
    return { type: 'ended', id: field(0), code: field(1), signal: field(2), rusage };
  }
  return undefined;
}

function frame(type: string, parts: readonly Buffer[]): Buffer {
  const body = Buffer.concat([Buffer.from(type, 'latin1'), ...parts]);
  return Buffer.concat([u32(body.length), body]);
}

function u32(value: number): Buffer {
  const buffer = Buffer.alloc(4);
  buffer.writeUInt32LE(value >>> 0);
  return buffer;
}

function cstr(text: string): Buffer {
  return Buffer.from(`${text}\0`);
}

// One buffer for the lot: a task's environment is a hundred strings and more.
function strings(list: readonly string[]): Buffer[] {
  return [u32(list.length), Buffer.from(list.length === 0 ? '' : `${list.join('\0')}\0`)];
}
