// tsacct on a large store: 100,000 finished jobs (each with a batch step and a step 0) spread
// over 100 days, written straight into the accounting store, then sacct's window queries
// against `node -e 0` measured in the same run. The target: a -S window query within 100 ms of
// Node's own start-up. Prints; never passes or fails. TSLURM_BENCH_ACCT_JOBS changes the count.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { pairedMedians } from './lib.js';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const { accountingStorePath, openStoreForWriting, StoreWriter, BATCH_STEP_ID } = await import(path.join(root, 'dist', 'acct', 'index.js'));
const jobs = Number(process.env.TSLURM_BENCH_ACCT_JOBS ?? 100_000);
const runs = Number(process.env.BENCH_RUNS ?? 10);
const cluster = path.join(root, 'fixtures', 'clusters', 'small.yaml');
const stateDir = mkdtempSync(path.join(tmpdir(), 'tslurm-bench-acct-'));
const env = { ...process.env, TSLURM_STATE_DIR: stateDir, NO_COLOR: '1' };
const node = process.execPath;
const tsacct = path.join(root, 'bin', 'tsacct.js');

const now = Math.floor(Date.now() / 1000);
const span = 100 * 86_400;
const started = process.hrtime.bigint();
const { db } = await openStoreForWriting(accountingStorePath(stateDir));
const writer = new StoreWriter(db);
const records = [];
const steps = [];
for (let i = 1; i <= jobs; i++) {
  const submit = now - span + Math.floor((i * span) / jobs);
  const start = submit + 5;
  const end = start + 60 + (i % 600);
  const uid = 1000 + (i % 10);
  records.push({
    jobId: i, arrayJobId: 0, arrayTaskId: null, hetJobId: 0, hetJobOffset: null, name: `bench${i % 100}`, partition: 'debug', account: '',
    user: `user${uid}`, uid, group: 'users', gid: 100, cluster: 'small', submit, eligible: submit, start, end, timelimit: 60,
    state: i % 10 === 0 ? 5 : 3, cancelledBy: null, exitCode: i % 10 === 0 ? 256 : 0, derivedExitCode: 0, nnodes: 1, ncpus: 2, ntasks: null,
    nodeList: `node${1 + (i % 4)}`, reqMem: null, reqTres: 'billing=2,cpu=2,mem=2000M,node=1', allocTres: 'billing=2,cpu=2,mem=2000M,node=1',
    workDir: '/home/bench', submitLine: 'sbatch job.sh', reason: 'None', priority: 1, restarts: 0, qos: '',
  });
  for (const stepId of [BATCH_STEP_ID, 0]) {
    steps.push({ jobId: i, stepId, name: stepId === 0 ? 'app' : 'batch', start, end, state: 3, cancelledBy: null, exitCode: 0, nnodes: 1, ncpus: 2, ntasks: stepId === 0 ? 2 : 1, nodeList: `node${1 + (i % 4)}`, allocTres: 'cpu=2,mem=2000M,node=1', usage: { maxRssKiB: 10_000 + i, maxRssTask: 0, maxRssNode: 'node1', aveRssKiB: 9_000, maxVmSizeKiB: 200_000, maxVmSizeTask: 0, maxVmSizeNode: 'node1', aveVmSizeKiB: 190_000, userCpuUsec: 1_000_000, systemCpuUsec: 10_000, sampledAt: end } });
  }
}
writer.writeMany(records, steps);
db.pragma('wal_checkpoint(TRUNCATE)');
writer.close();
const setup = Number(process.hrtime.bigint() - started) / 1e9;
console.log(`tsacct with ${jobs} stored jobs (${jobs * 2} steps, written in ${setup.toFixed(1)} s), median of ${runs} paired runs`);
for (const [label, args] of [
  ['tsacct -a -S now-2hours (~80 jobs)', ['-a', '-S', 'now-2hours']],
  ['tsacct -a -X -S now-1days (~1,000 jobs)', ['-a', '-X', '-S', 'now-1days']],
  ['tsacct -a -S now-1days (~3,000 lines)', ['-a', '-S', 'now-1days']],
  ['tsacct -a -X -S -7d -E -6d -P', ['-a', '-X', '-S', 'now-7days', '-E', 'now-6days', '-P']],
  ['tsacct -j <one job>', ['-j', String(Math.floor(jobs / 2))]],
]) {
  const { a, b } = pairedMedians([node, tsacct, '--cluster', cluster, ...args], [node, '-e', '0'], runs, { env });
  const over = a - b;
  console.log(`${label.padEnd(38)} ${a.toFixed(1).padStart(8)} ms   node -e 0 ${b.toFixed(1)} ms   over Node's start-up ${over.toFixed(1)} ms  (target < 100 ms)`);
}
