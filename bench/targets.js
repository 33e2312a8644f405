// Issue 19's targets, each printed as a ratio against a floor measured in the same run:
// `node -e 0`, a bare Node spawn loop (bench/spawn-floor.js), and real Slurm's commands when a
// real Slurm answers here (`sinfo`; see /work/shared/real-slurm/setup.sh). The commands of one
// table run interleaved, round after round, so all see the same machine load; medians.
// Then bench/batch-drain.js: the controller's and the step host's RSS idle and after a
// 1,000-task `--wrap=true` array, the array's drain rate on one 8-CPU node against a bare Node
// spawn floor, and one batch job's submit-to-running latency.
// Prints measurements; never passes or fails. BENCH_RUNS, TSLURM_BENCH_ARRAY and
// TSLURM_BENCH_SLURM_ARRAY (real Slurm's array, 100 by default: it drains at a few jobs/s)
// change the counts.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { interleavedMedians, extraCaCertsNote } from './lib.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.dirname(here);
const node = process.execPath;
const bin = (name) => path.join(root, 'bin', `${name}.js`);
const runs = Number(process.env.BENCH_RUNS ?? 15);
const arrayTasks = Number(process.env.TSLURM_BENCH_ARRAY ?? 1000);
const work = mkdtempSync(path.join(tmpdir(), 'tslurm-bench-targets-'));
const stateDir = (name) => {
  const dir = path.join(work, name);
  mkdirSync(dir, { mode: 0o700 });
  return dir;
};
const baseEnv = { ...process.env, NO_COLOR: '1', TSLURM_CTLD_IDLE_EXIT: '600', TSLURM_STEPD_IDLE_EXIT: '600', TSLURM_CONF: undefined, SLURM_CONF: undefined };
const embedded = { env: { ...baseEnv, TSLURM_STATE_DIR: stateDir('embedded') }, cwd: work };
const served = { env: { ...baseEnv, TSLURM_STATE_DIR: stateDir('served') }, cwd: work };
const wideCluster = { env: { ...baseEnv, TSLURM_STATE_DIR: stateDir('wide') }, cwd: work };
const slurm = realSlurm();

function realSlurm() {
  const probe = spawnSync('sinfo', ['-h', '-o', '%T'], { encoding: 'utf8', timeout: 5000 });
  return probe.status === 0 && /idle|mix|alloc/.test(probe.stdout);
}

const row = (label, ms, floorLabel, floorMs, target) => {
  if (ms === undefined || floorMs === undefined) return;
  const aim = target === undefined ? '' : `   target ≤ ${target}×${ms / floorMs <= target ? '  met' : ''}`;
  console.log(`  ${label.padEnd(30)} ${ms.toFixed(1).padStart(8)} ms  / ${floorLabel.padEnd(22)} ${floorMs.toFixed(1).padStart(7)} ms = ${(ms / floorMs).toFixed(2)}×${aim}`);
};

