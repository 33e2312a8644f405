// NodeName lines → node entries of the cluster description, plus what only slurm.conf gives
// (Boards, TmpDisk, NodeHostname, NodeAddr, Port). The CPU layout is completed the way Slurm's
// _parse_nodename does: Sockets from SocketsPerBoard*Boards, else from CPUs/(cores*threads)
// when that divides, else one per board; missing CPUs = sockets*cores*threads; and CPUs that
// match no level of the layout are reset to the full product, as Slurm resets them.
import { expandHostlist } from '../../core/hostlist.js';
import type { Where } from './lines.js';
import { num, plain } from './numbers.js';
import type { ConfRecord } from './read.js';

export interface NodeExtras {
  boards: number;
  tmpDisk: number;
  /** Per node of the line, when the line (or its DEFAULT) gives them. */
  hostnames?: string[];
  addrs?: string[];
  ports?: number[];
}

export interface NodeLine {
  /** The entry in the cluster description's terms (as the YAML would give it). */
  entry: Record<string, unknown>;
  extras: NodeExtras;
  at: Where;
}

/** Schema field → the slurm.conf key it came from, for messages. */
export const NODE_FIELD_KEYS: Record<string, string> = {
  name: 'NodeName',
  cpus: 'CPUs',
  sockets: 'Sockets',
  cores: 'CoresPerSocket',
  threads: 'ThreadsPerCore',
  memory: 'RealMemory',
  gres: 'Gres',
  features: 'Feature',
  weight: 'Weight',
  state: 'State',
  reason: 'Reason',
};

/** Converts one NodeName record (DEFAULTs already folded in); problems go to `fail`. */
export function nodeLine(record: ConfRecord, fail: (message: string) => void): NodeLine | undefined {
  const k = record.keys;
  if (record.name.toUpperCase() === 'ALL') {
    fail(`'ALL' is a reserved word disallowed for use with NodeName`);
    return undefined;
  }
  let names: string[];
  try {
    names = expandHostlist(record.name);
  } catch {
    fail(`NodeName=${record.name}: invalid hostlist`);
    return undefined;
  }
  const entry: Record<string, unknown> = { name: record.name, ...layout(k) };
  const set = (field: string, value: unknown) => {
    if (value !== undefined) entry[field] = value;
  };
  set('memory', num(k.get('RealMemory')));
  set('gres', k.get('Gres'));
  set('features', k.get('Feature') ?? k.get('Features'));
  const weight = num(k.get('Weight'));
  // Slurm takes Weight=INFINITE (0xffffffff) as one less.
  set('weight', weight === 0xffffffff ? 0xfffffffe : weight);
  // FAIL and FAILING are drained nodes to tslurm (no jobs start there), as for DownNodes.
  set('state', k.get('State')?.replace(/^fail(ing)?$/i, 'DRAIN'));
  set('reason', k.get('Reason'));
  const extras: NodeExtras = { boards: layoutBoards(k), tmpDisk: plain(k.get('TmpDisk')) ?? 0 };
  if (k.has('TmpDisk') && plain(k.get('TmpDisk')) === undefined) fail(`NodeName=${record.name}: TmpDisk: expected megabytes, got "${k.get('TmpDisk')}"`);
  const perNode = (key: string): string[] | undefined => {
    const value = k.get(key);
    if (value === undefined) return undefined;
    let list: string[];
    try {
      list = expandHostlist(value);
    } catch {
      fail(`NodeName=${record.name}: ${key}: invalid hostlist "${value}"`);
      return undefined;
    }
    if (list.length === 1) return names.map(() => list[0]!);
    if (list.length < names.length) {
      fail(`NodeName=${record.name}: at least as many ${key} are required as NodeName (${list.length} < ${names.length})`);
      return undefined;
    }
    return list.slice(0, names.length);
  };
  const hostnames = perNode('NodeHostname');
  const addrs = perNode('NodeAddr');
  const ports = perNode('Port');
  if (hostnames) extras.hostnames = hostnames;
  // NodeAddr defaults to NodeHostname, as in Slurm.
  if (addrs ?? hostnames) extras.addrs = addrs ?? hostnames;
  if (ports) {
    const bad = ports.find((p) => !/^\d+$/.test(p) || Number(p) < 1 || Number(p) > 65535);
    if (bad !== undefined) fail(`NodeName=${record.name}: Port: invalid port "${bad}"`);
    else extras.ports = ports.map(Number);
  }
  return { entry, extras, at: record.at };
}

function layoutBoards(k: ReadonlyMap<string, string>): number {
  return completeLayout(k)?.boards ?? (plain(k.get('Boards')) || 1);
}

// cpus/sockets/cores/threads for the description: computed when every given value is a
// number, else passed on as written for the schema to report.
function layout(k: ReadonlyMap<string, string>): Record<string, unknown> {
  const done = completeLayout(k);
  if (done) return { cpus: done.cpus, sockets: done.sockets, cores: done.cores, threads: done.threads };
  const out: Record<string, unknown> = {};
  const pass = (field: string, key: string) => {
    if (k.has(key)) out[field] = num(k.get(key));
  };
  pass('cpus', k.has('CPUs') ? 'CPUs' : 'Procs');
  pass('sockets', 'Sockets');
  pass('cores', 'CoresPerSocket');
  pass('threads', 'ThreadsPerCore');
  return out;
}

function completeLayout(k: ReadonlyMap<string, string>) {
  const keys = ['CPUs', 'Procs', 'Boards', 'Sockets', 'SocketsPerBoard', 'CoresPerSocket', 'ThreadsPerCore'];
  if (keys.some((key) => k.has(key) && !(Number(plain(k.get(key))) > 0))) return undefined;
  const given = (key: string) => plain(k.get(key));
  const cores = given('CoresPerSocket') ?? 1;
  const threads = given('ThreadsPerCore') ?? 1;
  let boards = given('Boards') ?? 1;
  let cpus = given('CPUs') ?? given('Procs');
  const perBoard = given('SocketsPerBoard');
  let sockets: number;
  if (perBoard !== undefined) sockets = boards * perBoard; // SocketsPerBoard wins over Sockets
  else if (given('Sockets') !== undefined) sockets = given('Sockets')!;
  else if (cpus !== undefined && cpus >= cores * threads && cpus % (cores * threads) === 0) sockets = cpus / (cores * threads);
  else sockets = boards;
  cpus ??= sockets * cores * threads;
  if (sockets < boards) boards = 1;
  if (cpus !== sockets && cpus !== sockets * cores && cpus !== sockets * cores * threads) cpus = sockets * cores * threads;
  return { cpus, sockets, cores, threads, boards };
}
