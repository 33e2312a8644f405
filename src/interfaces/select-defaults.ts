// What the select facade does for a hook the plugin leaves out: exactly what each hook's
// TSDoc in src/plugin-api/select.ts says under "Default".
import { errnoValue } from '../core/errno.js';
import { Bitstr } from '../core/bitstr.js';
import { SLURM_ERROR, SLURM_SUCCESS } from '../plugin-api/common.js';
import type { PluginHeader } from '../plugin-api/common.js';
import type { SelectPlugin } from '../plugin-api/select.js';
import { selectSymbols } from '../plugin-api/select.js';

/** A select plugin's functions (its module, or an object with the same members). */
export type SelectOps = Omit<SelectPlugin, keyof PluginHeader>;
export type SelectHook = keyof SelectOps;
type OptionalHook = { [K in SelectHook]: (typeof selectSymbols)[K] extends 'optional' ? K : never }[SelectHook];
export type HookFn<K extends SelectHook> = NonNullable<SelectOps[K]>;

const ok = () => SLURM_SUCCESS;
const notSupported = () => errnoValue('ESLURM_NOT_SUPPORTED');

export const selectDefaults: { readonly [K in OptionalHook]: HookFn<K> } = {
  select_p_state_save: ok,
  select_p_state_restore: ok,
  select_p_reconfigure: ok,
  select_p_select_nodeinfo_alloc: () => null,
  select_p_select_nodeinfo_pack: ok,
  select_p_select_nodeinfo_unpack: () => ({ rc: SLURM_SUCCESS, value: null }),
  select_p_select_nodeinfo_free: ok,
  select_p_select_nodeinfo_set: ok,
  select_p_select_nodeinfo_set_all: ok,
  select_p_select_nodeinfo_get: () => ({ rc: SLURM_SUCCESS }),
  select_p_update_node_config: ok,
  select_p_node_ranking: () => null,
  select_p_update_node_state: ok,
  select_p_select_jobinfo_alloc: () => null,
  select_p_select_jobinfo_copy: (jobinfo) => jobinfo,
  select_p_select_jobinfo_free: ok,
  select_p_select_jobinfo_pack: ok,
  select_p_select_jobinfo_unpack: () => ({ rc: SLURM_SUCCESS, value: null }),
  select_p_select_jobinfo_get: () => ({ rc: SLURM_ERROR }),
  select_p_select_jobinfo_set: () => SLURM_ERROR,
  select_p_select_jobinfo_sprint: () => '',
  select_p_select_jobinfo_xstrdup: () => '',
  select_p_job_signal: ok,
  select_p_job_mem_confirm: ok,
  select_p_job_suspend: ok,
  select_p_job_resume: ok,
  select_p_job_expand_allow: () => false,
  select_p_job_expand: notSupported,
  select_p_job_resized: notSupported,
  select_p_step_pick_nodes: () => null,
  select_p_resv_test: (_resv, node_cnt, avail_bitmap) => firstNodes(avail_bitmap, node_cnt),
  select_p_get_info_from_plugin: () => ({ rc: SLURM_SUCCESS }),
  select_p_ba_init: () => undefined,
  select_p_ba_get_dims: () => null,
};

/** The hooks a plugin must export (selectSymbols' `required` ones). */
export const requiredSelectHooks = (Object.keys(selectSymbols) as SelectHook[]).filter(
  (hook) => selectSymbols[hook] === 'required',
);

// select_p_resv_test's default: the first node_cnt nodes of avail_bitmap, whole.
function firstNodes(avail: Bitstr, count: number): { nodes: Bitstr } | null {
  const nodes = new Bitstr(avail.size);
  let taken = 0;
  for (let i = avail.nextSet(0); i >= 0 && taken < count; i = avail.nextSet(i + 1)) {
    nodes.set(i);
    taken++;
  }
  return taken < count ? null : { nodes };
}
