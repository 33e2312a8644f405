// sinfo's fields: the `-o` letter and `-O` names of each, its header, what it makes sinfo
// group on, and its value (src/sinfo/opts.c and print.c, 22.05). Values that only a running
// slurmd measures (CPU load, free memory) print as Slurm prints them when unknown: N/A.
import { nodeStateString, nodeStateStringCompact, nodeStateStringComplete } from '../../core/node-state.js';
import { compressHostlistSorted } from '../../core/hostlist.js';
import type { MatchFlag, SinfoRecord } from './sinfo-records.js';
import { oversubscribeText } from './partition-values.js';
import { jobSize, minMax, partitionLabel, partitionTime, reasonTimestamp, reasonUser } from './sinfo-values.js';

export interface SinfoField {
  header: string;
  /** The -o letter; undefined for fields only -O names. */
  letter?: string;
  /** The -O names. */
  long: readonly string[];
  match?: MatchFlag;
  /** Printed at the width sinfo computes for partition or node-list columns, when it does. */
  sized?: 'part' | 'node';
  /** The header may overflow a right-justified width (NODELIST and the like). */
  headerOverflows?: boolean;
  /** null is a C NULL string (printed `(null)`, see printStr). */
  value(rec: SinfoRecord, width: number): string | null;
}

const hosts = (names: readonly string[]): string => (names.length === 0 ? '' : compressHostlistSorted(names));
const lower = (s: string): string => s.toLowerCase();
// A partition with no node left on the line has no state.
const state = (rec: SinfoRecord, name: (s: number) => string): string => (rec.nodesTotal ? lower(name(rec.nodeState)) : 'n/a');

const AVAIL: Record<string, string> = { UP: 'up', DOWN: 'down', DRAIN: 'drain', INACTIVE: 'inactive' };

