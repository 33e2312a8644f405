// tsrestd's GET /slurm/v0.0.38/jobs with a full queue: 10,000 held jobs (submitted straight
// over the controller's socket, as bench/tsqueue.js does), asked over TCP with a token on one
// kept-alive connection, each run paired with a GET /ping (the floor: one controller round
// trip and an HTTP answer) measured in the same run. Twice: with the queue unchanged between
// requests (the controller compares its jobs' views and sends none; tsrestd sends its kept
// answer), and with one job's comment changed before each request (that job sent, converted
// and joined with the kept texts of the others). Issue 22 asks for the listing in under 200 ms. Prints medians; never passes
// or fails. TSLURM_BENCH_JOBS changes the count.
import { execFileSync, spawn } from 'node:child_process';
import http from 'node:http';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { benchJob, medianMs, submitOverSocket } from './lib.js';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const jobs = Number(process.env.TSLURM_BENCH_JOBS ?? 10_000);
const runs = Number(process.env.BENCH_RUNS ?? 15);
const cluster = path.join(root, 'fixtures', 'clusters', 'small.yaml');
const stateDir = path.join(mkdtempSync(path.join(tmpdir(), 'tslurm-bench-restd-')), 'state');
const env = { ...process.env, TSLURM_STATE_DIR: stateDir, TSLURM_CONF: cluster, NO_COLOR: '1' };
const node = process.execPath;

const desc = (i) => benchJob(stateDir, { name: `bench${i}` });

/** Submits `count` held jobs over one connection, a window of requests in flight. */
function submitHeld(count) {
  return submitOverSocket(path.join(stateDir, 'tsctld.sock'), count, desc);
}

/** Starts tsrestd on a free TCP port; resolves to its process and base URL. */
function startRestd() {
  const child = spawn(node, [path.join(root, 'bin', 'tsrestd.js'), '--listen', '127.0.0.1:0'], { env, stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (chunk) => {
      out += chunk;
      const url = /listening on (http:\/\/[^/\s]+)/.exec(out)?.[1];
      if (url) resolve({ child, url });
    });
    child.on('exit', (code) => reject(new Error(`tsrestd exited with ${code}`)));
  });
}

/** utime + stime of these processes, in milliseconds (Linux /proc, clock ticks of 10 ms). */
function cpuOf(list) {
  let ticks = 0;
  for (const pid of list) {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    ticks += Number(fields[11]) + Number(fields[12]);
  }
  return ticks * 10;
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
function get(url, headers) {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    http
      .get(url, { agent, headers }, (response) => {
        let bytes = 0;
        response.on('data', (chunk) => (bytes += chunk.length));
        response.on('end', () => {
          if (response.statusCode !== 200) return reject(new Error(`${url}: HTTP ${response.statusCode}`));
          resolve({ ms: Number(process.hrtime.bigint() - started) / 1e6, bytes });
        });
      })
      .on('error', reject);
  });
}

execFileSync(node, [path.join(root, 'bin', 'tsctld.js'), '--cluster', cluster, '--idle-exit', '600'], { env, stdio: 'inherit' });
const setupStart = process.hrtime.bigint();
await submitHeld(jobs);
const setup = Number(process.hrtime.bigint() - setupStart) / 1e9;
const token = /^SLURM_JWT=(\S+)/.exec(execFileSync(node, [path.join(root, 'bin', 'tscontrol.js'), 'token'], { env, encoding: 'utf8' }))[1];
const { child, url } = await startRestd();
const pids = [child.pid, Number.parseInt(readFileSync(path.join(stateDir, 'tsctld.pid'), 'utf8'), 10)];
const headers = { 'X-SLURM-USER-NAME': process.env.USER ?? execFileSync('id', ['-un'], { encoding: 'utf8' }).trim(), 'X-SLURM-USER-TOKEN': token };
try {
  console.log(`tsrestd with ${jobs} held jobs (submitted in ${setup.toFixed(1)} s over the socket), median of ${runs} paired runs`);
  // A first round each: the controller's and tsrestd's code warmed up.
  await get(`${url}/slurm/v0.0.38/ping`, headers);
  const first = await get(`${url}/slurm/v0.0.38/jobs`, headers);
  for (const changed of [false, true]) {
    const list = [];
    const floor = [];
    const cpuBefore = cpuOf(pids);
    for (let i = 0; i < runs; i++) {
      if (changed) execFileSync(node, [path.join(root, 'bin', 'tscontrol.js'), 'update', 'JobId=1', `Comment=run${i}`], { env, stdio: 'ignore' });
      floor.push((await get(`${url}/slurm/v0.0.38/ping`, headers)).ms);
      list.push((await get(`${url}/slurm/v0.0.38/jobs`, headers)).ms);
    }
    const ms = medianMs(list);
    const floorMs = medianMs(floor);
    const cpu = (cpuOf(pids) - cpuBefore) / runs;
    const label = `GET /jobs, ${changed ? 'a job changed' : 'unchanged'} (${(first.bytes / 1e6).toFixed(1)} MB)`;
    console.log(`${label.padEnd(40)} ${ms.toFixed(1).padStart(8)} ms   GET /ping ${floorMs.toFixed(1)} ms   ratio ${(ms / floorMs).toFixed(1)}×  (target < 200 ms)`);
    // CPU time barely depends on how busy the machine is; wall time on a shared one does.
    console.log(`${''.padEnd(40)} CPU of tsctld + tsrestd per request pair: ${cpu.toFixed(0)} ms`);
  }
  console.log(`load average while measured: ${loadavg().map((l) => l.toFixed(1)).join(' ')}`);
} finally {
  agent.destroy();
  child.kill('SIGTERM');
  const ctld = Number.parseInt(readFileSync(path.join(stateDir, 'tsctld.pid'), 'utf8'), 10);
  process.kill(ctld, 'SIGTERM');
  // Its 10,000 jobs are tens of megabytes: gone with the controller.
  for (let i = 0; i < 100 && alive(ctld); i++) await new Promise((resolve) => setTimeout(resolve, 100));
  rmSync(path.dirname(stateDir), { recursive: true, force: true });
}

function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
