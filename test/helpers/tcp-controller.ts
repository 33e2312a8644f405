// A controller listening on TCP with auth/hmac, for tests of what reaches it over the network:
// a key file, a cluster file with one node (emulated, or served by a real `tsstepd`), and
// `tsctld -D` as a real process with its log in a file. It can be restarted on the same state
// directory, and its memory read from /proc.
import { execa, type ResultPromise } from 'execa';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePorts } from './daemon-cluster.js';
import { openLog } from './log-file.js';
import { repoRoot, runBin, type RunOptions } from './run-bin.js';

export interface TcpController {
  root: string;
  port: number;
  clusterFile: string;
  /** Writes a cluster file like the controller's but naming another port (a proxy's). */
  clusterFileFor(port: number): string;
  env: Record<string, string | undefined>;
  pid(): number;
  run(bin: string, args: readonly string[], options?: RunOptions): ReturnType<typeof runBin>;
  log(): string;
  /** The node daemon's log (with `nodeDaemon`). */
  nodeLog(): string;
  /** VmRSS and VmHWM of the controller, in kB. */
  memory(): { rss: number; hwm: number };
  alive(): boolean;
  until(check: () => Promise<boolean> | boolean, ms?: number): Promise<void>;
  /** SIGKILLs the controller and starts it again on the same state directory. */
  restart(): Promise<void>;
  stop(): Promise<void>;
}

/** `nodeDaemon`: node tn1 is served by a tsstepd (started once the controller listens). */
export async function startTcpController(extraEnv: Record<string, string> = {}, nodeDaemon = false): Promise<TcpController> {
  const root = mkdtempSync(path.join(tmpdir(), 'tslurm-tcp-'));
  const work = path.join(root, 'work');
  mkdirSync(work);
  const keyFile = path.join(root, 'key');
  writeFileSync(keyFile, randomBytes(32));
  chmodSync(keyFile, 0o600);
  const [port, nodePort] = await freePorts(2);
  const clusterText = (p: number): string =>
    [
      'cluster: tcp',
      'control:',
      `  address: 127.0.0.1:${p}`,
      `  state_dir: ${path.join(root, 'state')}`,
      // Heartbeats every second: a daemon notices a restarted controller at its next one.
      '  slurmd_timeout: 3',
      `auth: { type: auth/hmac, key_file: ${keyFile} }`,
      'nodes:',
      '  - name: tn1',
      '    cpus: 2',
      '    memory: 1000',
      ...(nodeDaemon ? [`    address: 127.0.0.1:${nodePort}`] : []),
      'partitions:',
      '  - name: debug',
      '    nodes: tn1',
      '',
    ].join('\n');
  const clusterFile = path.join(root, 'cluster.yaml');
  writeFileSync(clusterFile, clusterText(port!));
  const env = { TSLURM_CONF: clusterFile, TSLURM_STATE_DIR: undefined, TSLURM_KILL_WAIT: '2', NO_COLOR: '1', ...extraEnv };
  const logFile = path.join(root, 'tsctld.log');
  const nodeLogFile = path.join(root, 'tsstepd.log');
  let child: ResultPromise | undefined;
  let stepd: ResultPromise | undefined;
  const controller: TcpController = {
    root,
    port: port!,
    clusterFile,
    clusterFileFor: (p) => {
      const file = path.join(root, `cluster-${p}.yaml`);
      writeFileSync(file, clusterText(p));
      return file;
    },
    env,
    pid: () => child!.pid!,
    run: (bin, args, options = {}) => runBin(bin, args, { cwd: work, ...options, env: { ...env, ...options.env } }),
    log: () => readLog(logFile),
    nodeLog: () => readLog(nodeLogFile),
    memory: () => {
      const status = readFileSync(`/proc/${child!.pid}/status`, 'utf8');
      const kb = (field: string): number => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
      return { rss: kb('VmRSS'), hwm: kb('VmHWM') };
    },
    alive: () => {
      try {
        process.kill(child!.pid!, 0);
        return child!.exitCode === null;
      } catch {
        return false;
      }
    },
    until: async (check, ms = 20_000) => {
      const end = Date.now() + ms;
      while (!(await check())) {
        if (Date.now() > end) throw new Error('condition not reached in time');
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    },
    restart: async () => {
      child?.kill('SIGKILL');
      await child?.catch(() => undefined);
      await start();
    },
    stop: async () => {
      stepd?.kill('SIGTERM');
      child?.kill('SIGTERM');
      await Promise.all([child?.catch(() => undefined), stepd?.catch(() => undefined)]);
    },
  };
  const start = async (): Promise<void> => {
    const starts = (controller.log().match(/listening on/g) ?? []).length;
    const log = openLog(logFile);
    try {
      child = execa(process.execPath, [path.join(repoRoot, 'bin', 'tsctld.js'), '-D', '-v'], { env, cwd: work, reject: false, stdout: log.fd, stderr: log.fd } as never) as unknown as ResultPromise;
    } finally {
      log.close();
    }
    await controller.until(() => (controller.log().match(/listening on/g) ?? []).length > starts);
  };
  await start();
  if (nodeDaemon) {
    const log = openLog(nodeLogFile);
    try {
      stepd = execa(process.execPath, [path.join(repoRoot, 'bin', 'tsstepd.js'), '--node', 'tn1', '-v'], { env, cwd: work, reject: false, stdout: log.fd, stderr: log.fd } as never) as unknown as ResultPromise;
    } finally {
      log.close();
    }
    await controller.until(() => controller.log().includes('node tn1 registered'));
  }
  return controller;
}

function readLog(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return '';
  }
}
