// Start-up cost of the commands against Node's own start-up, measured in the same run.
// Prints ratios; never passes or fails (see README "Benchmarks").
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { pairedMedians, printRatio } from './lib.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const runs = Number(process.env.BENCH_RUNS ?? 20);
const node = process.execPath;
const floor = [node, '-e', '0'];

console.log(`start-up, median of ${runs} paired runs`);
for (const [label, argv, target] of [
  ['tsrun --version', [node, path.join(root, 'bin/tsrun.js'), '--version'], 1.5],
  ['tscontrol --version', [node, path.join(root, 'bin/tscontrol.js'), '--version'], 1.5],
  ["tscontrol show hostnames n[1-1000]", [node, path.join(root, 'bin/tscontrol.js'), 'show', 'hostnames', 'n[1-1000]'], undefined],
]) {
  const { a, b } = pairedMedians(argv, floor, runs);
  printRatio(label, a, 'node -e 0', b, target);
}