// --- start-up: tsrun embedded, and the short commands with a controller up ---------------
execFileSync(node, [bin('tsbatch'), '--wait', '--wrap=true'], { ...served, stdio: 'ignore' }); // starts the controller; job 1
const slurmJob = slurm ? /(\d+)/.exec(execFileSync('sbatch', ['--wrap=true'], { cwd: work, encoding: 'utf8' }))?.[1] : undefined;
const commands = [
  { label: 'node -e 0', argv: [node, '-e', '0'] },
  { label: 'tsrun -n1 true', argv: [node, bin('tsrun'), '-n1', 'true'], options: embedded },
  { label: 'tsrun -n8 true', argv: [node, bin('tsrun'), '-n8', 'true'], options: embedded },
  // The first tsrun on a state directory starts the controller (the rows above find it up).
  {
    label: 'tsrun -n1 true, cold',
    argv: ['sh', '-c', `d=$(mktemp -d "${work}/cold.XXXXXX") && TSLURM_STATE_DIR=$d TSLURM_CTLD_IDLE_EXIT=2 exec "${node}" "${bin('tsrun')}" -n1 true`],
    options: embedded,
  },
  { label: 'tsqueue', argv: [node, bin('tsqueue')], options: served },
  { label: 'tsinfo', argv: [node, bin('tsinfo')], options: served },
  { label: 'tscontrol show job 1', argv: [node, bin('tscontrol'), 'show', 'job', '1'], options: served },
  { label: 'tsbatch --wrap=true', argv: [node, bin('tsbatch'), '--wrap=true'], options: served },
  ...(slurm
    ? [
        { label: 'srun -n1 true', argv: ['srun', '-n1', 'true'], optional: true },
        { label: 'srun -n8 true', argv: ['srun', '-n8', 'true'], optional: true },
        { label: 'squeue', argv: ['squeue'], optional: true },
        { label: 'sinfo', argv: ['sinfo'], optional: true },
        { label: 'scontrol show job', argv: ['scontrol', 'show', 'job', slurmJob ?? '1'], optional: true },
        { label: 'sbatch --wrap=true', argv: ['sbatch', '--wrap=true'], optional: true, options: { cwd: work } },
      ]
    : []),
];
const m = interleavedMedians(commands, runs, { cwd: work });
const floor = m.get('node -e 0');
console.log(`issue 19 targets, medians of ${runs} interleaved rounds${slurm ? ' (real Slurm answering: second reference)' : ' (no real Slurm here)'}`);
if (extraCaCertsNote()) console.log(extraCaCertsNote());
row('tsrun -n1 true', m.get('tsrun -n1 true'), 'node -e 0', floor, 1.5);
row('tsrun -n1 true', m.get('tsrun -n1 true'), 'srun -n1 true', m.get('srun -n1 true'));
row('tsrun -n1 true, cold', m.get('tsrun -n1 true, cold'), 'node -e 0', floor);
row('tsrun -n8 true', m.get('tsrun -n8 true'), 'srun -n8 true', m.get('srun -n8 true'), 1.0);
row('tsrun -n8 true', m.get('tsrun -n8 true'), 'node -e 0', floor, 2.0);
for (const [ts, real] of [['tsqueue', 'squeue'], ['tsinfo', 'sinfo'], ['tscontrol show job 1', 'scontrol show job'], ['tsbatch --wrap=true', 'sbatch --wrap=true']]) {
  row(ts, m.get(ts), 'node -e 0', floor, 1.3);
  row(ts, m.get(ts), real, m.get(real));
}

// --- tsrun -n256 against the bare spawn floor ----------------------------------------------
{
  const wide = interleavedMedians(
    [
      { label: 'floor', argv: [node, path.join(here, 'spawn-floor.js'), '256'] },
      // Its own state directory: one controller serves one cluster.
      { label: 'tsrun', argv: [node, bin('tsrun'), '--cluster', path.join(here, 'cluster-256.yaml'), '-n256', 'true'], options: wideCluster },
    ],
    Math.max(3, Math.round(runs / 3)),
  );
  row('tsrun -n256 true', wide.get('tsrun'), 'node spawning 256 true', wide.get('floor'), 1.5);
}
console.log('  (tsrun --mpi=pmi2 against srun and mpiexec: bench/mpi.js)');
// The controllers the commands above started on demand.
for (const options of [served, embedded, wideCluster]) stopController(options.env.TSLURM_STATE_DIR);

// --- the controller and the step host: RSS, the array's drain, submit-to-running -----------
spawnSync(node, [path.join(here, 'batch-drain.js')], { stdio: 'inherit', env: { ...process.env, TSLURM_BENCH_ARRAY: String(arrayTasks) } });

function stopController(dir) {
  try {
    process.kill(Number.parseInt(readFileSync(path.join(dir, 'tsctld.pid'), 'utf8'), 10), 'SIGTERM');
  } catch {
    // gone already
  }
}
