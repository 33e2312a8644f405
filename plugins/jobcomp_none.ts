// jobcomp/none: no job completion records (Slurm's src/plugins/jobcomp/none), the default.
import { SLURM_SUCCESS, SLURM_VERSION_NUMBER, type jobcomp_record_t, type Rc } from '../src/plugin-api/index.js';

export const plugin_name = 'Job completion logging NONE plugin';
export const plugin_type = 'jobcomp/none';
export const plugin_version = SLURM_VERSION_NUMBER(0, 1, 0);

export function jobcomp_p_set_location(_location: string | null): Rc {
  return SLURM_SUCCESS;
}

export function jobcomp_p_log_record(_job: jobcomp_record_t): Rc {
  return SLURM_SUCCESS;
}
