// Cluster YAML documents for fuzzing (issue 16): the shape of DESIGN.md §6 with each value
// drawn from good ones, wrong ones (types, ranges, non-finite numbers) and hostile ones, then
// sometimes broken as text (a character cut or inserted, a line doubled, the end cut off).
import fc from 'fast-check';
import { stringify } from 'yaml';

const wrong = fc.constantFrom<unknown>(
  null, true, -1, 0, 1e99, -1e99, Number.POSITIVE_INFINITY, Number.NaN, 65536, 4294967296, 2 ** 53, 1.5, '', ' ', 'abc',
  '1e99', '-', '%', [], {}, [1, 2], { a: 1 }, 'x'.repeat(300), 'ü', 'node[', 'n[1-99999999]',
);

/**
 * A value for one key: usually a good one, sometimes an odd one for this key, rarely anything
 * at all: with some forty keys, about a fifth of the documents load (the rest fail on a value, a rule or damage).
 */
function field(good: fc.Arbitrary<unknown>, ...odd: unknown[]): fc.Arbitrary<unknown> {
  return fc.oneof(
    { arbitrary: good, weight: 150 },
    { arbitrary: odd.length > 0 ? fc.constantFrom(...odd) : wrong, weight: 1 },
    { arbitrary: wrong, weight: 1 },
  );
}

const count = fc.integer({ min: 1, max: 8 });

// A node entry; its name gets a prefix of its own (nodes.N) so that entries do not clash,
// and `cpus`, when given, is usually the product of the layout (slurm.conf's rule).
const node = fc
  .record(
    {
      name: field(fc.constantFrom('[1-2]', '1', '[01-04]', '[1-3],x', 'a,b'), 'n[1-700]', 'n[', 'n[2-1]', ''),
      sockets: field(fc.integer({ min: 1, max: 4 })),
      cores: field(fc.integer({ min: 1, max: 8 })),
      threads: field(fc.integer({ min: 1, max: 2 })),
      cpus: fc.oneof({ arbitrary: fc.constant('product'), weight: 8 }, { arbitrary: field(count), weight: 1 }),
      memory: field(fc.oneof(fc.integer({ min: 1, max: 1_000_000 }), fc.constantFrom('16G', '512M', '1T', '2048'))),
      gres: field(fc.constantFrom(['gpu:2'], 'gpu:1,fpga', ['gpu:a100:2'], [])),
      features: field(fc.constantFrom(['avx2'], 'a,b', [])),
      weight: field(fc.integer({ min: 0, max: 100 })),
      address: field(fc.constantFrom('127.0.0.1', '127.0.0.1:7001', '[::1]:7001'), 'host:99999', 'a b'),
      state: field(fc.constantFrom('IDLE', 'down', 'DRAIN', 'FUTURE', 'UNKNOWN')),
      reason: field(fc.constantFrom('maintenance', '')),
    },
    { requiredKeys: ['name'] },
  )
  .map((entry) => {
    const { cpus, ...rest } = entry as Record<string, unknown>;
    if (cpus !== 'product') return cpus === undefined ? rest : { ...rest, cpus };
    const layout = [rest.sockets ?? 1, rest.cores ?? 1, rest.threads ?? 1];
    return layout.every((n) => typeof n === 'number') ? { ...rest, cpus: (layout as number[]).reduce((a, b) => a * b) } : rest;
  });

