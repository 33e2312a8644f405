#!/usr/bin/env node
// tslurm-dropin [DIR]: writes srun, sbatch, squeue, sinfo, scontrol, scancel, sbcast and salloc into DIR
// (default ./slurm-bin) as small sh scripts running tslurm's commands under Slurm's names;
// prints DIR's absolute path, so that `export PATH="$(npx tslurm-dropin DIR):$PATH"` works.
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const NAMES = ['srun', 'sbatch', 'squeue', 'sinfo', 'scontrol', 'scancel', 'sbcast', 'salloc'];
const args = process.argv.slice(2);
if (args.includes('-h') || args.includes('--help') || args.length > 1) {
  const out = args.length > 1 ? process.stderr : process.stdout;
  out.write(`Usage: tslurm-dropin [DIR]\n\nWrites ${NAMES.join(' ')} into DIR (default ./slurm-bin) and prints DIR.\n` +
    'Example: export PATH="$(npx tslurm-dropin ~/.local/tslurm-bin):$PATH"; sbatch --wrap hostname\n');
  process.exitCode = args.length > 1 ? 2 : 0;
} else {
  const dir = path.resolve(args[0] ?? 'slurm-bin');
  const doorway = fileURLToPath(new URL('./slurm-name.js', import.meta.url));
  const quote = (s) => `'${s.replaceAll("'", `'\\''`)}'`;
  try {
    mkdirSync(dir, { recursive: true });
    for (const name of NAMES) {
      const file = path.join(dir, name);
      writeFileSync(file, `#!/bin/sh\n# ${name}, as tslurm's command (written by tslurm-dropin)\nexec ${quote(process.execPath)} ${quote(doorway)} ${name} "$@"\n`);
      chmodSync(file, 0o755);
    }
    process.stdout.write(`${dir}\n`);
  } catch (error) {
    process.stderr.write(`tslurm-dropin: error: ${dir}: ${error.code ?? error.message}\n`);
    process.exitCode = 1;
  }
}
