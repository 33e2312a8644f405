// Daemon mode against embedded mode, measured in the same run: `tsrun -N16 -n256 true` across
// 16 local tsstepd daemons (controller and daemons on loopback, auth/hmac, default tree width,
// and width 4 so launches are forwarded) against the same step on the same 16 nodes emulated
// inside tsrun. Prints ratios; never passes or fails.
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { pairedMedians, printRatio } from './lib.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const bin = (name) => path.join(here, '..', 'bin', `${name}.js`);
const node = process.execPath;
const runs = Number(process.env.BENCH_RUNS ?? 10);
const NODES = 16;

async function freePorts(count) {
  const servers = await Promise.all(
    Array.from({ length: count }, () => new Promise((resolve) => {
      const server = net.createServer();
      server.listen(0, '127.0.0.1', () => resolve(server));
    })),
  );
  const ports = servers.map((s) => s.address().port);
  await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))));
  return ports;
}

function clusterYaml(name, nodes, extra) {
  return [`cluster: ${name}`, ...extra.top, 'nodes:', ...nodes.flatMap((n, i) => [`  - name: ${n}`, '    cpus: 16', '    memory: 4000', ...extra.node(i)]), 'partitions:', `  - name: debug`, `    nodes: bn[1-${NODES}]`].join('\n');
}

async function startDaemons(dir, treeWidth) {
  const key = path.join(dir, 'key');
  writeFileSync(key, randomBytes(32));
  chmodSync(key, 0o600);
  const [ctld, ...ports] = await freePorts(NODES + 1);
  const names = ports.map((_, i) => `bn${i + 1}`);
  const file = path.join(dir, `daemons-${treeWidth}.yaml`);
  writeFileSync(
    file,
    clusterYaml('bench', names, {
      top: ['control:', `  address: 127.0.0.1:${ctld}`, `  state_dir: ${path.join(dir, `state-${treeWidth}`)}`, `  tree_width: ${treeWidth}`, `auth: { type: auth/hmac, key_file: ${key} }`],
      node: (i) => [`    address: 127.0.0.1:${ports[i]}`],
    }),
  );
  const env = { ...process.env, NO_COLOR: '1', TSLURM_STATE_DIR: undefined };
  delete env.TSLURM_STATE_DIR;
  const children = [spawn(node, [bin('tsctld'), '--cluster', file, '-D'], { stdio: 'ignore', env })];
  await new Promise((resolve) => setTimeout(resolve, 1000));
  for (const name of names) children.push(spawn(node, [bin('tsstepd'), '--cluster', file, '--node', name], { stdio: 'ignore', env }));
  for (let i = 0; i < 200; i++) {
    const info = spawnSync(node, [bin('tsinfo'), '--cluster', file, '-h', '-o', '%t %D'], { encoding: 'utf8', env });
    if (info.stdout.trim() === `idle ${NODES}`) return { file, env, stop: () => children.forEach((c) => c.kill('SIGTERM')) };
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  children.forEach((c) => c.kill('SIGTERM'));
  throw new Error('the daemons did not register');
}

const dir = mkdtempSync(path.join(tmpdir(), 'tslurm-bench-stepd-'));
const names = Array.from({ length: NODES }, (_, i) => `bn${i + 1}`);
const embedded = path.join(dir, 'embedded.yaml');
writeFileSync(embedded, clusterYaml('bench-embedded', names, { top: [], node: () => [] }));

console.log(`tsrun across ${NODES} tsstepd daemons vs. embedded, median of ${runs} paired runs`);
for (const width of [50, 4]) {
  const cluster = await startDaemons(dir, width);
  try {
    const { a, b } = pairedMedians(
      [node, bin('tsrun'), '--cluster', cluster.file, `-N${NODES}`, '-n256', 'true'],
      [node, bin('tsrun'), '--cluster', embedded, `-N${NODES}`, '-n256', 'true'],
      runs,
      { env: cluster.env },
    );
    printRatio(`daemons, tree width ${width}`.padEnd(20) + ' -N16 -n256', a, 'embedded', b);
  } finally {
    cluster.stop();
  }
}
