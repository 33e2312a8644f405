// How long the controller leaves a request unanswered while it drains an array: one
// connection sends `ping` every 2 ms during TSLURM_BENCH_ARRAY tasks (3,000 by default) of
// `--wrap=true` arrays on one 8-CPU node (bench/cluster-8cpu.yaml), and the round trips are
// summed up (median, 99th percentile, the longest, how many took over 50 ms). A synchronous
// step on the controller's loop (a snapshot's fsync) shows as the longest round trip; the
// count of snapshots written meanwhile is read from the state directory (each one rotates the
// journal). TSLURM_BENCH_BUILD=DIR measures the bins of another build (a worktree at an older
// commit) with the same script.
import { execFile, execFileSync } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = process.env.TSLURM_BENCH_BUILD ?? path.dirname(here);
const node = process.execPath;
const bin = (name) => path.join(root, 'bin', `${name}.js`);
const arrayTasks = Number(process.env.TSLURM_BENCH_ARRAY ?? 3000);
const work = mkdtempSync(path.join(tmpdir(), 'tslurm-bench-stall-'));
const stateDir = path.join(work, 'state');
const env = {
  ...process.env,
  NO_COLOR: '1',
  TSLURM_CTLD_IDLE_EXIT: '600',
  TSLURM_STEPD_IDLE_EXIT: '600',
  SLURM_CONF: undefined,
  TSLURM_STATE_DIR: stateDir,
  TSLURM_CONF: path.join(here, 'cluster-8cpu.yaml'),
  // Every job stays in the table, as on a busy cluster: the snapshot holds them all.
  TSLURM_MIN_JOB_AGE: '3600',
};
const run = { env, cwd: work };

execFileSync(node, [bin('tsbatch'), '--wait', '--wrap=true'], { ...run, stdio: 'ignore' });
const ctldPid = Number.parseInt(readFileSync(path.join(stateDir, 'tsctld.pid'), 'utf8'), 10);
const hostPid = Number.parseInt(readFileSync(path.join(stateDir, 'tsstepd.pid'), 'utf8'), 10);
const link = connect();
let lastRotation = journalRotations();
let snapshots = 0;

const samples = [];
const started = process.hrtime.bigint();
let draining = true;
const prober = (async () => {
  while (draining) {
    const start = process.hrtime.bigint();
    await link.call('ping', {});
    samples.push({ start: Number(start - started) / 1e6, ms: Number(process.hrtime.bigint() - start) / 1e6 });
    if (process.env.TSLURM_BENCH_VERBOSE && samples.at(-1).ms > 50) console.log(`  ${samples.at(-1).start.toFixed(0)} ms: ping ${samples.at(-1).ms.toFixed(1)} ms`);
    const rotation = journalRotations();
    if (rotation !== lastRotation) {
      snapshots++;
      lastRotation = rotation;
      if (process.env.TSLURM_BENCH_VERBOSE) console.log(`  ${(Number(start - started) / 1e6).toFixed(0)} ms: a snapshot was written`);
    }
    await sleep(2);
  }
})();
// Arrays of at most 1,000 tasks (MaxArraySize's default is 1001), submitted one after another.
const arrayIds = [];
for (let left = arrayTasks; left > 0; left -= 1000) {
  const size = Math.min(1000, left);
  // Not execFileSync: the probe's loop must go on meanwhile, or a ping in flight would count the submission.
  const { stdout } = await promisify(execFile)(node, [bin('tsbatch'), '--parsable', `--array=1-${size}`, '--wrap=true'], { ...run, encoding: 'utf8' });
  arrayIds.push(/(\d+)/.exec(stdout)[1]);
  if (process.env.TSLURM_BENCH_VERBOSE) console.log(`  ${(Number(process.hrtime.bigint() - started) / 1e6).toFixed(0)} ms: array ${arrayIds.at(-1)} submitted`);
}
const submitted = Number(process.hrtime.bigint() - started) / 1e6;
await link.call('wait', { ids: arrayIds });
const seconds = Number(process.hrtime.bigint() - started) / 1e9;
draining = false;
await prober;
// The ping answered after `wait` waited for that answer (thousands of jobs' views) and is not counted.
const counted = samples.filter((sample) => sample.start + sample.ms <= seconds * 1000);
const phases = [
  ['while the arrays were submitted', counted.filter((sample) => sample.start < submitted)],
  ['while they drained', counted.filter((sample) => sample.start >= submitted)],
];
const loadAverage = readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
link.close();
for (const pid of [ctldPid, hostPid]) process.kill(pid, 'SIGTERM');

console.log(`controller stalls during ${arrayTasks} tasks of --wrap=true arrays (${root})`);
console.log(`  drained in ${seconds.toFixed(1)} s (${(arrayTasks / seconds).toFixed(1)} jobs/s); snapshots seen: ${snapshots}`);
for (const [label, phase] of phases) {
  const sorted = phase.map((sample) => sample.ms).sort((a, b) => a - b);
  const at = (q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
  console.log(`  ping round trip ${label}, ${sorted.length} pings: median ${at(0.5).toFixed(2)} ms, p99 ${at(0.99).toFixed(1)} ms, longest ${sorted.at(-1).toFixed(1)} ms, over 50 ms: ${sorted.filter((ms) => ms > 50).length}`);
}
console.log(`  load average ${loadAverage}`);
await sleep(500);
rmSync(work, { recursive: true, force: true });

// The journal.old file's inode changes at each snapshot (the journal is renamed onto it).
function journalRotations() {
  try {
    return statSync(path.join(stateDir, 'ctld', 'journal.old')).ino;
  } catch {
    return 0;
  }
}

function sleep(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** One connection to the controller's socket; requests answered by id. */
function connect() {
  const socket = net.createConnection(path.join(stateDir, 'tsctld.sock'));
  const pending = new Map();
  let id = 0;
  let text = '';
  socket.setEncoding('utf8');
  socket.on('data', (chunk) => {
    text += chunk;
    for (let nl = text.indexOf('\n'); nl >= 0; nl = text.indexOf('\n')) {
      const message = JSON.parse(text.slice(0, nl));
      text = text.slice(nl + 1);
      pending.get(message.id)?.(message.body);
      pending.delete(message.id);
    }
  });
  return {
    call: (op, body) =>
      new Promise((resolve) => {
        pending.set(++id, resolve);
        socket.write(`${JSON.stringify({ v: 256, id, op, body })}\n`);
      }),
    close: () => socket.end(),
  };
}
