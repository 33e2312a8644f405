// `tsrun --mpi=pmi2 -n4 ./hello` against MPICH's own launcher, `mpiexec -n4 ./hello`, in the
// same run (issue target: at most 1.3x). Needs Debian's mpich; says so and skips otherwise.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { pairedMedians, printRatio } from './lib.js';

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
  const env = { ...process.env, TSLURM_STATE_DIR: dir, NO_COLOR: '1' };
  const tsrun = path.join(here, '..', 'bin', 'tsrun.js');
  console.log(`mpi, median of ${runs} paired runs`);
  const { a, b } = pairedMedians([process.execPath, tsrun, '--mpi=pmi2', '-n4', hello], [mpiexec, '-n', '4', hello], runs, { env });
  printRatio('tsrun --mpi=pmi2 -n4 hello', a, 'mpiexec -n4', b, 1.3);
}
