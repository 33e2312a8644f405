// What a flood of peers without the key costs the controller: a tsctld on TCP with auth/hmac,
// then 500 connections at once each streaming a line longer than the limit for a first message
// (20 MiB, no newline). Prints the controller's RSS before, at its peak and after (VmRSS and
// VmHWM from /proc), against the floor of the same controller at rest, measured in the same
// run, and whether it still answers. Prints figures; never passes or fails.
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const bin = (name) => path.join(here, '..', 'bin', `${name}.js`);
const node = process.execPath;
const CONNECTIONS = Number(process.env.BENCH_FLOOD_CONNECTIONS ?? 500);
const LINE = Number(process.env.BENCH_FLOOD_LINE_MIB ?? 20) * 1024 * 1024;
const block = Buffer.alloc(1024 * 1024, 'x');

function memory(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
  return { rss: kb('VmRSS') / 1024, hwm: kb('VmHWM') / 1024 };
}

async function freePort() {
  const server = net.createServer();
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  await new Promise((resolve) => server.close(resolve));
  return port;
}

// One peer: streams up to LINE bytes without a newline until the controller closes it.
function flood(port) {
  return new Promise((resolve) => {
    const socket = net.createConnection({ host: '127.0.0.1', port });
    let sent = 0;
    let done = false;
    const finish = (cut) => {
      if (done) return;
      done = true;
      socket.destroy();
      resolve({ sent, cut });
    };
    socket.on('error', () => finish(true));
    socket.on('close', () => finish(true));
    const pump = () => {
      while (!done && sent < LINE) {
        sent += block.length;
        if (!socket.write(block)) return void socket.once('drain', pump);
      }
      if (!done) setTimeout(() => finish(false), 30_000);
    };
    socket.once('connect', pump);
  });
}

const dir = mkdtempSync(path.join(tmpdir(), 'tslurm-bench-flood-'));
const key = path.join(dir, 'key');
writeFileSync(key, randomBytes(32));
chmodSync(key, 0o600);
const port = await freePort();
const file = path.join(dir, 'cluster.yaml');
writeFileSync(
  file,
  ['cluster: flood', 'control:', `  address: 127.0.0.1:${port}`, `  state_dir: ${path.join(dir, 'state')}`, `auth: { type: auth/hmac, key_file: ${key} }`, 'nodes:', '  - name: fn1', 'partitions:', '  - name: debug', '    nodes: fn1'].join('\n'),
);
const env = { ...process.env, NO_COLOR: '1' };
delete env.TSLURM_STATE_DIR;
const ctld = spawn(node, [bin('tsctld'), '--cluster', file, '-D'], { stdio: 'ignore', env });
const ping = () => spawnSync(node, [bin('tscontrol'), '--cluster', file, 'ping'], { encoding: 'utf8', env }).status === 0;
for (let i = 0; i < 100 && !ping(); i++) await new Promise((resolve) => setTimeout(resolve, 100));

const before = memory(ctld.pid);
let peak = before.rss;
const sampler = setInterval(() => {
  try {
    peak = Math.max(peak, memory(ctld.pid).rss);
  } catch {}
}, 50);
const start = process.hrtime.bigint();
const results = await Promise.all(Array.from({ length: CONNECTIONS }, () => flood(port)));
const seconds = Number(process.hrtime.bigint() - start) / 1e9;
clearInterval(sampler);
await new Promise((resolve) => setTimeout(resolve, 1000));
const after = memory(ctld.pid);
const answers = ping();
ctld.kill('SIGTERM');
await new Promise((resolve) => (ctld.exitCode !== null ? resolve() : ctld.once('exit', resolve)));
rmSync(dir, { recursive: true, force: true });

const sentMiB = results.reduce((sum, r) => sum + r.sent, 0) / 2 ** 20;
const cut = results.filter((r) => r.cut).length;
console.log(`controller under ${CONNECTIONS} unauthenticated connections, each streaming a ${LINE / 2 ** 20} MiB line`);
console.log(`  streamed ${sentMiB.toFixed(0)} MiB in ${seconds.toFixed(1)} s; ${cut} of ${CONNECTIONS} connections cut by the controller`);
console.log(`  RSS at rest (floor) ${before.rss.toFixed(0)} MiB   peak ${peak.toFixed(0)} MiB (VmHWM ${after.hwm.toFixed(0)})   after ${after.rss.toFixed(0)} MiB`);
console.log(`  peak/floor ${(peak / before.rss).toFixed(2)}×   growth ${(peak - before.rss).toFixed(0)} MiB, ${((peak - before.rss) / sentMiB).toFixed(3)} of what was streamed   still answering: ${answers ? 'yes' : 'NO'}`);
