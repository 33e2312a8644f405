// job_container/none: jobs get no container (Slurm's
// src/plugins/job_container/none/job_container_none.c). Every function succeeds.
import { SLURM_SUCCESS, SLURM_VERSION_NUMBER, type PluginHost, type Rc } from '../src/plugin-api/index.js';

export const plugin_name = 'job_container none plugin';
export const plugin_type = 'job_container/none';
export const plugin_version = SLURM_VERSION_NUMBER(0, 1, 0);

export function init(host: PluginHost): Rc {
  host.log.debug(`${plugin_name} loaded`);
  return SLURM_SUCCESS;
}

export function container_p_create(_job_id: number): Rc {
  return SLURM_SUCCESS;
}

export function container_p_add_cont(_job_id: number, _cont_id: bigint): Rc {
  return SLURM_SUCCESS;
}

export function container_p_add_pid(_job_id: number, _pid: number, _uid: number): Rc {
  return SLURM_SUCCESS;
}

export function container_p_delete(_job_id: number): Rc {
  return SLURM_SUCCESS;
}

export function container_p_reconfig(): void {}
