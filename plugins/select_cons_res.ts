// select/cons_res: cons_tres's older name, for CPUs and memory only (Slurm's
// src/plugins/select/cons_res). Any gres request is refused with ESLURM_INVALID_GRES.
import {
  SLURM_VERSION_NUMBER,
  type GetResult,
  type job_record_t,
  type node_record_t,
  type Rc,
  type SelectJobTestArgs,
  type SelectJobTestResult,
  type select_plugindata_info,
  type step_record_t,
} from '../src/plugin-api/index.js';
import { consEngine } from './lib/cons-engine.js';
import { SelectCore } from './lib/select-core.js';

export const plugin_name = 'Consumable Resources (CR) Node Selection plugin';
export const plugin_type = 'select/cons_res';
export const plugin_version = SLURM_VERSION_NUMBER(0, 1, 0);

const core = new SelectCore({ engine: consEngine, perJobGres: false, noGres: true, consumable: true });
export function select_p_node_init(node_ptr: readonly node_record_t[]): Rc {
  return core.node_init(node_ptr);
}

export function select_p_job_init(job_list: readonly job_record_t[]): Rc {
  return core.job_init(job_list);
}

export function select_p_job_test(args: SelectJobTestArgs): SelectJobTestResult {
  return core.job_test(args);
}

export function select_p_job_begin(job_ptr: job_record_t): Rc {
  return core.job_begin(job_ptr);
}

export function select_p_job_ready(job_ptr: job_record_t): boolean {
  return core.job_ready(job_ptr);
}

export function select_p_job_fini(job_ptr: job_record_t): Rc {
  return core.job_fini(job_ptr);
}

export function select_p_step_finish(step_ptr: step_record_t, killing_step: boolean): Rc {
  return core.step_finish(step_ptr, killing_step);
}

export function select_p_get_info_from_plugin(dinfo: select_plugindata_info, _job_ptr: job_record_t | null): GetResult {
  return core.get_info(dinfo);
}
