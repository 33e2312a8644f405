// parseClusterYaml on small inline files: defaults, inference and normalisation, then the
// exact wording and position of problems the fixtures do not cover.
import { describe, expect, it } from 'vitest';
import { INFINITE } from '../../../src/core/slurm-constants.js';
import { parseClusterYaml } from '../../../src/config/parse.js';
import { problems } from './helpers.js';

const HEAD = 'cluster: demo\n';
const TAIL = 'partitions:\n  - name: p\n    nodes: ALL\n';
const parse = (text: string) => parseClusterYaml(text, 'c.yaml', { cwd: '/etc/tslurm' });
const nodes = (yaml: string) => parse(`${HEAD}nodes:\n${yaml}${TAIL}`).nodes;
const fails = (text: string) => problems(() => parse(text));

describe('normalisation', () => {
  it('plugin names become major/minor', () => {
    const c = parse(
      `${HEAD}plugins:\n  select: linear\n  mpi_default: pmi2\n  job_container: namespace/tmpfs\n  proctrack: proctrack/cgroup\n  sched: backfill\n` +
        `nodes: [{name: n1}]\n${TAIL}`,
    );
    expect(c.plugins).toMatchObject({
      select: 'select/linear',
      mpiDefault: 'mpi/pmi2',
      jobContainer: 'job_container/tmpfs',
      proctrack: 'proctrack/cgroup',
      sched: 'sched/backfill',
    });
  });

  it('paths are resolved against the file directory; a plugin_dirs string splits on ":"', () => {
    const c = parse(`${HEAD}auth: {type: hmac, key_file: key}\nplugins: {plugin_dirs: "./p:/abs/q"}\nnodes: [{name: n1}]\n${TAIL}`);
    expect(c.plugins.pluginDirs).toEqual(['/etc/tslurm/p', '/abs/q']);
    expect(c.auth).toEqual({ type: 'auth/hmac', keyFile: '/etc/tslurm/key' });
    expect(c.plugins.auth).toBe('auth/hmac');
  });

  it('auth.key_file reaches the auth plugin as its key_file option, beside its other options', () => {
    const c = parse(`${HEAD}auth: {type: hmac, key_file: key}\nnodes: [{name: n1}]\n${TAIL}options:\n  auth_hmac: {ttl: 60}\n`);
    expect(c.options).toEqual({ auth_hmac: { ttl: 60, key_file: '/etc/tslurm/key' } });
    expect(parse(`${HEAD}nodes: [{name: n1}]\n${TAIL}`).options).toEqual({});
  });

  it('control.address is kept and split', () => {
    const c = parse(`${HEAD}control: {address: "127.0.0.1:6817"}\nnodes: [{name: n1}]\n${TAIL}`);
    expect(c.control).toEqual({ address: '127.0.0.1:6817', host: '127.0.0.1', port: 6817 });
    const v6 = parse(`${HEAD}control: {address: "[::1]:6817"}\nnodes: [{name: n1}]\n${TAIL}`);
    expect(v6.control).toEqual({ address: '[::1]:6817', host: '::1', port: 6817 });
  });

  it('infers the CPU layout as slurm.conf does', () => {
    const [a, b, c, d] = nodes(
      '  - {name: a, cpus: 8}\n' +
        '  - {name: b, sockets: 2, cores: 4, threads: 2}\n' +
        '  - {name: c, cpus: 8, sockets: 2, cores: 4, threads: 2}\n' + // cpus = sockets*cores
        '  - {name: d, cpus: 16, cores: 4, threads: 2}\n', // sockets = 16 / (4*2)
    );
    expect(a).toMatchObject({ cpus: 8, sockets: 8, coresPerSocket: 1, threadsPerCore: 1 });
    expect(b).toMatchObject({ cpus: 16, sockets: 2, coresPerSocket: 4, threadsPerCore: 2 });
    expect(c).toMatchObject({ cpus: 8, sockets: 2, coresPerSocket: 4, threadsPerCore: 2 });
    expect(d).toMatchObject({ cpus: 16, sockets: 2, coresPerSocket: 4, threadsPerCore: 2 });
  });

  it("fills slurm.conf's node defaults", () => {
    expect(nodes('  - name: n1\n')[0]).toEqual({
      name: 'n1',
      cpus: 1,
      sockets: 1,
      coresPerSocket: 1,
      threadsPerCore: 1,
      realMemory: 1,
      gres: [],
      features: [],
      weight: 1,
      state: 'UNKNOWN',
    });
  });

  it('takes comma-separated gres and features, any-case states, and a reason', () => {
    const [n] = nodes('  - {name: n1, gres: "gpu:2,mps:100", features: "a, b", state: drain, reason: broken fan}\n');
    expect(n).toMatchObject({
      gres: [{ name: 'gpu', count: 2 }, { name: 'mps', count: 100 }],
      features: ['a', 'b'],
      state: 'DRAIN',
      reason: 'broken fan',
    });
  });

  it('gives the nodes of one entry consecutive ports', () => {
    const list = nodes('  - {name: "n[1-3]", address: "127.0.0.1:7000"}\n');
    expect(list.map((n) => [n.name, n.addr, n.port])).toEqual([
      ['n1', '127.0.0.1', 7000],
      ['n2', '127.0.0.1', 7001],
      ['n3', '127.0.0.1', 7002],
    ]);
  });

  it('orders partition nodes as the node table, each once', () => {
    const c = parse(`${HEAD}nodes: [{name: "n[1-3]"}]\npartitions:\n  - {name: p, nodes: [n3, "n[1-2]", n1]}\n`);
    expect(c.partitions[0]!.nodes).toEqual(['n1', 'n2', 'n3']);
  });

  it('with no default partition, the first one is the default', () => {
    const c = parse(`${HEAD}nodes: [{name: n1}]\npartitions:\n  - {name: a, nodes: n1}\n  - {name: b, nodes: n1}\n`);
    expect(c.partitions.map((p) => p.isDefault)).toEqual([true, false]);
  });

  it('takes slurm.conf spellings for partition values', () => {
    const c = parse(
      `${HEAD}nodes: [{name: n1}]\npartitions:\n` +
        '  - {name: a, nodes: n1, default: "NO", oversubscribe: true, max_nodes: UNLIMITED, min_nodes: 1, state: drain}\n' +
        '  - {name: b, nodes: n1, default: YES, oversubscribe: exclusive, max_nodes: 4, max_time: "2-00:00:00", default_time: "30"}\n',
    );
    expect(c.partitions[0]).toMatchObject({ isDefault: false, oversubscribe: 'YES', maxNodes: INFINITE, minNodes: 1, state: 'DRAIN' });
    expect(c.partitions[1]).toMatchObject({ isDefault: true, oversubscribe: 'EXCLUSIVE', maxNodes: 4, maxTime: 2880, defaultTime: 30 });
  });

  it('keeps the count of OverSubscribe FORCE:N and YES:N (4 when not given)', () => {
    const c = parse(`${HEAD}nodes: [{name: n1}]\npartitions:\n  - {name: a, nodes: n1, oversubscribe: "FORCE:8"}\n  - {name: b, nodes: n1, oversubscribe: YES}\n`);
    expect(c.partitions.map((p) => [p.oversubscribe, p.shareCount])).toEqual([['FORCE', 8], ['YES', 4]]);
  });

  it('takes -1 as UNLIMITED, as Slurm does', () => {
    const c = parse(`${HEAD}nodes: [{name: n1}]\npartitions:\n  - {name: a, nodes: n1, max_time: -1, default_time: "-1"}\n`);
    expect(c.partitions[0]).toMatchObject({ maxTime: INFINITE, defaultTime: INFINITE });
  });

  it('keeps per-plugin option blocks raw (and frozen)', () => {
    const c = parse(`${HEAD}nodes: [{name: n1}]\n${TAIL}options:\n  job_container_tmpfs:\n    base_path: /tmp/jc\n    dirs: [/tmp, /dev/shm]\n`);
    expect(c.options).toEqual({ job_container_tmpfs: { base_path: '/tmp/jc', dirs: ['/tmp', '/dev/shm'] } });
    expect(Object.isFrozen(c.options['job_container_tmpfs'])).toBe(true);
  });

  it('lower-cases the cluster name (as Slurm does with ClusterName)', () => {
    expect(parse(`cluster: Demo\nnodes: [{name: n1}]\n${TAIL}`).clusterName).toBe('demo');
  });

  it('supports YAML merge keys for shared node settings', () => {
    const list = nodes('  - &big {name: a, cpus: 64, memory: 256G}\n  - {<<: *big, name: b}\n');
    expect(list.map((n) => [n.name, n.cpus, n.realMemory])).toEqual([
      ['a', 64, 262144],
      ['b', 64, 262144],
    ]);
  });
});

