// The line protocol between a step daemon and its node's PMIx server helper
// (native/pmix-server/tspmix_server.c, whose header comment is the reference): one message per
// line, space-separated fields, binary data as lowercase hex ("-" when empty).

/** A line from the helper. */
export type HelperEvent =
  | { kind: 'ready'; version: string }
  | { kind: 'ok'; what: string }
  | { kind: 'env'; rank: number; env: [name: string, value: string][] }
  | { kind: 'fence'; seq: number; hex: string }
  | { kind: 'connected'; rank: number }
  | { kind: 'finalized'; rank: number }
  | { kind: 'abort'; rank: number; status: number; message: string }
  | { kind: 'error'; message: string };

/** The namespace as one node registers it. */
export interface JobRegistration {
  nspace: string;
  nodeid: number;
  /** Node names by node id. */
  nodeNames: readonly string[];
  /** Ranks on each node, by node id. */
  tids: readonly (readonly number[])[];
}

export function hexOf(data: Buffer | string): string {
  const hex = Buffer.from(data).toString('hex');
  return hex === '' ? '-' : hex;
}

export function bytesOf(hex: string | undefined): Buffer {
  return hex === undefined || hex === '-' ? Buffer.alloc(0) : Buffer.from(hex, 'hex');
}

/** `job NSPACE NODEID NODES RANKS`: names and rank lists may not be empty or hold spaces. */
export function jobRequest(job: JobRegistration): string {
  const ranks = job.tids.map((t) => t.join(',')).join(';');
  return `job ${job.nspace} ${job.nodeid} ${job.nodeNames.join(',')} ${ranks}\n`;
}

export function forkRequest(rank: number): string {
  return `fork ${rank}\n`;
}

/** Every node's blobs for fence `seq`, concatenated in node order (as libpmix expects them). */
export function fenceDoneRequest(seq: number, blobsHex: readonly string[]): string {
  return `fence-done ${seq} ${hexOf(Buffer.concat(blobsHex.map(bytesOf)))}\n`;
}

export function fenceFailRequest(seq: number): string {
  return `fence-fail ${seq}\n`;
}

/** Parses one line from the helper (without its newline); undefined for anything unknown. */
export function parseHelperLine(line: string): HelperEvent | undefined {
  const [kind = '', ...fields] = line.split(' ');
  const int = (i: number): number => Number.parseInt(fields[i] ?? '', 10);
  switch (kind) {
    case 'ready':
      return { kind, version: fields.join(' ') };
    case 'ok':
      return { kind, what: fields.join(' ') };
    case 'env':
      return { kind, rank: int(0), env: parseEnv(bytesOf(fields[1]).toString()) };
    case 'fence':
      return { kind, seq: int(0), hex: fields[1] ?? '-' };
    case 'connected':
    case 'finalized':
      return { kind, rank: int(0) };
    case 'abort':
      return { kind, rank: int(0), status: int(1), message: bytesOf(fields[2]).toString() };
    case 'error':
      return { kind, message: fields.join(' ') };
    default:
      return undefined;
  }
}

/** `KEY=VALUE\0KEY=VALUE` as pairs. */
function parseEnv(text: string): [string, string][] {
  if (text === '') return [];
  return text.split('\0').map((entry) => {
    const eq = entry.indexOf('=');
    return eq < 0 ? [entry, ''] : [entry.slice(0, eq), entry.slice(eq + 1)];
  });
}
