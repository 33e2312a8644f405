// The floor for `tsrun -n N true`: a bare Node process that spawns N `true` at once and waits.
import { spawn } from 'node:child_process';

const n = Number(process.argv[2] ?? 256);
await Promise.all(
  Array.from({ length: n }, () => new Promise((resolve, reject) => {
    spawn('true', [], { stdio: 'ignore' }).on('exit', resolve).on('error', reject);
  })),
);