describe('problems and their positions', () => {
  it('a missing required key points at the mapping that lacks it', async () => {
    expect(await fails('nodes:\n  - cpus: 4\npartitions:\n  - name: p\n    nodes: ALL\n')).toEqual([
      'c.yaml:1:1: missing required key "cluster"',
      'c.yaml:2:5: nodes.0: missing required key "name"',
    ]);
  });

  it('an empty value points at its key', async () => {
    expect(await fails(`${HEAD}nodes:\n  - name: n1\n    memory:\n${TAIL}`)).toEqual([
      'c.yaml:4:5: nodes.0.memory: expected a string or a number, got an empty value',
    ]);
  });

  it('an OverSubscribe count out of range points at its value', async () => {
    expect(await fails(`${HEAD}nodes: [{name: n1}]\npartitions:\n  - name: p\n    oversubscribe: FORCE:0\n`)).toEqual([
      'c.yaml:5:20: partitions.0.oversubscribe: expected NO, EXCLUSIVE, YES[:count] or FORCE[:count] (count 1 to 32767), got "FORCE:0"',
    ]);
  });

  it('a document that is not a mapping', async () => {
    expect(await fails('- a\n- b\n')).toEqual(['c.yaml:1:1: expected a mapping with cluster, nodes and partitions; got a list']);
  });

  it('several documents in one file', async () => {
    expect(await fails(`${HEAD}---\n${HEAD}`)).toEqual([
      'c.yaml:2:1: Source contains multiple documents; please use YAML.parseAllDocuments()',
    ]);
  });

  it('unknown top-level keys, each with a hint when one is close', async () => {
    expect(await fails(`${HEAD}nodse: []\nnodes: [{name: n1}]\n${TAIL}colour: red\n`)).toEqual([
      'c.yaml:2:1: nodse: unknown key; did you mean "nodes"?',
      'c.yaml:7:1: colour: unknown key',
    ]);
  });

  it('a bad item of a list is pointed at', async () => {
    expect(await fails(`${HEAD}nodes:\n  - name: n1\n    features: [ok, 7, "a b"]\n${TAIL}`)).toEqual([
      'c.yaml:4:20: nodes.0.features.1: expected a string, got 7',
      'c.yaml:4:23: nodes.0.features.2: invalid feature "a b"',
    ]);
  });

  it('limits that contradict each other', async () => {
    const text = `${HEAD}nodes: [{name: n1}]\npartitions:\n  - {name: p, nodes: n1, max_time: 60, default_time: 90, max_nodes: 2, min_nodes: 3}\n`;
    expect(await fails(text)).toEqual([
      'c.yaml:4:54: partitions.0.default_time: default_time (90 min) exceeds max_time (60 min)',
      'c.yaml:4:83: partitions.0.min_nodes: min_nodes (3) exceeds max_nodes (2)',
    ]);
  });

  it('auth given twice, differently', async () => {
    expect(await fails(`${HEAD}auth: {type: hmac}\nplugins: {auth: none}\nnodes: [{name: n1}]\n${TAIL}`)).toEqual([
      'c.yaml:3:17: plugins.auth: auth/none contradicts auth.type (auth/hmac); give the auth plugin in one place',
    ]);
  });

  it('the key file given as a plugin option', async () => {
    expect(await fails(`${HEAD}auth: {type: hmac}\nnodes: [{name: n1}]\n${TAIL}options:\n  auth_hmac: {key_file: k}\n`)).toEqual([
      'c.yaml:8:25: options.auth_hmac.key_file: give the key file as auth.key_file',
    ]);
  });

  it('a reserved or duplicate partition name', async () => {
    const text = `${HEAD}nodes: [{name: n1}]\npartitions:\n  - {name: DEFAULT, nodes: n1}\n  - {name: p, nodes: n1}\n  - {name: p, nodes: n1}\n`;
    expect(await fails(text)).toEqual([
      'c.yaml:4:12: partitions.0.name: invalid partition name "DEFAULT"',
      'c.yaml:6:12: partitions.2.name: partition p is already defined by partitions.1',
    ]);
  });

  it('no "unknown node" guesses while a node entry is broken', async () => {
    const text = `${HEAD}nodes:\n  - {name: n1, cpus: x}\npartitions:\n  - {name: p, nodes: n1}\n`;
    expect(await fails(text)).toEqual(['c.yaml:3:22: nodes.0.cpus: expected a positive integer, got "x"']);
  });

  it('a list or a scalar where a mapping belongs', async () => {
    expect(await fails(`${HEAD}control: 5\nnodes: [[a, b]]\n${TAIL}options: [1]\n`)).toEqual([
      'c.yaml:2:10: control: expected a mapping, got 5',
      'c.yaml:3:9: nodes.0: expected a mapping, got a list',
      'c.yaml:7:10: options: expected a mapping of plugin name to its options, got a list',
    ]);
  });

  it('a node named twice in one entry', async () => {
    expect(await fails(`${HEAD}nodes:\n  - name: "n[1-3],n2"\n${TAIL}`)).toEqual([
      'c.yaml:3:11: nodes.0.name: node n2 is listed twice in this entry',
    ]);
  });

  it('a bad hostlist', async () => {
    expect(await fails(`${HEAD}nodes:\n  - name: "n[1-3"\n${TAIL}`)).toEqual(['c.yaml:3:11: nodes.0.name: invalid hostlist "n[1-3"']);
  });

  it('no nodes at all', async () => {
    expect(await fails(`${HEAD}${TAIL}`)).toEqual(['c.yaml:1:1: nodes: no nodes defined (at least one is required)']);
  });
});

