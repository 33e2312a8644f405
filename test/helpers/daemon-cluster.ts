// A multi-node cluster of real daemons on loopback for a test: a key file (auth/hmac), a
// cluster file naming free ports, `tsctld -D` and one `tsstepd` per node, each a real process
// with its own log. Commands run against it with TSLURM_CONF pointing at its file.
import { execa, type ResultPromise } from 'execa';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { openLog } from './log-file.js';
import { repoRoot, runBin, type RunOptions } from './run-bin.js';

export interface DaemonCluster {
  root: string;
  clusterFile: string;
  keyFile: string;
  ctldPort: number;
  nodes: string[];
  run(bin: string, args: readonly string[], options?: RunOptions): ReturnType<typeof runBin>;
  /** Starts node `i`'s daemon (again); resolves once it registered (tsinfo shows it up). */
  startNode(i: number): Promise<void>;
  /** SIGKILLs node `i`'s daemon. */
  killNode(i: number): void;
  log(name: 'tsctld' | string): string;
  until(check: () => Promise<boolean> | boolean, ms?: number): Promise<void>;
  /** Node states as `tsinfo -N -h -o '%N %t'` prints them. */
  states(): Promise<Record<string, string>>;
  stop(): Promise<void>;
}

export interface DaemonClusterOptions {
  nodes: number;
  treeWidth?: number;
  /**
   * slurmd_timeout (default 10 s): with 3 s, a daemon whose heartbeats the loaded machine held
   * up was set DOWN mid-test (6 runs in 105 of tsstepd.test.ts's cluster at load 9-20).
   */
  slurmdTimeout?: number;
  auth?: 'auth/hmac' | 'auth/none';
  extraYaml?: string;
  /** Where the controller listens (default 127.0.0.1). */
  ctldHost?: string;
  /** Each node's address (default 127.0.0.1). */
  nodeHosts?: string[];
  /** A command prefix for node `i`'s daemon, e.g. `ip netns exec ns1`. */
  nodePrefix?: (i: number) => string[];
  /** More tsstepd arguments for node `i`. */
  nodeArgs?: (i: number) => string[];
  /** Nodes with no daemon (en1, en2, ...: no address, emulated on the state directory's step host), each after its dn (at most `nodes`). */
  emulated?: number;
}

export async function freePorts(count: number): Promise<number[]> {
  const servers = await Promise.all(
    Array.from({ length: count }, () => new Promise<net.Server>((resolve) => {
      const server = net.createServer();
      server.listen(0, '127.0.0.1', () => resolve(server));
    })),
  );
  const ports = servers.map((s) => (s.address() as net.AddressInfo).port);
  await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))));
  return ports;
}

export async function startDaemonCluster(options: DaemonClusterOptions): Promise<DaemonCluster> {
  const root = mkdtempSync(path.join(tmpdir(), 'tslurm-daemons-'));
  const work = path.join(root, 'work');
  mkdirSync(work);
  const keyFile = path.join(root, 'key');
  writeFileSync(keyFile, randomBytes(32));
  chmodSync(keyFile, 0o600);
  const [ctldPort, ...nodePorts] = await freePorts(options.nodes + 1);
  const nodes = nodePorts.map((_, i) => `dn${i + 1}`);
  const emulated = Array.from({ length: options.emulated ?? 0 }, (_, i) => `en${i + 1}`);
  const clusterFile = path.join(root, 'cluster.yaml');
  writeFileSync(
    clusterFile,
    [
      'cluster: daemons',
      'control:',
      `  address: ${options.ctldHost ?? '127.0.0.1'}:${ctldPort}`,
      `  state_dir: ${path.join(root, 'state')}`,
      `  slurmd_timeout: ${options.slurmdTimeout ?? 10}`,
      `  tree_width: ${options.treeWidth ?? 50}`,
      `auth: { type: ${options.auth ?? 'auth/hmac'}, key_file: ${keyFile} }`,
      'nodes:',
      ...nodes.flatMap((name, i) => [
        `  - name: ${name}`,
        '    cpus: 2',
        '    memory: 1000',
        `    address: ${options.nodeHosts?.[i] ?? '127.0.0.1'}:${nodePorts[i]}`,
        ...(emulated[i] !== undefined ? [`  - name: ${emulated[i]}`, '    cpus: 2', '    memory: 1000'] : []),
      ]),
      'partitions:',
      '  - name: debug',
      `    nodes: ${[...(emulated.length > 0 ? [`en[1-${emulated.length}]`] : []), `dn[1-${options.nodes}]`].join(',')}`,
      options.extraYaml ?? '',
    ].join('\n'),
  );
  const env = { TSLURM_CONF: clusterFile, TSLURM_STATE_DIR: undefined, TSLURM_KILL_WAIT: '2', NO_COLOR: '1' };
  const processes = new Map<string, ResultPromise>();
  const start = (name: string, bin: string, args: string[], prefix: string[] = []): void => {
    const command = [...prefix, process.execPath, path.join(repoRoot, 'bin', `${bin}.js`), ...args];
    const log = openLog(path.join(root, `${name}.log`));
    try {
      const child = execa(command[0]!, command.slice(1), { env, cwd: work, reject: false, stdout: log.fd, stderr: log.fd } as never) as unknown as ResultPromise;
      processes.set(name, child);
    } finally {
      log.close();
    }
  };
  const cluster: DaemonCluster = {
    root,
    clusterFile,
    keyFile,
    ctldPort: ctldPort!,
    nodes,
    run: (bin, args, runOptions = {}) => runBin(bin, args, { cwd: work, ...runOptions, env: { ...env, ...runOptions.env } }),
    startNode: async (i) => {
      const registered = new RegExp(`node ${nodes[i]!} registered`, 'g');
      const before = (cluster.log('tsctld').match(registered) ?? []).length;
      start(nodes[i]!, 'tsstepd', ['--node', nodes[i]!, '-v', ...(options.nodeArgs?.(i) ?? [])], options.nodePrefix?.(i));
      await cluster.until(() => (cluster.log('tsctld').match(registered) ?? []).length > before);
    },
    killNode: (i) => processes.get(nodes[i]!)?.kill('SIGKILL'),
    log: (name) => {
      try {
        return readFileSync(path.join(root, `${name}.log`), 'utf8');
      } catch {
        return '';
      }
    },
    until: async (check, ms = 20_000) => {
      const end = Date.now() + ms;
      while (!(await check())) {
        if (Date.now() > end) throw new Error('condition not reached in time');
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    },
    states: async () => {
      const r = await cluster.run('tsinfo', ['-N', '-h', '-o', '%N %t']);
      return Object.fromEntries(r.stdout.trim().split('\n').filter(Boolean).map((line) => line.split(' ') as [string, string]));
    },
    stop: async () => {
      for (const child of processes.values()) child.kill('SIGTERM');
      await Promise.all([...processes.values()].map((child) => child.catch(() => undefined)));
    },
  };
  start('tsctld', 'tsctld', ['-D', '-v']);
  await cluster.until(() => cluster.log('tsctld').includes('listening on'));
  for (const [i, name] of nodes.entries()) start(name, 'tsstepd', ['--node', name, '-v', ...(options.nodeArgs?.(i) ?? [])], options.nodePrefix?.(i));
  await cluster.until(async () => Object.values(await cluster.states()).filter((s) => s === 'idle').length === nodes.length + emulated.length);
  return cluster;
}
