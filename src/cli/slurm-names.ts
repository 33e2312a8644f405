// Slurm's command names, for scripts that call `sbatch`, `squeue`, ... (the drop-in, see
// bin/tslurm-dropin.js): which tslurm command each is, and what `--version` says under it.
// Under a Slurm name a command speaks as that command: `sbatch: error: ...`, and `--version`
// prints `slurm 22.05.8`, the release whose behaviour and output tslurm reproduces, because
// tools parse that line (`slurm (\d+)\.(\d+)`) to choose what they may ask for.

/** The Slurm release tslurm's output follows. */
export const SLURM_COMPAT_VERSION = '22.05.8';

export const SLURM_NAMES: Readonly<Record<string, string>> = {
  srun: 'tsrun',
  sbatch: 'tsbatch',
  squeue: 'tsqueue',
  sinfo: 'tsinfo',
  scontrol: 'tscontrol',
  scancel: 'tscancel',
  sbcast: 'tsbcast',
  salloc: 'tsalloc',
  sacct: 'tsacct',
  sstat: 'tssstat',
};

export function isSlurmName(bin: string): boolean {
  return Object.hasOwn(SLURM_NAMES, bin);
}
