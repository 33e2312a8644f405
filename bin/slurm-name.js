#!/usr/bin/env node
// The doorway of the drop-in wrappers (tslurm-dropin): `slurm-name.js sbatch ARGS...` runs
// tsbatch as `sbatch`, so it prints `sbatch: error: ...` and Slurm's --version line.
const names = { srun: 'tsrun', sbatch: 'tsbatch', squeue: 'tsqueue', sinfo: 'tsinfo', scontrol: 'tscontrol', scancel: 'tscancel', sbcast: 'tsbcast', salloc: 'tsalloc', sacct: 'tsacct' };
names.sstat = 'tssstat';
const [name = '', ...argv] = process.argv.slice(2);
const command = names[name];
if (command === undefined) {
  process.stderr.write(`slurm-name.js: not a Slurm command name: ${name} (one of ${Object.keys(names).join(', ')})\n`);
  process.exitCode = 2;
} else {
  require('./command-loader.cjs').runCommand(command, name, argv);
}
