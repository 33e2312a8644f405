// tsbatch and tsctld throughput (issue 5): 1,000 `tsbatch --wrap=true` from a shell loop on an
// 8-CPU cluster until the queue is empty (jobs per second), one job's submit-to-done latency
// with --wait, and the controller's peak RSS — with `node -e 0` measured in the same run as
// the floor every tsbatch start pays. Set TSLURM_BENCH_JOBS to change the count.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { medianMs, timeCommand } from './lib.js';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const jobs = Number(process.env.TSLURM_BENCH_JOBS ?? 1000);
const work = mkdtempSync(path.join(tmpdir(), 'tslurm-bench-batch-'));
const env = {
  ...process.env,
  TSLURM_STATE_DIR: path.join(work, 'state'),
  TSLURM_CONF: path.join(root, 'fixtures', 'clusters', 'eight-cpu.yaml'),
  TSLURM_CTLD_IDLE_EXIT: '30',
  TSLURM_MIN_JOB_AGE: '3600',
};
const tsbatch = path.join(root, 'bin', 'tsbatch.js');

/** Unfinished jobs, asked straight over the controller's socket (no command start-up). */
function activeJobs() {
  return new Promise((resolve, reject) => {
    const socket = net.createConnection(path.join(env.TSLURM_STATE_DIR, 'tsctld.sock'));
    let text = '';
    socket.on('connect', () => socket.write(`${JSON.stringify({ v: 256, id: 1, op: 'jobs', body: {} })}\n`));
    socket.on('data', (chunk) => {
      text += chunk;
      if (!text.includes('\n')) return;
      socket.end();
      const views = JSON.parse(text).body;
      resolve(views.filter((v) => v.active || (v.state & 0xff) <= 2).length);
    });
    socket.on('error', reject);
  });
}

const floor = medianMs(timeCommand([process.execPath, '-e', '0'], 10));

// Latency first, on an idle controller (the first submission starts it).
execFileSync(process.execPath, [tsbatch, '--wait', '--wrap=true'], { env, cwd: work, stdio: 'ignore' });
const latency = medianMs(timeCommand([process.execPath, tsbatch, '--wait', '--wrap=true'], 5, { env, cwd: work }));

const start = process.hrtime.bigint();
const loop = spawnSync('sh', ['-c', `for i in $(seq 1 ${jobs}); do node ${tsbatch} --wrap=true > /dev/null || exit 1; done`], { env, cwd: work, stdio: 'inherit' });
if (loop.status !== 0) throw new Error('a submission failed');
const submitted = Number(process.hrtime.bigint() - start) / 1e9;
while ((await activeJobs()) > 0) await new Promise((resolve) => setTimeout(resolve, 100));
const drained = Number(process.hrtime.bigint() - start) / 1e9;

// The same number again from four shell loops at once: how fast the controller takes and runs
// jobs when submissions overlap (their journal writes share fsyncs).
const parallelStart = process.hrtime.bigint();
const quarter = Math.ceil(jobs / 4);
const oneLoop = `for i in $(seq 1 ${quarter}); do node ${tsbatch} --wrap=true > /dev/null || exit 1; done`;
const parallel = spawnSync('sh', ['-c', `(${oneLoop}) & (${oneLoop}) & (${oneLoop}) & (${oneLoop}) & wait`], { env, cwd: work, stdio: 'inherit' });
if (parallel.status !== 0) throw new Error('a parallel submission failed');
while ((await activeJobs()) > 0) await new Promise((resolve) => setTimeout(resolve, 100));
const parallelSeconds = Number(process.hrtime.bigint() - parallelStart) / 1e9;

const pid = Number.parseInt(readFileSync(path.join(env.TSLURM_STATE_DIR, 'tsctld.pid'), 'utf8'), 10);
const status = readFileSync(`/proc/${pid}/status`, 'utf8');
const peakKb = Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0);
process.kill(pid, 'SIGTERM');

console.log(`tsbatch: ${jobs} jobs submitted in ${submitted.toFixed(1)} s (${(submitted * 1000 / jobs).toFixed(1)} ms each = ${(submitted * 1000 / jobs / floor).toFixed(2)}× node -e 0 at ${floor.toFixed(1)} ms)`);
console.log(`tsbatch: queue empty after ${drained.toFixed(1)} s: ${(jobs / drained).toFixed(1)} jobs/s on 8 CPUs`);
console.log(`tsbatch: ${quarter * 4} jobs from 4 loops at once, queue empty after ${parallelSeconds.toFixed(1)} s: ${((quarter * 4) / parallelSeconds).toFixed(1)} jobs/s`);
console.log(`tsbatch --wait --wrap=true: ${latency.toFixed(0)} ms submit-to-done (${(latency / floor).toFixed(1)}× node -e 0)`);
console.log(`tsctld peak RSS: ${(peakKb / 1024).toFixed(1)} MB`);
