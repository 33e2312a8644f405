// The shapes of a cluster file (DESIGN.md §6), checked with valibot. Leaf values are
// converted on the way (hostlists expanded, sizes to MB, times to minutes, plugin names to
// major/minor), so a parsed section only needs assembling. Node and partition entries are
// checked one at a time, so one bad entry does not hide the rules about the others.
import * as v from 'valibot';
import { INFINITE } from '../core/slurm-constants.js';
import { pluginType } from './plugin-names.js';
import {
  anyMap,
  BadValue,
  convert,
  describe,
  expected,
  int,
  listOf,
  str,
  strictMap,
  stringOrNumber,
} from './schema-kit.js';
import { address, feature, gres, hostnames, memoryMB, minutes, oneOf } from './values.js';
import { purgeAfter } from './purge-after.js';
import { parseGatherFrequency } from './acct-gather.js';
import { DEFAULT_SHARE_COUNT, parseOverSubscribe, type OverSubscribeSetting } from './oversubscribe.js';

// slurm.conf keeps CPUs, Sockets, CoresPerSocket, ThreadsPerCore, SlurmdTimeout and TreeWidth
// in 16 bits (s_p_handle_uint16 refuses more than 65535).
const uint16 = v.pipe(
  int('a positive integer', 1),
  v.maxValue(0xffff, (issue: v.BaseIssue<unknown>) => `${describe(issue.input)} is out of range (at most 65535)`),
);

/** Slurm maps ClusterName to lower case; it also names the state directory, so no slashes. */
function clusterName(text: string): string {
  if (!/^[A-Za-z0-9][\w.-]*$/.test(text)) {
    throw new BadValue(`invalid cluster name ${JSON.stringify(text)} (letters, digits, "_", "-" and ".")`);
  }
  return text.toLowerCase();
}

