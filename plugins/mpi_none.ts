// mpi/none: for MPI libraries that need nothing from tslurm (Slurm's
// src/plugins/mpi/none/mpi_none.c). Every hook succeeds and changes nothing.
import {
  SLURM_SUCCESS,
  SLURM_VERSION_NUMBER,
  type MpiClientInfo,
  type MpiStepInfo,
  type MpiTaskInfo,
  type PluginHost,
  type PluginLog,
  type Rc,
  type StepEnv,
} from '../src/plugin-api/index.js';

export const plugin_name = 'mpi none plugin';
export const plugin_type = 'mpi/none';
export const plugin_version = SLURM_VERSION_NUMBER(0, 1, 0);

let log: PluginLog | undefined;

export function init(host: PluginHost): Rc {
  log = host.log;
  return SLURM_SUCCESS;
}

// Slurm's mpi/none returns a dummy non-NULL pointer: only NULL means failure.
export function p_mpi_hook_client_prelaunch(_job: MpiClientInfo, _env: StepEnv): object {
  log?.debug('Using mpi/none');
  return {};
}

export function p_mpi_hook_slurmstepd_prefork(_job: MpiStepInfo, _env: StepEnv): Rc {
  return SLURM_SUCCESS;
}

export function p_mpi_hook_slurmstepd_task(_job: MpiTaskInfo, _env: StepEnv): void {
  log?.debug('Using mpi/none');
}

export function p_mpi_hook_client_fini(_state: object): Rc {
  return SLURM_SUCCESS;
}