describe('numbers out of range and files nested too deeply', () => {
  it('a memory size or a CPU count past what Slurm keeps is refused where it is written', async () => {
    const node = (fields: string) => fails(`${HEAD}nodes:\n  - name: n1\n    ${fields}\n${TAIL}`);
    expect(await node('memory: 1e99')).toEqual(['c.yaml:4:13: nodes.0.memory: memory size 1e+99 is out of range (at most 9007199254740991 MB)']);
    expect(await node('memory: .inf')).toEqual([
      'c.yaml:4:13: nodes.0.memory: invalid memory size Infinity (expected megabytes, or a number with a K, M, G or T suffix)',
    ]);
    expect(await node('cpus: 100000000')).toEqual(['c.yaml:4:11: nodes.0.cpus: 100000000 is out of range (at most 65535)']);
    expect(await node('threads: 65536')).toEqual(['c.yaml:4:14: nodes.0.threads: 65536 is out of range (at most 65535)']);
    expect(await node('sockets: 1000\n    cores: 1000')).toEqual([
      'c.yaml:4:14: nodes.0.sockets: sockets*cores*threads (1000000) is more than 65535 CPUs',
    ]);
    expect(await fails(`${HEAD}control: {tree_width: 1e9}\nnodes: [{name: n1}]\n${TAIL}`)).toEqual([
      'c.yaml:2:23: control.tree_width: 1000000000 is out of range (at most 65535)',
    ]);
    expect(await fails(`${HEAD}nodes: [{name: n1}]\n${TAIL}    min_nodes: 1e12\n`)).toEqual([
      'c.yaml:6:16: partitions.0.min_nodes: expected an integer from 0 to 4294967294, got 1000000000000',
    ]);
  });

  it('deep nesting (100,000 flow levels, 5,000 block levels) is one line naming the file and where', async () => {
    const flow = `${HEAD}x: ${'['.repeat(100_000)}${']'.repeat(100_000)}\n`;
    const block = `${HEAD}x:\n${Array.from({ length: 5_000 }, (_, i) => `${' '.repeat(i + 1)}-\n`).join('')}`;
    for (const text of [flow, block]) {
      const lines = await fails(text);
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(/^c\.yaml:\d+:\d+: collections nested too deeply$/);
    }
  });
});