/** `partition_prio` or `preempt/partition_prio`, `none` or `preempt/none`. */
function preemptType(text: string): 'preempt/partition_prio' | 'preempt/none' {
  const minor = text.trim().replace(/^preempt\//i, '').toLowerCase();
  if (minor === 'partition_prio' || minor === 'none') return `preempt/${minor}`;
  throw new BadValue(`invalid preempt type ${JSON.stringify(text)} (partition_prio or none)`);
}

const preemptMode = oneOf('preempt mode', ['OFF', 'CANCEL', 'REQUEUE', 'SUSPEND'] as const);

export const TopSchema = strictMap({
  cluster: convert(str, clusterName),
  control: v.optional(
    strictMap({
      address: v.optional(convert(str, address)),
      state_dir: v.optional(str),
      // Seconds without a heartbeat before a tsstepd's node is DOWN (Slurm's SlurmdTimeout).
      slurmd_timeout: v.optional(uint16),
      // Fan-out of launches through node daemons (Slurm's TreeWidth).
      tree_width: v.optional(uint16),
    }),
  ),
  auth: v.optional(
    strictMap({
      type: v.optional(convert(str, pluginType('auth'))),
      key_file: v.optional(str),
    }),
  ),
  plugins: v.optional(
    strictMap({
      select: v.optional(convert(str, pluginType('select'))),
      mpi_default: v.optional(convert(str, pluginType('mpi'))),
      job_container: v.optional(convert(str, pluginType('job_container'))),
      proctrack: v.optional(convert(str, pluginType('proctrack'))),
      sched: v.optional(convert(str, pluginType('sched'))),
      auth: v.optional(convert(str, pluginType('auth'))),
      // slurm.conf JobCompType and JobCompLoc (where jobcomp/filetxt writes, what jobcomp/script runs).
      jobcomp: v.optional(convert(str, pluginType('jobcomp'))),
      jobcomp_loc: v.optional(str),
      // A string is split on ":" like Slurm's PluginDir.
      plugin_dirs: v.optional(listOf((dir) => dir, ':')),
    }),
  ),
  // slurm.conf PreemptType (partition_prio or none) and PreemptMode.
  preempt: v.optional(
    strictMap({
      type: v.optional(convert(str, preemptType)),
      mode: v.optional(convert(str, preemptMode)),
    }),
  ),
  // The accounting store (tsacct): how long ended jobs' records are kept (PurgeJobAfter).
  accounting: v.optional(
    strictMap({
      purge_after: v.optional(convert(stringOrNumber, purgeAfter)),
    }),
  ),
  // Entries are checked one by one with NodeSchema / PartitionSchema.
  nodes: v.optional(v.array(v.unknown(), expected('a list of nodes'))),
  partitions: v.optional(v.array(v.unknown(), expected('a list of partitions'))),
  options: v.optional(anyMap('a mapping of plugin name to its options')),
  // slurm.conf JobAcctGatherFrequency: seconds between samples of the tasks' use (or task=N).
  acct_gather_frequency: v.optional(convert(stringOrNumber, parseGatherFrequency)),
  // slurm.conf TaskProlog and TaskEpilog: run around every task and batch script, as its user;
  // absolute paths, as Slurm wants them (a relative one fails at run time with Slurm's message).
  task_prolog: v.optional(str),
  task_epilog: v.optional(str),
});

export const NODE_STATES = ['UNKNOWN', 'IDLE', 'DOWN', 'DRAIN', 'FUTURE'] as const;

export const NodeSchema = strictMap({
  name: convert(str, hostnames),
  cpus: v.optional(uint16),
  sockets: v.optional(uint16),
  cores: v.optional(uint16),
  threads: v.optional(uint16),
  memory: v.optional(convert(stringOrNumber, memoryMB)),
  // slurm.conf TmpDisk: MB of temporary disk (what --tmp asks for).
  tmp_disk: v.optional(convert(stringOrNumber, memoryMB)),
  gres: v.optional(listOf(gres, ',')),
  features: v.optional(listOf(feature, ',')),
  weight: v.optional(int('an integer from 0 to 4294967294', 0, 0xfffffffe)),
  address: v.optional(convert(str, address)),
  state: v.optional(convert(str, oneOf('node state', NODE_STATES))),
  reason: v.optional(str),
});

export type NodeEntry = v.InferOutput<typeof NodeSchema>;

/** `ALL`, as in slurm.conf's `Nodes=ALL`. */
export const ALL_NODES = Symbol('ALL');

/** A partition name: Slurm reserves DEFAULT, and names appear in comma lists. */
function partitionName(text: string): string {
  if (!/^[^\s,:=]+$/.test(text) || text.toUpperCase() === 'DEFAULT') {
    throw new BadValue(`invalid partition name ${JSON.stringify(text)}`);
  }
  return text;
}

// slurm.conf spells booleans YES/NO; YAML has true/false. Both are taken.
const yesNo = convert(v.union([v.boolean(), v.string()], expected('true or false')), (value) => {
  if (typeof value === 'boolean') return value;
  const word = value.trim().toUpperCase();
  if (word !== 'YES' && word !== 'NO') {
    throw new BadValue(`expected true or false (or YES, NO), got ${describe(value)}`);
  }
  return word === 'YES';
});

function countOrUnlimited(value: string | number): number {
  if (typeof value === 'string' && /^(UNLIMITED|INFINITE)$/i.test(value.trim())) return INFINITE;
  const n = typeof value === 'number' ? value : /^\d+$/.test(value.trim()) ? Number(value) : NaN;
  if (!Number.isInteger(n) || n < 1 || n >= INFINITE) {
    throw new BadValue(`expected a positive integer or UNLIMITED, got ${describe(value)}`);
  }
  return n;
}

const OVERSUBSCRIBE_FORMS = 'NO, EXCLUSIVE, YES[:count] or FORCE[:count] (count 1 to 32767)';

const oversubscribe = convert(v.union([v.boolean(), v.string()], expected(OVERSUBSCRIBE_FORMS)), (value): OverSubscribeSetting => {
  if (typeof value === 'boolean') return value ? { oversubscribe: 'YES', shareCount: DEFAULT_SHARE_COUNT } : { oversubscribe: 'NO', shareCount: 1 };
  const setting = parseOverSubscribe(value);
  if (setting === undefined) throw new BadValue(`expected ${OVERSUBSCRIBE_FORMS}, got ${describe(value)}`);
  return setting;
});

export const PartitionSchema = strictMap({
  name: convert(str, partitionName),
  // A hostlist expression or ALL, or a list of hostlist expressions.
  nodes: v.optional(listOf((expr) => (expr.trim() === 'ALL' ? ALL_NODES : hostnames(expr)), null)),
  default: v.optional(yesNo),
  max_time: v.optional(convert(stringOrNumber, minutes)),
  default_time: v.optional(convert(stringOrNumber, minutes)),
  max_nodes: v.optional(convert(stringOrNumber, countOrUnlimited)),
  min_nodes: v.optional(int('an integer from 0 to 4294967294', 0, INFINITE - 1)),
  state: v.optional(convert(str, oneOf('partition state', ['UP', 'DOWN', 'DRAIN', 'INACTIVE'] as const))),
  oversubscribe: v.optional(oversubscribe),
  priority_tier: v.optional(int('an integer from 0 to 65533', 0, 65533)),
  preempt_mode: v.optional(convert(str, preemptMode)),
});

export type PartitionEntry = v.InferOutput<typeof PartitionSchema>;
export type TopEntry = v.InferOutput<typeof TopSchema>;
