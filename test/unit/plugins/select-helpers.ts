// Builders for the select plugin tests: node tables, jobs, bitmaps, and a fresh copy of a
// plugin module (each keeps its state at module level, as a Slurm plugin does).
import { vi } from 'vitest';
import { Bitstr } from '../../../src/core/bitstr.js';
import {
  INFINITE,
  JOB_PENDING,
  NODE_STATE_IDLE,
  SELECT_MODE_RUN_NOW,
  type job_details_t,
  type job_record_t,
  type node_record_t,
  type SelectJobTestArgs,
  type SelectMode,
  type SelectPlugin,
} from '../../../src/plugin-api/index.js';

export type NodeSpec = Partial<Omit<node_record_t, 'index'>>;

/** `count` nodes n1..nN: 4 CPUs (1 socket × 4 cores × 1 thread), 2000 MB, like real Slurm's `multi`. */
export function makeNodes(count: number, spec: NodeSpec | ((i: number) => NodeSpec) = {}): node_record_t[] {
  return Array.from({ length: count }, (_, index) => ({
    name: `n${index + 1}`,
    cpus: 4,
    tot_sockets: 1,
    cores: 4,
    threads: 1,
    real_memory: 2000,
    gres_list: [],
    features: [],
    weight: 1,
    node_state: NODE_STATE_IDLE,
    node_addr: null,
    ...(typeof spec === 'function' ? spec(index) : spec),
    index,
  }));
}

let nextJobId = 1;

/** A pending job; `details` defaults to one task of one CPU on one node. */
export function makeJob(details: Partial<job_details_t> = {}, rest: Partial<job_record_t> = {}): job_record_t {
  const num_tasks = details.num_tasks ?? 1;
  const cpus_per_task = details.cpus_per_task ?? 1;
  return {
    job_id: nextJobId++,
    name: 'job',
    user_id: 1000,
    group_id: 1000,
    partition: 'debug',
    job_state: JOB_PENDING,
    priority: 1,
    time_limit: INFINITE,
    submit_time: 0,
    start_time: 0,
    end_time: 0,
    gres_list: [],
    node_bitmap: null,
    nodes: null,
    job_resrcs: null,
    ...rest,
    details: {
      min_nodes: 1,
      max_nodes: 0,
      min_cpus: num_tasks * cpus_per_task,
      num_tasks,
      cpus_per_task,
      ntasks_per_node: 0,
      pn_min_memory: 0,
      mem_per_cpu: 0,
      req_node_bitmap: null,
      exc_node_bitmap: null,
      features: null,
      contiguous: false,
      share_res: undefined,
      whole_node: false,
      ...details,
    },
  };
}

export function bits(size: number, indices: number[] = []): Bitstr {
  const b = new Bitstr(size);
  for (const i of indices) b.set(i);
  return b;
}

export function allBits(size: number): Bitstr {
  return bits(size, Array.from({ length: size }, (_, i) => i));
}

export function indicesOf(b: Bitstr): number[] {
  const out: number[] = [];
  for (let i = 0; i < b.size; i++) if (b.test(i)) out.push(i);
  return out;
}

/** select_p_job_test's arguments; node counts from the job's -N unless given. */
export function testArgs(job: job_record_t, bitmap: Bitstr, mode: SelectMode = SELECT_MODE_RUN_NOW, counts: Partial<SelectJobTestArgs> = {}): SelectJobTestArgs {
  const min = Math.max(job.details.min_nodes, 1);
  const max = job.details.max_nodes;
  return {
    job,
    bitmap,
    min_nodes: min,
    max_nodes: max,
    req_nodes: max > 0 ? max : min,
    mode,
    preemptee_candidates: null,
    exc_core_bitmap: null,
    ...counts,
  };
}

export type SelectModule = SelectPlugin & { readonly plugin_type: string };

/** A fresh instance of a built-in select plugin module, node table loaded. */
export async function loadPlugin(name: 'select_linear' | 'select_cons_tres' | 'select_cons_res', nodes: node_record_t[]): Promise<SelectModule> {
  vi.resetModules();
  const mod = (await import(`../../../plugins/${name}.ts`)) as SelectModule;
  await mod.select_p_node_init(nodes);
  return mod;
}

/** job_test in RUN_NOW, then job_begin on the nodes chosen, as the host does. */
export async function start(plugin: SelectModule, job: job_record_t, candidates: Bitstr): Promise<job_record_t> {
  const result = await plugin.select_p_job_test(testArgs(job, candidates));
  if (result.nodes === undefined) throw new Error(`job ${job.job_id} did not fit: rc ${result.rc}`);
  const started: job_record_t = { ...job, node_bitmap: result.nodes, job_resrcs: result.job_resources ?? null };
  const rc = await plugin.select_p_job_begin(started);
  if (rc !== 0) throw new Error(`job_begin rc ${rc}`);
  return started;
}