export const SINFO_FIELDS: readonly SinfoField[] = [
  { letter: 'a', long: ['available'], header: 'AVAIL', match: 'avail', value: (r) => AVAIL[r.part.state]! },
  { letter: 'A', long: ['nodeai'], header: 'NODES(A/I)', value: (r) => `${r.nodesAlloc}/${r.nodesIdle}` },
  { letter: 'b', long: ['features_act'], header: 'ACTIVE_FEATURES', match: 'featuresAct', value: (r) => r.features },
  { letter: 'B', long: ['maxcpuspernode'], header: 'MAX_CPUS_PER_NODE', match: 'maxCpusPerNode', value: () => 'UNLIMITED' },
  { letter: 'c', long: ['cpus'], header: 'CPUS', match: 'cpus', value: (r) => minMax(r.cpus.min, r.cpus.max, false, true) },
  {
    letter: 'C',
    long: ['cpusstate'],
    header: 'CPUS(A/I/O/T)',
    match: 'cpus',
    value: (r) => `${r.cpusAlloc}/${r.cpusIdle}/${r.cpusOther}/${r.cpusTotal}`,
  },
  { letter: 'd', long: ['disk'], header: 'TMP_DISK', match: 'disk', value: (r) => minMax(r.disk.min, r.disk.max, false, false) },
  { letter: 'D', long: ['nodes'], header: 'NODES', value: (r) => String(r.nodesTotal) },
  { letter: 'e', long: ['freemem'], header: 'FREE_MEM', match: 'freeMem', value: () => 'N/A' },
  { letter: 'E', long: ['reason'], header: 'REASON', match: 'reason', value: (r) => r.reason ?? 'none' },
  { letter: 'f', long: ['features'], header: 'AVAIL_FEATURES', match: 'features', value: (r) => r.features },
  {
    letter: 'F',
    long: ['nodeaiot'],
    header: 'NODES(A/I/O/T)',
    value: (r) => `${r.nodesAlloc}/${r.nodesIdle}/${r.nodesOther}/${r.nodesTotal}`,
  },
  { letter: 'g', long: ['groups'], header: 'GROUPS', match: 'groups', value: () => 'all' },
  { letter: 'G', long: ['gres'], header: 'GRES', match: 'gres', value: (r) => r.gres },
  { letter: 'h', long: ['oversubscribe', 'share'], header: 'OVERSUBSCRIBE', match: 'oversubscribe', value: (r) => oversubscribeText(r.part) },
  { letter: 'H', long: ['timestamp'], header: 'TIMESTAMP', match: 'reasonTime', value: reasonTimestamp },
  { letter: 'I', long: ['priorityjobfactor'], header: 'PRIO_JOB_FACTOR', match: 'priorityJobFactor', value: () => '1' },
  { letter: 'l', long: ['time'], header: 'TIMELIMIT', match: 'maxTime', value: (r) => partitionTime(r.part.maxTime) },
  { letter: 'L', long: ['defaulttime'], header: 'DEFAULTTIME', match: 'defaultTime', value: (r) => partitionTime(r.part.defaultTime) },
  { letter: 'm', long: ['memory'], header: 'MEMORY', match: 'memory', value: (r) => minMax(r.mem.min, r.mem.max, false, false) },
  { letter: 'M', long: ['preemptmode'], header: 'PREEMPT_MODE', match: 'preemptMode', value: () => 'OFF' },
  { letter: 'n', long: ['nodehost'], header: 'HOSTNAMES', match: 'hostnames', sized: 'node', headerOverflows: true, value: (r) => hosts(r.hostnames) },
  { letter: 'N', long: ['nodelist'], header: 'NODELIST', sized: 'node', headerOverflows: true, value: (r) => hosts(r.nodes) },
  { letter: 'o', long: ['nodeaddr'], header: 'NODE_ADDR', match: 'nodeAddr', headerOverflows: true, value: (r) => hosts(r.addrs) },
  { letter: 'O', long: ['cpusload'], header: 'CPU_LOAD', match: 'cpuLoad', value: () => 'N/A' },
  { letter: 'p', long: ['prioritytier'], header: 'PRIO_TIER', match: 'priorityTier', value: () => '1' },
  { letter: 'P', long: ['partition'], header: 'PARTITION', match: 'partition', sized: 'part', value: (r, w) => partitionLabel(r.part, w) },
  { letter: 'r', long: ['root'], header: 'ROOT', match: 'root', value: () => 'no' },
  { letter: 'R', long: ['partitionname'], header: 'PARTITION', match: 'partition', sized: 'part', value: (r) => r.part.name },
  { letter: 's', long: ['size'], header: 'JOB_SIZE', match: 'jobSize', value: (r) => jobSize(r.part) },
  { letter: 'S', long: ['allocnodes'], header: 'ALLOCNODES', value: () => 'all' },
  { letter: 't', long: ['statecompact'], header: 'STATE', match: 'state', value: (r) => state(r, nodeStateStringCompact) },
  { letter: 'T', long: ['statelong'], header: 'STATE', match: 'state', value: (r) => state(r, nodeStateString) },
  { letter: 'u', long: ['user'], header: 'USER', match: 'reasonUser', value: (r) => reasonUser(r, false) },
  { letter: 'U', long: ['userlong'], header: 'USER', match: 'reasonUser', value: (r) => reasonUser(r, true) },
  { letter: 'v', long: ['version'], header: 'VERSION', match: 'version', value: (r) => r.version ?? 'N/A' },
  // The cluster name shows only when several clusters are asked (-M), which tslurm has not.
  { letter: 'V', long: ['cluster'], header: 'CLUSTER', value: () => 'N/A' },
  { letter: 'w', long: ['weight'], header: 'WEIGHT', match: 'weight', value: (r) => minMax(r.weight.min, r.weight.max, false, false) },
  { letter: 'X', long: ['sockets'], header: 'SOCKETS', match: 'sockets', value: (r) => minMax(r.sockets.min, r.sockets.max, false, true) },
  { letter: 'Y', long: ['cores'], header: 'CORES', match: 'cores', value: (r) => minMax(r.cores.min, r.cores.max, false, true) },
  { letter: 'Z', long: ['threads'], header: 'THREADS', match: 'threads', value: (r) => minMax(r.threads.min, r.threads.max, false, true) },
  {
    letter: 'z',
    long: ['socketcorethread'],
    header: 'S:C:T',
    match: 'sct',
    value: (r) =>
      [r.sockets, r.cores, r.threads].map((x) => minMax(x.min, x.max, false, true)).join(':'),
  },
  { long: ['port'], header: 'PORT', match: 'port', value: (r) => minMax(r.port, r.port, false, true) },
  { long: ['allocmem'], header: 'ALLOCMEM', match: 'allocMem', value: (r) => String(r.allocMemory) },
  { long: ['statecomplete'], header: 'STATECOMPLETE', match: 'state', value: (r) => state(r, nodeStateStringComplete) },
];

const BY_LETTER = new Map(SINFO_FIELDS.filter((f) => f.letter !== undefined).map((f) => [f.letter!, f]));
const BY_NAME = new Map(SINFO_FIELDS.flatMap((f) => f.long.map((name) => [name, f] as const)));

/** The field of an -o letter, or undefined. */
export function sinfoFieldByLetter(letter: string): SinfoField | undefined {
  return BY_LETTER.get(letter);
}

/** The field of an -O name (any case), or undefined. */
export function sinfoFieldByName(name: string): SinfoField | undefined {
  return BY_NAME.get(name.toLowerCase());
}
