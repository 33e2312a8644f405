// select/cons_tres: CPUs (whole cores), memory and gres allocated within nodes, so several
// jobs share a node (Slurm's src/plugins/select/cons_tres, SelectTypeParameters=CR_Core).
// --exclusive gives whole nodes; --mem is per node, --mem-per-cpu per allocated CPU; --gres
// and --gpus get unit indices per node (job_resources_t.gres_allocated[].indices).
import { SLURM_VERSION_NUMBER } from '../src/plugin-api/index.js';
import { consEngine } from './lib/cons-engine.js';
import { SelectCore, selectFunctions } from './lib/select-core.js';

export const plugin_name = 'Trackable RESources (TRES) Selection plugin';
export const plugin_type = 'select/cons_tres';
export const plugin_version = SLURM_VERSION_NUMBER(0, 1, 0);

const core = new SelectCore({ engine: consEngine, perJobGres: true, noGres: false, consumable: true });
// Named one by one in each select plugin: an ES module's exports are static names, and the
// host finds a plugin's symbols by those names (Slurm's, verbatim).
export const {
  init,
  select_p_state_save,
  select_p_state_restore,
  select_p_node_init,
  select_p_job_init,
  select_p_job_test,
  select_p_job_begin,
  select_p_job_ready,
  select_p_job_fini,
  select_p_job_suspend,
  select_p_job_resume,
  select_p_job_resized,
  select_p_job_expand_allow,
  select_p_step_finish,
  select_p_get_info_from_plugin,
  select_p_resv_test,
} = selectFunctions(core);
