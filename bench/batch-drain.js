// Batch jobs on one 8-CPU node (issue 19's targets; bench/targets.js runs it last): the
// controller's and the step host's RSS idle and after a 1,000-task `--wrap=true` array, the
// array's drain rate, and one batch job's submit-to-running latency. With real Slurm up
// (`sinfo` answers), its drain of a smaller array (TSLURM_BENCH_SLURM_ARRAY, 100; 0 skips it)
// as a reference. TSLURM_BENCH_ARRAY changes the count; TSLURM_BENCH_PROFILE=DIR runs the
// controller and the step host under `node --cpu-prof` with their profiles in DIR.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { medianMs } from './lib.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.dirname(here);
const node = process.execPath;
const bin = (name) => path.join(root, 'bin', `${name}.js`);
const arrayTasks = Number(process.env.TSLURM_BENCH_ARRAY ?? 1000);
const slurmArrayTasks = Number(process.env.TSLURM_BENCH_SLURM_ARRAY ?? 100);
const work = mkdtempSync(path.join(tmpdir(), 'tslurm-bench-drain-'));
const profile = process.env.TSLURM_BENCH_PROFILE;
const env = {
  ...process.env,
  NO_COLOR: '1',
  TSLURM_CTLD_IDLE_EXIT: '600',
  TSLURM_STEPD_IDLE_EXIT: '600',
  SLURM_CONF: undefined,
  TSLURM_STATE_DIR: path.join(work, 'state'),
  TSLURM_CONF: path.join(here, 'cluster-8cpu.yaml'),
  TSLURM_MIN_JOB_AGE: '3600',
};
const drain = { env, cwd: work };
const slurm = spawnSync('sinfo', ['-h', '-o', '%T'], { encoding: 'utf8', timeout: 5000 });
const slurmUp = slurmArrayTasks > 0 && slurm.status === 0 && /idle|mix|alloc/.test(slurm.stdout);

if (profile) await startProfiled();
execFileSync(node, [bin('tsbatch'), '--wait', '--wrap=true'], { ...drain, stdio: 'ignore' });
const ctldPid = pidIn('tsctld.pid');
const hostPid = pidIn('tsstepd.pid');
await sleep(1000);
const idle = { ctld: rssMb(ctldPid), host: rssMb(hostPid) };

// Submit-to-running: from the acknowledged submission (tsbatch's exit) to the job seen out of
// PENDING over the controller's socket (no command start-up in the polling).
const latencies = [];
for (let i = 0; i < 7; i++) {
  const id = Number(/(\d+)/.exec(execFileSync(node, [bin('tsbatch'), '--wrap=sleep 1'], { ...drain, encoding: 'utf8' }))[1]);
  const acked = process.hrtime.bigint();
  while (((await jobViews()).find((v) => v.jobId === id)?.state ?? 0) === 0) await sleep(1);
  latencies.push(Number(process.hrtime.bigint() - acked) / 1e6);
}
while ((await activeJobs()) > 0) await sleep(50);

const cpuBefore = { ctld: cpuSeconds(ctldPid), host: cpuSeconds(hostPid) };
const drainStart = process.hrtime.bigint();
const arrayId = /(\d+)/.exec(execFileSync(node, [bin('tsbatch'), '--parsable', `--array=1-${arrayTasks}`, '--wrap=true'], { ...drain, encoding: 'utf8' }))[1];
// One request answered when the last task has ended: no polling load on the controller.
await rpc('wait', { ids: [arrayId] });
const loadAverage = readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
const drainSeconds = Number(process.hrtime.bigint() - drainStart) / 1e9;
// CPU time each daemon spent on the drain (load disturbs it less than the wall clock); the
// controller's includes answering this script's polls.
const cpuPerJob = { ctld: ((cpuSeconds(ctldPid) - cpuBefore.ctld) / arrayTasks) * 1000, host: ((cpuSeconds(hostPid) - cpuBefore.host) / arrayTasks) * 1000 };
const floorRate = spawnFloor(arrayTasks);
await sleep(1000);
const after = { ctld: rssMb(ctldPid), host: rssMb(hostPid) };
const peak = { ctld: peakMb(ctldPid), host: peakMb(hostPid) };
// SIGTERM: a profiled daemon writes its profile as it exits normally.
for (const pid of [ctldPid, hostPid]) process.kill(pid, 'SIGTERM');

