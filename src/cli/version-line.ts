// What --version prints: tslurm's own line under the ts names; under a Slurm name (the
// drop-in) Slurm's, `slurm 22.05.8`, which tools parse to choose what they may ask for.
import { TOOLKIT_VERSION } from '../os/version.js';
import { isSlurmName, SLURM_COMPAT_VERSION } from './slurm-names.js';

/** `tslurm 0.1.0`; under a Slurm name (the drop-in), Slurm's own line: `slurm 22.05.8`. */
export function versionLine(bin: string): string {
  return isSlurmName(bin) ? `slurm ${SLURM_COMPAT_VERSION}` : `tslurm ${TOOLKIT_VERSION}`;
}
