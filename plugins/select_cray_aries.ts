// select/cray_aries: Cray XC (Aries) node selection — a wrapper over select/linear (the same
// SelectCore and linear engine; whole nodes, best fit over consecutive runs) that adds the job
// initialisation and termination steps of Slurm's src/plugins/select/cray_aries:
//   job_begin  after linear records the job, the job's blades (a node's coordinates without
//              the last one) are marked in use and its per-job data (jobinfo) says "running";
//   job_ready  true only once job_begin has run and the job is not being cleaned up;
//   job_fini   the job is marked "cleaning", its nodes are health-checked (logged, as the node
//              health check Cray runs after each job), its blades released, then linear frees
//              its nodes;
//   job_signal logged (ALPS signals its applications; tslurm's batch step does that here).
// select_p_ba_init / select_p_ba_get_dims give the machine's dimensions from node names: see
// lib/cray-torus.ts. Options (`options: { select_cray_aries: { ... } }`):
//   dims: [4, 2, 2]   the torus size; default: what the node names' coordinates span
//   dimensions: 3     how many trailing name characters are coordinates when dims is absent
import {
  SLURM_ERROR,
  SLURM_SUCCESS,
  SLURM_VERSION_NUMBER,
  type Buf,
  type GetResult,
  type PluginHost,
  type PluginLog,
  type Rc,
  type UnpackResult,
  type job_record_t,
  type node_record_t,
  type select_jobdata_type,
  type step_record_t,
} from '../src/plugin-api/index.js';
import { bladeOf, buildTorus, dimsOption, type Torus } from './lib/cray-torus.js';
import { linearEngine } from './lib/linear-engine.js';
import { SelectCore, selectFunctions } from './lib/select-core.js';

export const plugin_name = 'Cray/Aries node selection plugin';
export const plugin_type = 'select/cray_aries';
export const plugin_version = SLURM_VERSION_NUMBER(0, 1, 0);

/** The per-job data (Slurm's select_jobinfo_t for Cray). */
export interface CrayJobinfo {
  /** Blades of the job's nodes. */
  blades: string[];
  /** job_begin has run. */
  running: boolean;
  /** job_fini is cleaning up the job's nodes. */
  cleaning: boolean;
}

const core = new SelectCore({ engine: linearEngine, perJobGres: false, noGres: false, consumable: false });
const linear = selectFunctions(core);

let log: PluginLog | undefined;
let declaredDims: number[] | null = null;
let dimCount = 3;
let torus: Torus = { dims: [], coords: [] };
const jobs = new Map<number, CrayJobinfo>();
/** Blade → jobs using it. */
const bladeJobs = new Map<string, number>();

export function init(host: PluginHost): Rc {
  linear.init(host);
  log = host.log;
  try {
    declaredDims = dimsOption(host.options['dims']);
  } catch (error) {
    host.log.error(`select/cray_aries: ${(error as Error).message}`);
    return SLURM_ERROR;
  }
  const count = host.options['dimensions'];
  dimCount = declaredDims?.length ?? (Number.isInteger(count) && (count as number) > 0 ? (count as number) : 3);
  return SLURM_SUCCESS;
}

export const {
  select_p_state_save,
  select_p_state_restore,
  select_p_job_test,
  select_p_get_info_from_plugin,
  select_p_job_suspend,
  select_p_job_resume,
  select_p_job_resized,
  select_p_job_expand_allow,
} = linear;

export function select_p_node_init(node_ptr: readonly node_record_t[]): Rc {
  torus = buildTorus(node_ptr.map((n) => n.name), declaredDims, dimCount, false);
  return linear.select_p_node_init(node_ptr);
}

/** Recovered jobs that hold nodes are running jobs again: their blades are in use. */
export function select_p_job_init(job_list: readonly job_record_t[]): Rc {
  const rc = linear.select_p_job_init(job_list);
  if (rc !== SLURM_SUCCESS) return rc;
  jobs.clear();
  bladeJobs.clear();
  for (const job of job_list) if (core.job_ready(job)) begin(job);
  return SLURM_SUCCESS;
}

export function select_p_job_begin(job_ptr: job_record_t): Rc {
  const rc = linear.select_p_job_begin(job_ptr);
  if (rc !== SLURM_SUCCESS) return rc;
  const info = begin(job_ptr);
  log?.verbose(`select/cray_aries: job ${job_ptr.job_id} begins on ${job_ptr.nodes ?? '?'} (blades ${info.blades.join(',') || 'none'})`);
  return SLURM_SUCCESS;
}

