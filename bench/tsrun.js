// tsrun's cost against floors measured in the same run: `tsrun -n1 true` against `node -e 0`,
// and `tsrun -n 256 true` against a bare Node script spawning 256 `true` (bench/spawn-floor.js).
// Prints ratios; never passes or fails.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { pairedMedians, printRatio } from './lib.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const tsrun = path.join(here, '..', 'bin', 'tsrun.js');
const node = process.execPath;
const runs = Number(process.env.BENCH_RUNS ?? 15);
const env = { ...process.env, TSLURM_STATE_DIR: mkdtempSync(path.join(tmpdir(), 'tslurm-bench-')), NO_COLOR: '1' };

console.log(`tsrun, median of ${runs} paired runs`);
{
  const { a, b } = pairedMedians([node, tsrun, '-n1', 'true'], [node, '-e', '0'], runs, { env });
  printRatio('tsrun -n1 true', a, 'node -e 0', b, 2);
}
{
  const cluster = path.join(here, 'cluster-256.yaml');
  const { a, b } = pairedMedians(
    [node, tsrun, '--cluster', cluster, '-n256', 'true'],
    [node, path.join(here, 'spawn-floor.js'), '256'],
    runs,
    { env },
  );
  printRatio('tsrun -n256 true', a, 'node spawning 256', b, 1.5);
}
