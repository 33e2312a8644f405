// sinfo's lines (src/sinfo/sinfo.c, 22.05: _build_sinfo_data, _insert_node_ptr,
// _match_part_data, _match_node_data, _update_sinfo). Each line is a record: nodes of one
// partition that agree on every field the format shows. The fields decide the grouping, so
// `sinfo -o %P` gives one line per partition and `%P %t` one per partition and state.
import {
  NODE_STATE_ALLOCATED,
  NODE_STATE_BASE,
  NODE_STATE_COMPLETING,
  NODE_STATE_DOWN,
  NODE_STATE_DRAIN,
  NODE_STATE_FUTURE,
  NODE_STATE_MIXED,
} from '../../plugin-api/records.js';
import { nodeStateString } from '../../core/node-state.js';
import type { ClusterInfo, NodeInfo, PartitionInfo } from '../../protocol/node-info.js';
import { oversubscribeText } from './partition-values.js';

/** What a format field makes sinfo compare before it puts two nodes on one line. */
export type MatchFlag =
  | 'partition' | 'avail' | 'groups' | 'jobSize' | 'defaultTime' | 'maxTime' | 'root' | 'oversubscribe'
  | 'preemptMode' | 'priorityTier' | 'priorityJobFactor' | 'maxCpusPerNode'
  | 'hostnames' | 'nodeAddr' | 'features' | 'featuresAct' | 'gres' | 'reason' | 'reasonTime' | 'reasonUser'
  | 'state' | 'allocMem'
  // compared only with -e/--exact:
  | 'cpus' | 'sockets' | 'cores' | 'threads' | 'sct' | 'disk' | 'memory' | 'weight' | 'cpuLoad' | 'freeMem' | 'port' | 'version';

export interface SinfoOptions {
  match: ReadonlySet<MatchFlag>;
  /** -N: one line per node and partition. */
  nodeFlag: boolean;
  /** -e: also split lines on CPUs, memory, ... */
  exact: boolean;
  /** -R: partitions do not matter. */
  listReasons: boolean;
  /** -p: only these partitions. */
  partitions: readonly string[] | null;
  /** -n, -t, -r, -d: false drops the node. */
  keepNode: (node: NodeInfo) => boolean;
}

interface Range {
  min: number;
  max: number;
}

export interface SinfoRecord {
  part: PartitionInfo;
  partIndex: number;
  /** Node names, hostnames and addresses on this line, each once, in the order met. */
  nodes: string[];
  hostnames: string[];
  addrs: string[];
  /** Taken from the first node of the line, as Slurm does. */
  nodeState: number;
  features: string | null;
  gres: string | null;
  reason: string | null;
  reasonTime: number;
  reasonUid: number;
  version: string | null;
  /** The first node's port; 0 when it has none. */
  port: number;
  cpus: Range;
  sockets: Range;
  cores: Range;
  threads: Range;
  disk: Range;
  mem: Range;
  weight: Range;
  nodesAlloc: number;
  nodesIdle: number;
  nodesOther: number;
  nodesTotal: number;
  cpusAlloc: number;
  cpusIdle: number;
  cpusOther: number;
  cpusTotal: number;
  allocMemory: number;
}

export function buildSinfoRecords(info: ClusterInfo, opts: SinfoOptions): SinfoRecord[] {
  const records: SinfoRecord[] = [];
  const wanted = (p: PartitionInfo): boolean => opts.partitions === null || opts.partitions.includes(p.name);
  // "by default every partition is shown, even if no nodes"
  if (!opts.nodeFlag && opts.match.has('partition')) {
    info.partitions.forEach((part, index) => {
      if (wanted(part)) records.push(emptyRecord(part, index));
    });
  }
  // slurmctld does not send FUTURE nodes to sinfo.
  const nodes = new Map(
    info.nodes.filter((n) => (n.nodeState & NODE_STATE_BASE) !== NODE_STATE_FUTURE && opts.keepNode(n)).map((n) => [n.name, withMixedState(n)]),
  );
  info.partitions.forEach((part, index) => {
    if (!wanted(part)) return;
    for (const name of part.nodes) {
      const node = nodes.get(name);
      if (node !== undefined) insertNode(records, part, index, node, opts);
    }
  });
  return records;
}

// sinfo's _query_server: a node with some but not all CPUs allocated is MIXED.
function withMixedState(node: NodeInfo): NodeInfo {
  if (node.nodeState & NODE_STATE_DRAIN) return node;
  const idle = node.cpus - node.allocCpus;
  if (idle === 0 || idle === node.cpus) return node;
  return { ...node, nodeState: (node.nodeState & ~NODE_STATE_BASE) | NODE_STATE_MIXED };
}

function insertNode(records: SinfoRecord[], part: PartitionInfo, index: number, node: NodeInfo, opts: SinfoOptions): void {
  for (const rec of records) {
    if (!matchPart(rec, part, opts)) continue;
    if (rec.nodesTotal > 0 && !matchNode(rec, node, opts)) continue;
    addNode(rec, node, opts);
    return;
  }
  const rec = emptyRecord(part, index);
  addNode(rec, node, opts);
  records.push(rec);
}