console.log(`controller and step host (one 8-CPU node, bench/cluster-8cpu.yaml)`);
console.log(`  ${arrayTasks}-task --wrap=true array drained in ${drainSeconds.toFixed(1)} s: ${(arrayTasks / drainSeconds).toFixed(1)} jobs/s   target ≥ 100 jobs/s`);
console.log(`  floor: a bare Node process spawning ${arrayTasks} /bin/true, 8 at a time: ${floorRate.toFixed(1)} per s (drain = ${((arrayTasks / drainSeconds) / floorRate).toFixed(2)}× the floor)`);
console.log(`  CPU time per job: tsctld ${cpuPerJob.ctld.toFixed(2)} ms, step host ${cpuPerJob.host.toFixed(2)} ms (load average ${loadAverage})`);
console.log(`  submit-to-running of one batch job: ${medianMs(latencies).toFixed(1)} ms (median of ${latencies.length})   target ≤ 50 ms`);
console.log(`  tsctld RSS idle ${idle.ctld.toFixed(1)} MB, after ${arrayTasks + 8} jobs ${after.ctld.toFixed(1)} MB (peak ${peak.ctld.toFixed(1)} MB)`);
console.log(`  step host (tsstepd --embedded) RSS idle ${idle.host.toFixed(1)} MB, after ${arrayTasks + 8} jobs ${after.host.toFixed(1)} MB (peak ${peak.host.toFixed(1)} MB)`);
if (slurmUp) slurmDrain();

function slurmDrain() {
  const started = process.hrtime.bigint();
  execFileSync('sbatch', [`--array=1-${slurmArrayTasks}`, '--wrap=true'], { cwd: work, stdio: 'ignore' });
  for (;;) {
    const left = spawnSync('squeue', ['-h', '-r', '-o', '%i'], { encoding: 'utf8' }).stdout.trim();
    if (left === '') break;
    spawnSync('sleep', ['0.2']);
  }
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  console.log(`  real Slurm: ${slurmArrayTasks}-task --wrap=true array drained in ${seconds.toFixed(1)} s: ${(slurmArrayTasks / seconds).toFixed(1)} jobs/s`);
}

/** The controller and the step host started ahead, under --cpu-prof (not allowed in NODE_OPTIONS). */
async function startProfiled() {
  mkdirSync(env.TSLURM_STATE_DIR, { mode: 0o700 });
  const prof = ['--cpu-prof', `--cpu-prof-dir=${profile}`];
  for (const argv of [[bin('tsctld'), '-D', '--idle-exit', '600'], [bin('tsstepd'), '--embedded', '--idle-exit', '600']]) {
    spawn(node, [...prof, ...argv], { ...drain, detached: true, stdio: 'ignore' }).unref();
  }
  while (!['tsctld.sock', 'tsstepd.sock'].every((name) => existsSync(path.join(env.TSLURM_STATE_DIR, name)))) await sleep(50);
}

/** What Node alone does in the same run: spawn `count` /bin/true, 8 at a time, as the drain runs 8 jobs at once. */
function spawnFloor(count) {
  const code = `const { spawn } = require('node:child_process'); let left = ${count}, running = 0; const t = process.hrtime.bigint();
    const next = () => { while (running < 8 && left > 0) { left--; running++; spawn('/bin/true', [], { stdio: 'ignore', detached: true }).on('exit', () => { running--; if (left === 0 && running === 0) console.log(${count} / (Number(process.hrtime.bigint() - t) / 1e9)); else next(); }); } };
    next();`;
  return Number(execFileSync(node, ['-e', code], { encoding: 'utf8' }));
}

function pidIn(file) {
  return Number.parseInt(readFileSync(path.join(env.TSLURM_STATE_DIR, file), 'utf8'), 10);
}

function rssMb(pid) {
  return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;
}

/** utime + stime of a process, in seconds (USER_HZ 100). */
function cpuSeconds(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

function peakMb(pid) {
  return Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;
}

function sleep(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Every job the controller knows, asked straight over its socket (no command start-up). */
function jobViews() {
  return rpc('jobs', {});
}

/** One request over the controller's socket; resolves to the answer's body. */
function rpc(op, body) {
  return new Promise((resolve, reject) => {
    const socket = net.createConnection(path.join(env.TSLURM_STATE_DIR, 'tsctld.sock'));
    let text = '';
    socket.on('connect', () => socket.write(`${JSON.stringify({ v: 256, id: 1, op, body })}\n`));
    socket.on('data', (chunk) => {
      text += chunk;
      if (!text.includes('\n')) return;
      socket.end();
      resolve(JSON.parse(text).body);
    });
    socket.on('error', reject);
  });
}

async function activeJobs() {
  return (await jobViews()).filter((v) => v.active || (v.state & 0xff) <= 2).length;
}
