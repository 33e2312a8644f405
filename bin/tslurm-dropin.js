#!/usr/bin/env node
// tslurm-dropin [DIR]: writes srun, sbatch, squeue, sinfo, scontrol, scancel, sbcast, salloc and sacct into DIR
// (default ./slurm-bin) as small node scripts running tslurm's commands under Slurm's names;
// prints DIR's absolute path, so that `export PATH="$(npx tslurm-dropin DIR):$PATH"` works.
const { chmodSync, mkdirSync, writeFileSync } = require('node:fs');
const path = require('node:path');
const { pathToFileURL } = require('node:url');

const NAMES = ['srun', 'sbatch', 'squeue', 'sinfo', 'scontrol', 'scancel', 'sbcast', 'salloc', 'sacct'];
NAMES.push('sstat');
const args = process.argv.slice(2);
if (args.includes('-h') || args.includes('--help') || args.length > 1) {
  const out = args.length > 1 ? process.stderr : process.stdout;
  out.write(`Usage: tslurm-dropin [DIR]\n\nWrites ${NAMES.join(' ')} into DIR (default ./slurm-bin) and prints DIR.\n` +
    'Example: export PATH="$(npx tslurm-dropin ~/.local/tslurm-bin):$PATH"; sbatch --wrap hostname\n');
  process.exitCode = args.length > 1 ? 2 : 0;
} else {
  const dir = path.resolve(args[0] ?? 'slurm-bin');
  const doorway = path.join(__dirname, 'slurm-name.js');
  const quote = (s) => `'${s.replaceAll("'", `'\\''`)}'`;
  // A node script run straight from its #! line, so that no shell stands between the caller and
  // the command: a shell re-exports the environment in its own hash order, and tasks would no
  // longer see salloc's or a batch script's variables in Slurm's order. Its code is valid as
  // CommonJS and as an ES module (an extensionless file's type follows the nearest package.json);
  // as CommonJS it requires the doorway, which spares it the ES module loader's start.
  // A node path the #! line cannot carry (blanks, too long) gets a sh wrapper instead.
  const wrapper = (name) =>
    /^[^\s]{1,120}$/.test(process.execPath)
      ? `#!${process.execPath}\n// ${name}, as tslurm's command (written by tslurm-dropin)\n` +
        `process.argv.splice(2, 0, ${JSON.stringify(name)});\n` +
        `typeof require === 'function' ? require(${JSON.stringify(doorway)}) : import(${JSON.stringify(pathToFileURL(doorway).href)});\n`
      : `#!/bin/sh\n# ${name}, as tslurm's command (written by tslurm-dropin)\nexec ${quote(process.execPath)} ${quote(doorway)} ${name} "$@"\n`;
  try {
    mkdirSync(dir, { recursive: true });
    for (const name of NAMES) {
      const file = path.join(dir, name);
      writeFileSync(file, wrapper(name));
      chmodSync(file, 0o755);
    }
    process.stdout.write(`${dir}\n`);
  } catch (error) {
    process.stderr.write(`tslurm-dropin: error: ${dir}: ${error.code ?? error.message}\n`);
    process.exitCode = 1;
  }
}
