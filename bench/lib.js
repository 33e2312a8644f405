// Shared by the benchmarks: run a command N times and report the median wall time.
import { spawnSync } from 'node:child_process';
import net from 'node:net';

export function medianMs(samples) {
  const sorted = [...samples].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** Wall time of each of `runs` runs of argv (after one warm-up), in milliseconds. */
export function timeCommand(argv, runs, options = {}) {
  const samples = [];
  for (let i = -1; i < runs; i++) {
    const start = process.hrtime.bigint();
    const result = spawnSync(argv[0], argv.slice(1), { stdio: 'ignore', ...options });
    const ms = Number(process.hrtime.bigint() - start) / 1e6;
    if (result.status !== 0) throw new Error(`${argv.join(' ')} exited with ${result.status}`);
    if (i >= 0) samples.push(ms);
  }
  return samples;
}

/** Alternates the two commands run by run, so both see the same machine load. */
export function pairedMedians(a, b, runs, options = {}) {
  const sa = [];
  const sb = [];
  for (let i = 0; i < runs; i++) {
    sa.push(...timeCommand(a, 1, options));
    sb.push(...timeCommand(b, 1, options));
  }
  return { a: medianMs(sa), b: medianMs(sb) };
}

export function printRatio(label, ms, floorLabel, floorMs, target) {
  const ratio = ms / floorMs;
  const aim = target ? `  (target ≤ ${target}×)` : '';
  console.log(`${label.padEnd(34)} ${ms.toFixed(1).padStart(8)} ms   ${floorLabel} ${floorMs.toFixed(1)} ms   ratio ${ratio.toFixed(2)}×${aim}`);
  return ratio;
}

/**
 * Runs every command once per round, round after round (after one warm-up round), so all of
 * them see the same machine load; returns each one's median wall time in ms, by label. A
 * command that fails throws, unless it is marked `optional` (then its median is undefined).
 */
/**
 * BENCH_SETTLE_MS: a pause after each command of an interleaved round, so that what a command
 * leaves running for a moment after its exit (real Slurm's slurmstepd after `sbatch` or `srun`,
 * a batch job `tsbatch` started, the controllers of `tsrun, cold`) does not fall on the next
 * command's measurement. 0 (the default) keeps the rounds back to back, as the figures before
 * 2026-11-26's evening were taken.
 */
function settle() {
  const ms = Number(process.env.BENCH_SETTLE_MS ?? 0);
  if (ms > 0) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

export function interleavedMedians(commands, runs, options = {}) {
  const samples = new Map(commands.map((c) => [c.label, []]));
  const failed = new Set();
  for (let round = -1; round < runs; round++) {
    for (const c of commands) {
      if (failed.has(c.label)) continue;
      try {
        const start = process.hrtime.bigint();
        const result = spawnSync(c.argv[0], c.argv.slice(1), { stdio: 'ignore', timeout: 60_000, ...options, ...c.options });
        const took = Number(process.hrtime.bigint() - start) / 1e6;
        if (result.status !== 0) throw new Error(`${c.argv.join(' ')} exited with ${result.status ?? result.signal}`);
        if (round >= 0) samples.get(c.label).push(took);
        settle();
      } catch (error) {
        if (!c.optional) throw error;
        failed.add(c.label);
      }
    }
  }
  return new Map(commands.map((c) => [c.label, failed.has(c.label) ? undefined : medianMs(samples.get(c.label))]));
}

/**
 * A job descriptor as the controller's `submit` takes it, for filling a queue over its socket:
 * `script`, `name` and the rest as given, every other field a plain batch job's.
 */
export function benchJob(stateDir, { script = '#!/bin/sh\ntrue\n', name, hold = true, timeLimit = 0xffffffff, userName = 'bench' }) {
  return {
    script,
    argv: [],
    name,
    exclusive: false,
    overcommit: false,
    contiguous: false,
    timeLimit,
    workDir: stateDir,
    environment: [],
    hold,
    beginTime: 0,
    userId: process.getuid(),
    groupId: process.getgid(),
    userName,
    submitHost: 'localhost',
    submitDir: stateDir,
  };
}

/**
 * Submits `count` jobs (`desc(i)` for i = 1..count) straight over a controller's socket, 64
 * requests in flight on one connection: a queue filled without a command start-up per job.
 */
export function submitOverSocket(socketPath, count, desc) {
  return new Promise((resolve, reject) => {
    const socket = net.createConnection(socketPath);
    let sent = 0;
    let answered = 0;
    let pending = '';
    const send = () => {
      while (sent < count && sent - answered < 64) {
        sent++;
        socket.write(`${JSON.stringify({ v: 256, id: sent, op: 'submit', body: { desc: desc(sent), testOnly: false } })}\n`);
      }
    };
    socket.on('connect', send);
    socket.on('data', (chunk) => {
      pending += chunk;
      let newline;
      while ((newline = pending.indexOf('\n')) >= 0) {
        const answer = JSON.parse(pending.slice(0, newline));
        pending = pending.slice(newline + 1);
        if (!answer.ok) return reject(new Error(answer.error.message));
        answered++;
      }
      if (answered === count) {
        socket.end();
        resolve();
      } else send();
    });
    socket.on('error', reject);
  });
}

/**
 * A line naming NODE_EXTRA_CA_CERTS when it is set: Node 20 reads and parses that bundle at
 * every start, before any script (about 80 ms for Debian's 144 certificates on the 2-core build
 * machine), so it raises `node -e 0` and every tslurm command alike: ratios to `node -e 0` look
 * better and ratios to real Slurm's C commands worse than on a machine without it.
 */
export function extraCaCertsNote() {
  const file = process.env.NODE_EXTRA_CA_CERTS;
  if (!file) return undefined;
  return `  (NODE_EXTRA_CA_CERTS=${file} is set: every Node start, node -e 0's included, parses it; run again under \`env -u NODE_EXTRA_CA_CERTS\` to compare)`;
}