function matchPart(rec: SinfoRecord, part: PartitionInfo, opts: SinfoOptions): boolean {
  if (opts.listReasons || rec.part === part) return true;
  const a = rec.part;
  const m = opts.match;
  if (m.has('partition') && a.name !== part.name) return false;
  if (m.has('avail') && a.state !== part.state) return false;
  if (m.has('jobSize') && (a.minNodes !== part.minNodes || a.maxNodes !== part.maxNodes)) return false;
  if (m.has('defaultTime') && a.defaultTime !== part.defaultTime) return false;
  if (m.has('maxTime') && a.maxTime !== part.maxTime) return false;
  if (m.has('oversubscribe') && oversubscribeText(a) !== oversubscribeText(part)) return false;
  // Groups, root-only, preemption, priorities and MaxCPUsPerNode are the same in every
  // tslurm partition (Slurm's defaults).
  return true;
}

function matchNode(rec: SinfoRecord, node: NodeInfo, opts: SinfoOptions): boolean {
  const m = opts.match;
  if (opts.nodeFlag) return false;
  if (m.has('hostnames') && !rec.hostnames.includes(node.hostname)) return false;
  if (m.has('nodeAddr') && !rec.addrs.includes(node.address)) return false;
  if ((m.has('features') || m.has('featuresAct')) && node.features !== rec.features) return false;
  if (m.has('gres') && node.gres !== rec.gres) return false;
  if (m.has('reason') && node.reason !== rec.reason) return false;
  if (m.has('reasonTime') && node.reasonTime !== rec.reasonTime) return false;
  if (m.has('reasonUser') && node.reasonUid !== rec.reasonUid) return false;
  if (m.has('state') && nodeStateString(node.nodeState) !== nodeStateString(rec.nodeState)) return false;
  if (m.has('allocMem') && node.allocMemory !== rec.allocMemory) return false;
  if (!opts.exact) return true;
  const sct = m.has('sct');
  if (m.has('cpus') && node.cpus !== rec.cpus.min) return false;
  if ((m.has('sockets') || sct) && node.sockets !== rec.sockets.min) return false;
  if ((m.has('cores') || sct) && node.cores !== rec.cores.min) return false;
  if ((m.has('threads') || sct) && node.threads !== rec.threads.min) return false;
  if (m.has('disk') && node.tmpDisk !== rec.disk.min) return false;
  if (m.has('memory') && node.realMemory !== rec.mem.min) return false;
  if (m.has('weight') && node.weight !== rec.weight.min) return false;
  if (m.has('port') && (node.port ?? 0) !== rec.port) return false;
  if (m.has('version') && node.version !== rec.version) return false;
  return true;
}

function addNode(rec: SinfoRecord, node: NodeInfo, opts: SinfoOptions): void {
  if (rec.nodesTotal === 0) {
    rec.nodeState = node.nodeState;
    rec.features = node.features;
    rec.gres = node.gres;
    rec.reason = node.reason;
    rec.reasonTime = node.reasonTime;
    rec.reasonUid = node.reasonUid;
    rec.version = node.version;
    rec.port = node.port ?? 0;
  } else if (rec.nodes.includes(node.name)) {
    return; // already on this line through another partition
  }
  widen(rec.cpus, node.cpus, rec.nodesTotal);
  widen(rec.sockets, node.sockets, rec.nodesTotal);
  widen(rec.cores, node.cores, rec.nodesTotal);
  widen(rec.threads, node.threads, rec.nodesTotal);
  widen(rec.disk, node.tmpDisk, rec.nodesTotal);
  widen(rec.mem, node.realMemory, rec.nodesTotal);
  widen(rec.weight, node.weight, rec.nodesTotal);
  if (!rec.nodes.includes(node.name)) rec.nodes.push(node.name);
  if (opts.match.has('nodeAddr') && !rec.addrs.includes(node.address)) rec.addrs.push(node.address);
  if (opts.match.has('hostnames') && !rec.hostnames.includes(node.hostname)) rec.hostnames.push(node.hostname);

  const base = node.nodeState & NODE_STATE_BASE;
  const busy = base === NODE_STATE_ALLOCATED || base === NODE_STATE_MIXED || (node.nodeState & NODE_STATE_COMPLETING) !== 0;
  const unusable = (node.nodeState & NODE_STATE_DRAIN) !== 0 || base === NODE_STATE_DOWN;
  if (busy) rec.nodesAlloc += 1;
  else if (unusable) rec.nodesOther += 1;
  else rec.nodesIdle += 1;
  rec.nodesTotal += 1;
  rec.cpusAlloc += node.allocCpus;
  rec.cpusTotal += node.cpus;
  if (unusable) rec.cpusOther += node.cpus - node.allocCpus;
  else rec.cpusIdle += node.cpus - node.allocCpus;
  rec.allocMemory = node.allocMemory;
}

function widen(range: Range, value: number, before: number): void {
  if (before === 0) {
    range.min = value;
    range.max = value;
    return;
  }
  range.min = Math.min(range.min, value);
  range.max = Math.max(range.max, value);
}

function emptyRecord(part: PartitionInfo, partIndex: number): SinfoRecord {
  const range = (): Range => ({ min: 0, max: 0 });
  return {
    part,
    partIndex,
    nodes: [],
    hostnames: [],
    addrs: [],
    nodeState: 0,
    features: null,
    gres: null,
    reason: null,
    reasonTime: 0,
    reasonUid: 0,
    version: null,
    port: 0,
    cpus: range(),
    sockets: range(),
    cores: range(),
    threads: range(),
    disk: range(),
    mem: range(),
    weight: range(),
    nodesAlloc: 0,
    nodesIdle: 0,
    nodesOther: 0,
    nodesTotal: 0,
    cpusAlloc: 0,
    cpusIdle: 0,
    cpusOther: 0,
    cpusTotal: 0,
    allocMemory: 0,
  };
}
