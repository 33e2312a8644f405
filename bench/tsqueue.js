// tsqueue with a full queue: 10,000 held jobs (submitted straight over the controller's
// socket, so the setup costs no command start-ups), listed with squeue's default format, with
// -r -l, and with --json, each against `node -e 0` measured in the same run. Prints ratios;
// never passes or fails. TSLURM_BENCH_JOBS changes the count.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { benchJob, pairedMedians, printRatio, submitOverSocket } from './lib.js';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const jobs = Number(process.env.TSLURM_BENCH_JOBS ?? 10_000);
const runs = Number(process.env.BENCH_RUNS ?? 10);
const cluster = path.join(root, 'fixtures', 'clusters', 'small.yaml');
const stateDir = path.join(mkdtempSync(path.join(tmpdir(), 'tslurm-bench-queue-')), 'state');
const env = { ...process.env, TSLURM_STATE_DIR: stateDir, NO_COLOR: '1' };
const node = process.execPath;
const tsqueue = path.join(root, 'bin', 'tsqueue.js');

const desc = (i) => benchJob(stateDir, { name: `bench${i % 100}` });

/** Submits `count` held jobs over one connection, a window of requests in flight. */
function submitHeld(count) {
  return submitOverSocket(path.join(stateDir, 'tsctld.sock'), count, desc);
}

execFileSync(node, [path.join(root, 'bin', 'tsctld.js'), '--cluster', cluster, '--idle-exit', '600'], { env, stdio: 'inherit' });
const started = process.hrtime.bigint();
await submitHeld(jobs);
const setup = Number(process.hrtime.bigint() - started) / 1e9;
console.log(`tsqueue with ${jobs} held jobs (submitted in ${setup.toFixed(1)} s over the socket), median of ${runs} paired runs`);
try {
  for (const [label, args] of [
    [`tsqueue (${jobs} jobs)`, []],
    [`tsqueue -r -l (${jobs} jobs)`, ['-r', '-l']],
    [`tsqueue -t PD -o %i,%T,%p`, ['-t', 'PD', '-o', '%i,%T,%p']],
    [`tsqueue --json (${jobs} jobs)`, ['--json']],
    ['tsqueue -j <one job>', ['-j', '1']],
  ]) {
    const { a, b } = pairedMedians([node, tsqueue, '--cluster', cluster, ...args], [node, '-e', '0'], runs, { env });
    printRatio(label, a, 'node -e 0', b);
  }
} finally {
  const pid = Number.parseInt(readFileSync(path.join(stateDir, 'tsctld.pid'), 'utf8'), 10);
  process.kill(pid, 'SIGTERM');
}
