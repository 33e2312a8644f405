// `tsrun --mpi=pmi2 -n4 ./hello` (MPICH, fixtures/programs/mpi-hello.c) against real Slurm's
// `srun --mpi=pmi2 -n4 ./hello` (when a real Slurm answers: `sinfo`) and MPICH's own launcher
// `mpiexec -n 4 ./hello`, interleaved in the same run (issue 19 targets: at most 1.0x srun and
// 1.6x mpiexec). Needs Debian's mpich; says so and skips otherwise. Each launcher also runs
// `true` as its four tasks in the same rounds, which splits a run into the launcher's own cost
// and what the MPI program adds under it (its ranks' start, PMI and run): the second part shows
// whether the ranks run as fast under tsrun as under hydra, the first what tsrun's launch costs
// against hydra's, and how far `tsrun -n4 true` would have to come down for the 1.6x aim.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { interleavedMedians, extraCaCertsNote } from './lib.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const onPath = (name) => (process.env.PATH ?? '').split(':').map((d) => path.join(d, name)).find((f) => existsSync(f));
const mpicc = onPath('mpicc.mpich');
const mpiexec = onPath('mpiexec.mpich') ?? onPath('mpiexec.hydra');
if (!mpicc || !mpiexec) {
  console.log('mpi: skipped (needs mpicc.mpich and mpiexec.mpich: apt-get install mpich libmpich-dev)');
} else {
  const dir = mkdtempSync(path.join(tmpdir(), 'tslurm-bench-mpi-'));
  const hello = path.join(dir, 'hello');
  execFileSync(mpicc, ['-O', '-o', hello, path.join(here, '..', 'fixtures', 'programs', 'mpi-hello.c')]);
  const runs = Number(process.env.BENCH_RUNS ?? 10);
  const env = { ...process.env, TSLURM_STATE_DIR: dir, NO_COLOR: '1', TSLURM_CONF: undefined, SLURM_CONF: undefined };
  const probe = spawnSync('sinfo', ['-h', '-o', '%T'], { encoding: 'utf8', timeout: 5000 });
  const slurm = probe.status === 0 && /idle|mix|alloc/.test(probe.stdout);
  const commands = [
    { label: 'tsrun', argv: [process.execPath, path.join(here, '..', 'bin', 'tsrun.js'), '--mpi=pmi2', '-n4', hello] },
    { label: 'mpiexec', argv: [mpiexec, '-n', '4', hello] },
    { label: 'tsrun true', argv: [process.execPath, path.join(here, '..', 'bin', 'tsrun.js'), '--mpi=pmi2', '-n4', 'true'] },
    { label: 'mpiexec true', argv: [mpiexec, '-n', '4', 'true'] },
    ...(slurm ? [{ label: 'srun', argv: ['srun', '--mpi=pmi2', '-n4', hello], optional: true, options: { env: process.env } }] : []),
  ];
  console.log(`mpi, medians of ${runs} interleaved rounds${slurm ? ' (real Slurm answering)' : ' (no real Slurm: no srun reference)'}`);
if (extraCaCertsNote()) console.log(extraCaCertsNote());
  const m = interleavedMedians(commands, runs, { env, cwd: dir });
  const row = (label, ms, floorLabel, floorMs, target) => {
    if (ms === undefined || floorMs === undefined) return;
    const ratio = ms / floorMs;
    console.log(`  ${label.padEnd(28)} ${ms.toFixed(1).padStart(8)} ms  / ${floorLabel.padEnd(24)} ${floorMs.toFixed(1).padStart(7)} ms = ${ratio.toFixed(2)}×   target ≤ ${target}×${ratio <= target ? '  met' : ''}`);
  };
  row('tsrun --mpi=pmi2 -n4 hello', m.get('tsrun'), 'srun --mpi=pmi2 -n4 hello', m.get('srun'), 1.0);
  row('tsrun --mpi=pmi2 -n4 hello', m.get('tsrun'), 'mpiexec -n 4 hello', m.get('mpiexec'), 1.6);
  const [ts, tsTrue, mx, mxTrue] = ['tsrun', 'tsrun true', 'mpiexec', 'mpiexec true'].map((label) => m.get(label));
  console.log(`  the launchers with \`true\` as their tasks: tsrun --mpi=pmi2 -n4 true ${tsTrue.toFixed(1)} ms, mpiexec -n 4 true ${mxTrue.toFixed(1)} ms`);
  console.log(`  what hello adds: under tsrun ${(ts - tsTrue).toFixed(1)} ms, under mpiexec ${(mx - mxTrue).toFixed(1)} ms = ${((ts - tsTrue) / (mx - mxTrue)).toFixed(2)}×`);
  // At 1.6x mpiexec, with hello adding what it adds under tsrun now, tsrun's own part may take this long.
  console.log(`  for 1.6× mpiexec, tsrun --mpi=pmi2 -n4 true would have to take at most ${(1.6 * mx - (ts - tsTrue)).toFixed(1)} ms`);
}