export function select_p_job_ready(job_ptr: job_record_t): boolean {
  const info = jobs.get(job_ptr.job_id);
  return info !== undefined && info.running && !info.cleaning && linear.select_p_job_ready(job_ptr);
}

export function select_p_job_fini(job_ptr: job_record_t): Rc {
  const info = jobs.get(job_ptr.job_id);
  if (info) {
    info.cleaning = true;
    log?.verbose(`select/cray_aries: job ${job_ptr.job_id} ends: node health check on ${job_ptr.nodes ?? '?'}`);
    for (const blade of info.blades) {
      const left = (bladeJobs.get(blade) ?? 1) - 1;
      if (left > 0) bladeJobs.set(blade, left);
      else bladeJobs.delete(blade);
    }
    info.running = false;
    info.cleaning = false;
    jobs.delete(job_ptr.job_id);
  }
  return linear.select_p_job_fini(job_ptr);
}

export function select_p_job_signal(job_ptr: job_record_t, signal: number): Rc {
  log?.verbose(`select/cray_aries: job ${job_ptr.job_id} signal ${signal}`);
  return SLURM_SUCCESS;
}

export function select_p_step_finish(step_ptr: step_record_t, killing_step: boolean): Rc {
  return linear.select_p_step_finish(step_ptr, killing_step);
}

// ---- per-job data ----

export const select_p_select_jobinfo_alloc = (): CrayJobinfo => ({ blades: [], running: false, cleaning: false });
export const select_p_select_jobinfo_copy = (jobinfo: CrayJobinfo): CrayJobinfo => ({ ...jobinfo, blades: [...jobinfo.blades] });

export function select_p_select_jobinfo_pack(jobinfo: CrayJobinfo, buffer: Buf): Rc {
  buffer.packStrArray(jobinfo.blades);
  buffer.packBool(jobinfo.running);
  buffer.packBool(jobinfo.cleaning);
  return SLURM_SUCCESS;
}

export function select_p_select_jobinfo_unpack(buffer: Buf): UnpackResult<CrayJobinfo> {
  try {
    return { rc: SLURM_SUCCESS, value: { blades: buffer.unpackStrArray(), running: buffer.unpackBool(), cleaning: buffer.unpackBool() } };
  } catch {
    return { rc: SLURM_ERROR };
  }
}

/** `SELECT_JOBDATA_CLEANING` (boolean), `SELECT_JOBDATA_BLADES` (string[]). */
export function select_p_select_jobinfo_get(jobinfo: CrayJobinfo, data_type: select_jobdata_type): GetResult {
  if (data_type === 'SELECT_JOBDATA_CLEANING') return { rc: SLURM_SUCCESS, data: jobinfo.cleaning };
  if (data_type === 'SELECT_JOBDATA_BLADES') return { rc: SLURM_SUCCESS, data: [...jobinfo.blades] };
  return { rc: SLURM_ERROR };
}

export const select_p_select_jobinfo_sprint = (jobinfo: CrayJobinfo): string => `Blades=${jobinfo.blades.join(',') || '(null)'}`;
export const select_p_select_jobinfo_xstrdup = select_p_select_jobinfo_sprint;

// ---- block allocator ----

/** The torus from the node names, checked against `dims` when `sanity_check` is set. */
export function select_p_ba_init(node_info_ptr: readonly node_record_t[], sanity_check: boolean): void {
  torus = buildTorus(node_info_ptr.map((n) => n.name), declaredDims, dimCount, sanity_check);
}

export const select_p_ba_get_dims = (): readonly number[] | null => (torus.dims.length > 0 ? torus.dims : null);

/** The per-job data of a running job (for tests and tools), or undefined. */
export const jobinfoOf = (jobId: number): CrayJobinfo | undefined => jobs.get(jobId);

// A job's blades are marked in use and its jobinfo says "running".
function begin(job: job_record_t): CrayJobinfo {
  const blades = new Set<string>();
  for (let i = job.node_bitmap?.nextSet(0) ?? -1; i >= 0; i = job.node_bitmap!.nextSet(i + 1)) {
    const blade = bladeOf(torus.coords[i] ?? null);
    if (blade !== null) blades.add(blade);
  }
  const info: CrayJobinfo = { blades: [...blades].sort(), running: true, cleaning: false };
  for (const blade of info.blades) bladeJobs.set(blade, (bladeJobs.get(blade) ?? 0) + 1);
  jobs.set(job.job_id, info);
  return info;
}