const nodeList = fc.array(node, { minLength: 1, maxLength: 4 }).map((nodes) =>
  nodes.map((entry, i) => {
    const name = (entry as { name?: unknown }).name;
    // '[1-3],x' → 'n0[1-3],n0x': each comma-separated part gets the entry's prefix.
    if (typeof name !== 'string' || !/^[[\da-z]/.test(name)) return entry;
    return { ...entry, name: name.split(',').map((part) => `n${i}${part}`).join(',') };
  }),
);

const partition = fc.record(
  {
    name: field(fc.constantFrom('debug', 'batch', 'gpu'), 'DEFAULT', 'a,b', 'debug'),
    nodes: field(fc.constantFrom('ALL', ['ALL']), 'n[1-2]', 'nosuch', ['n0[1-2]', 'n1a']),
    default: field(fc.constantFrom(true, false, 'YES', 'no')),
    max_time: field(fc.constantFrom('UNLIMITED', '1:00:00', 120, -1), '2-00:00:00', 5),
    default_time: field(fc.constantFrom(10, '0:30:00', '60'), 'UNLIMITED', 1000),
    max_nodes: field(fc.oneof(count, fc.constant('UNLIMITED'))),
    min_nodes: field(fc.integer({ min: 0, max: 4 })),
    state: field(fc.constantFrom('UP', 'DOWN', 'DRAIN', 'INACTIVE')),
    oversubscribe: field(fc.constantFrom('NO', 'YES', 'EXCLUSIVE', true), 'FORCE:4', 'SOMETIMES'),
    priority_tier: field(fc.integer({ min: 0, max: 10 })),
    preempt_mode: field(fc.constantFrom('OFF', 'CANCEL', 'REQUEUE', 'SUSPEND')),
  },
  { requiredKeys: ['name'] },
);

// Partition names get the entry's index, so that two entries do not clash by chance.
const partitionList = fc.array(partition, { minLength: 1, maxLength: 3 }).map((parts) =>
  parts.map((entry, i) => {
    const name = (entry as { name?: unknown }).name;
    return typeof name === 'string' && /^[a-z]+$/.test(name) && i > 0 ? { ...entry, name: `${name}${i}` } : entry;
  }),
);

const plugin = (major: string, minors: string[]) => field(fc.constantFrom(...minors.map((m) => `${major}/${m}`), ...minors), `${major}/nosuch`, 'other/none');

const top = fc.record(
  {
    cluster: field(fc.constantFrom('demo', 'Demo.1'), 'a/b', '-x'),
    control: field(
      fc.record(
        {
          address: field(fc.constantFrom('127.0.0.1:6817', 'localhost', '[::1]:1'), 'host:0', 'x:y:z'),
          state_dir: field(fc.constantFrom('/tmp/tslurm-fuzz-state', 'state')),
          slurmd_timeout: field(fc.integer({ min: 1, max: 600 })),
          tree_width: field(fc.integer({ min: 1, max: 100 })),
        },
        { requiredKeys: [] },
      ),
    ),
    auth: field(fc.record({ type: plugin('auth', ['none', 'hmac']), key_file: field(fc.constantFrom('key', '/nonexistent/key')) }, { requiredKeys: [] })),
    plugins: field(
      fc.record(
        {
          select: plugin('select', ['linear', 'cons_tres', 'cons_res', 'cray_aries']),
          mpi_default: plugin('mpi', ['none', 'pmi2', 'pmix']),
          job_container: plugin('job_container', ['none', 'tmpfs']),
          proctrack: plugin('proctrack', ['pgid', 'cgroup', 'linuxproc']),
          sched: plugin('sched', ['builtin', 'backfill']),
          plugin_dirs: field(fc.constantFrom(['./p'], '/a:/b', [])),
        },
        { requiredKeys: [] },
      ),
    ),
    preempt: field(fc.record({ type: field(fc.constantFrom('partition_prio', 'none')), mode: field(fc.constantFrom('OFF', 'SUSPEND')) }, { requiredKeys: [] })),
    nodes: field(nodeList),
    partitions: field(partitionList),
    options: field(fc.dictionary(fc.constantFrom('select_cons_tres', 'sched_backfill', 'auth_hmac', 'mpi_pmi2'), fc.dictionary(fc.string({ maxLength: 6 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 2 }), { maxKeys: 2 })),
  },
  { requiredKeys: ['cluster', 'nodes', 'partitions'] },
);

// Text-level damage: what an editor slip or a cut-off copy leaves behind.
const damage = fc.oneof(
  { arbitrary: fc.constant((t: string) => t), weight: 12 },
  { arbitrary: fc.nat().map((i) => (t: string) => t.slice(0, i % (t.length + 1))), weight: 1 },
  { arbitrary: fc.nat().map((i) => (t: string) => t.slice(0, i % (t.length + 1)) + t.slice((i % (t.length + 1)) + 1)), weight: 1 },
  {
    arbitrary: fc
      .tuple(fc.nat(), fc.constantFrom(':', '-', '[', '{', '}', '&a ', '*a', '!!binary ', '\t', '\n', '"', "'", '<<: *x', '%YAML 9\n', '---\n', '? '))
      .map(([i, ins]) => (t: string) => t.slice(0, i % (t.length + 1)) + ins + t.slice(i % (t.length + 1))),
    weight: 2,
  },
  {
    arbitrary: fc.nat().map((i) => (t: string) => {
      const lines = t.split('\n');
      const at = i % lines.length;
      return [...lines.slice(0, at + 1), lines[at], ...lines.slice(at + 1)].join('\n');
    }),
    weight: 1,
  },
);

/** Structurally plausible cluster documents, sometimes damaged as text. */
export const clusterYaml: fc.Arbitrary<string> = fc
  .tuple(top, damage)
  .map(([doc, hurt]) => hurt(stringify(doc, { aliasDuplicateObjects: false })));

/** Documents with only good values and no damage: they should load. */
export const goodClusterYaml: fc.Arbitrary<string> = fc
  .record({
    nodes: fc.array(fc.record({ cpus: count, memory: fc.integer({ min: 100, max: 64_000 }) }), { minLength: 1, maxLength: 3 }),
    select: fc.constantFrom('select/linear', 'select/cons_tres'),
    sched: fc.constantFrom('sched/builtin', 'sched/backfill'),
    maxTime: fc.constantFrom('UNLIMITED', '1:00:00', 60),
  })
  .map((g) =>
    stringify({
      cluster: 'fuzz',
      plugins: { select: g.select, sched: g.sched },
      nodes: g.nodes.map((n, i) => ({ name: `g${i}n[1-2]`, cpus: n.cpus, memory: n.memory })),
      partitions: [{ name: 'p', nodes: 'ALL', default: true, max_time: g.maxTime }],
    }),
  );

const EXTREMES = [0, -0, -1, 1.5, 65535, 65536, 4294967294, 4294967295, 2 ** 31, 2 ** 53, 2 ** 53 + 2, 1e99, -1e99, Infinity, -Infinity, NaN];

/** Where a number goes in a cluster file: [section, key]. */
const NUMERIC_KEYS = [
  ['node', 'cpus'], ['node', 'sockets'], ['node', 'cores'], ['node', 'threads'], ['node', 'memory'], ['node', 'weight'],
  ['partition', 'max_time'], ['partition', 'default_time'], ['partition', 'max_nodes'], ['partition', 'min_nodes'],
  ['partition', 'priority_tier'], ['control', 'slurmd_timeout'], ['control', 'tree_width'],
] as const;

/** A good document with one numeric key set to an extreme value (0, 2^53, 1e99, .inf, .nan, ...). */
export const extremeNumberYaml: fc.Arbitrary<string> = fc
  .tuple(fc.constantFrom(...NUMERIC_KEYS), fc.constantFrom(...EXTREMES))
  .map(([[section, key], value]) => {
    const node: Record<string, unknown> = { name: 'n[1-2]', sockets: 1, cores: 2, threads: 1, memory: 1000 };
    const partition: Record<string, unknown> = { name: 'p', nodes: 'ALL' };
    const control: Record<string, unknown> = {};
    // cpus alone gives the layout, so that the others do not contradict it.
    if (key === 'cpus') for (const k of ['sockets', 'cores', 'threads']) delete node[k];
    ({ node, partition, control })[section][key] = value;
    return stringify({ cluster: 'extreme', control, nodes: [node], partitions: [partition] });
  });
