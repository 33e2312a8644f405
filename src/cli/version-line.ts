// The --version line, apart from program.ts so that a command parsing its options without
// commander (tsrun, tsbatch: slurm-opt) does not load commander for it (~10% of a short
// command's start-up in the profile).
import { TOOLKIT_VERSION } from '../core/version.js';
import { isSlurmName, SLURM_COMPAT_VERSION } from './slurm-names.js';

/** `tslurm 0.1.0`; under a Slurm name (the drop-in), Slurm's own line: `slurm 22.05.8`. */
export function versionLine(bin: string): string {
  return isSlurmName(bin) ? `slurm ${SLURM_COMPAT_VERSION}` : `tslurm ${TOOLKIT_VERSION}`;
}
