/**
 * The controller's data objects as plugins see them. Names and meanings are Slurm's
 * (`node_record_t`, `job_record_t`, `job_resources_t`, `step_record_t` from slurmctld.h and
 * job_resources.h), trimmed to what tslurm keeps. Everything is read-only except where a
 * Slurm plugin may write: `job_record_t.job_resrcs`, which the select plugin sets.
 *
 * Bitmaps are {@link Bitstr} (Slurm's `bitstr_t`), indexed by node index: bit `i` is the node
 * whose `index` is `i`. Treat a bitmap you did not create as read-only; `copy()` it first.
 * Memory is in megabytes, times are Unix seconds, time limits are minutes, as in Slurm.
 */
import type { Bitstr } from '../core/bitstr.js';

export type { Bitstr };

/** Slurm's NO_VAL ("not set") and INFINITE ("unlimited", e.g. a `time_limit`) for uint32 fields. */
export { NO_VAL, INFINITE } from '../core/slurm-constants.js';

/** Base node states (`enum node_states`); `node_state & NODE_STATE_BASE` is one of these. */
export const NODE_STATE_UNKNOWN = 0;
export const NODE_STATE_DOWN = 1;
export const NODE_STATE_IDLE = 2;
export const NODE_STATE_ALLOCATED = 3;
export const NODE_STATE_ERROR = 4;
export const NODE_STATE_MIXED = 5;
export const NODE_STATE_FUTURE = 6;
export const NODE_STATE_BASE = 0x0000000f;
/** Node state flags, or-ed onto the base state. */
/** In an active advance reservation (sinfo's `resv`). */
export const NODE_STATE_RES = 0x00000020;
export const NODE_STATE_DRAIN = 0x00000200;
export const NODE_STATE_COMPLETING = 0x00000400;
export const NODE_STATE_NO_RESPOND = 0x00000800;
export const NODE_STATE_FAIL = 0x00002000;
export const NODE_STATE_MAINT = 0x00008000;

/** Base job states (`enum job_states`); `job_state & JOB_STATE_BASE` is one of these. */
export const JOB_PENDING = 0;
export const JOB_RUNNING = 1;
export const JOB_SUSPENDED = 2;
export const JOB_COMPLETE = 3;
export const JOB_CANCELLED = 4;
export const JOB_FAILED = 5;
export const JOB_TIMEOUT = 6;
export const JOB_NODE_FAIL = 7;
export const JOB_PREEMPTED = 8;
export const JOB_BOOT_FAIL = 9;
export const JOB_DEADLINE = 10;
export const JOB_OOM = 11;
export const JOB_STATE_BASE = 0x000000ff;
/** Job state flags, or-ed onto the base state. */
export const JOB_REQUEUE = 0x00000400;
export const JOB_CONFIGURING = 0x00004000;
export const JOB_COMPLETING = 0x00008000;

/** Special step ids (slurm.h): the batch script step and the extern step. */
export const SLURM_BATCH_SCRIPT = 0xfffffffb;
export const SLURM_EXTERN_CONT = 0xfffffffc;

/** One generic resource entry: `gpu:2` or `gpu:a100:2` (Slurm's `name[:type]:count`). */
export interface gres_spec_t {
  readonly name: string;
  /** The optional type (`a100` in `gpu:a100:2`). */
  readonly type?: string;
  readonly count: number;
  /**
   * In `job_resources_t.gres_allocated` only: which units of the node's gres of this name were
   * given, 0-based in the order of the node's `gres_list` (a node with `gpu:a100:2,gpu:v100:2`
   * has a100s 0-1 and v100s 2-3). For GPUs these are what `CUDA_VISIBLE_DEVICES` lists.
   */
  readonly indices?: readonly number[];
}

/** A compute node (slurmctld's `node_record_t`), as configured and as it registered. */
export interface node_record_t {
  /** Node name (`NodeName`), e.g. `n01`. */
  readonly name: string;
  /** Position in the node table; the bit for this node in every node bitmap. */
  readonly index: number;
  /** Logical CPUs usable by jobs (`CPUs`). */
  readonly cpus: number;
  /** Sockets on the node (`tot_sockets`). */
  readonly tot_sockets: number;
  /** Cores per socket (`cores`). */
  readonly cores: number;
  /** Threads per core (`threads`). */
  readonly threads: number;
  /** Memory usable by jobs, MB (`RealMemory`). */
  readonly real_memory: number;
  /** The node's generic resources as configured (`Gres=gpu:2`). */
  readonly gres_list: readonly gres_spec_t[];
  /** Features the node offers (`Features=avx2,ib`). */
  readonly features: readonly string[];
  /** Scheduling weight: lower-weight nodes are allocated first (`Weight`, default 1). */
  readonly weight: number;
  /** Temporary disk, MB (`TmpDisk`, default 0); absent from older hosts. */
  readonly tmp_disk?: number;
  /** Base state (`NODE_STATE_*`) or-ed with flags (`NODE_STATE_DRAIN`, ...). */
  readonly node_state: number;
  /** Where the node's step daemon listens (`NodeAddr`), or null when embedded. */
  readonly node_addr: string | null;
}

/** A job's request (slurmctld's `job_details`): the part of a job that select reads. */
export interface job_details_t {
  /** Nodes wanted: at least `min_nodes`, at most `max_nodes` (0: no upper limit). */
  readonly min_nodes: number;
  readonly max_nodes: number;
  /** CPUs the whole job needs at least (`-n` × `-c`, or `--mincpus` per node × nodes). */
  readonly min_cpus: number;
  /** Tasks requested (`-n`); 0 when not given. */
  readonly num_tasks: number;
  /** `-c, --cpus-per-task`; 1 when not given. */
  readonly cpus_per_task: number;
  /** `--ntasks-per-node`; 0 when not given. */
  readonly ntasks_per_node: number;
  /**
   * `--mem`, MB per node; 0 when not given. Slurm packs `--mem-per-cpu` into the same field
   * with a flag bit; tslurm keeps it apart in `mem_per_cpu`. At most one of them is non-zero.
   */
  readonly pn_min_memory: number;
  /** `--mem-per-cpu`, MB per allocated CPU; 0 when not given. */
  readonly mem_per_cpu: number;
  /** Nodes the job must include (`-w, --nodelist`), or null. */
  readonly req_node_bitmap: Bitstr | null;
  /** Nodes the job must not use (`-x, --exclude`), or null. */
  readonly exc_node_bitmap: Bitstr | null;
  /** Feature expression (`-C, --constraint`), Slurm syntax (`avx2&ib`, `a|b`), or null. */
  readonly features: string | null;
  /** `--contiguous`: the nodes must be consecutive in the node table. */
  readonly contiguous: boolean;
  /** `--oversubscribe` (true), `--exclusive` (false), or not given (undefined). */
  readonly share_res: boolean | undefined;
  /** `--exclusive`: whole nodes, shared with no other job. */
  readonly whole_node: boolean;
  /**
   * `-O, --overcommit`: tasks may share CPUs, so one CPU per node is enough (`min_cpus` then
   * counts nodes, not tasks). Absent means false.
   */
  readonly overcommit?: boolean;
  /**
   * `--nice`: how much lower the job's priority is (negative: higher; root only). Slurm keeps it
   * offset by NICE_OFFSET in a uint32; tslurm keeps the signed value. Absent means 0.
   */
  readonly nice?: number;
  /**
   * How many jobs may hold one core at once: the partition's OverSubscribe=FORCE (4, Slurm's
   * default count), or YES for a job that asked `--oversubscribe`. Absent or 1: none share.
   */
  readonly max_share?: number;
}

/** Resources the select plugin gave a job (Slurm's `job_resources_t`). */
export interface job_resources_t {
  /** Number of nodes allocated; equals `node_bitmap.setCount()` and every array's length. */
  nhosts: number;
  /** The allocated nodes. */
  node_bitmap: Bitstr;
  /** Total CPUs allocated (sum of `cpus`). */
  ncpus: number;
  /** CPUs allocated on each allocated node, in node-index order. */
  cpus: number[];
  /** Memory allocated on each allocated node, MB, in node-index order. */
  memory_allocated: number[];
  /** Generic resources allocated on each allocated node, in node-index order. */
  gres_allocated: gres_spec_t[][];
  /** Whole nodes were allocated (`--exclusive`). */
  whole_node: boolean;
}

/** A job (slurmctld's `job_record_t`). */
export interface job_record_t {
  readonly job_id: number;
  /** Job name (`-J`). */
  readonly name: string;
  readonly user_id: number;
  readonly group_id: number;
  /** Partition the job runs in (or was submitted to). */
  readonly partition: string;
  /** Base state (`JOB_*`) or-ed with flags (`JOB_COMPLETING`, ...). */
  readonly job_state: number;
  /** Scheduling priority; higher starts first, 0 means held. */
  readonly priority: number;
  /** Time limit in minutes; {@link INFINITE} for none. */
  readonly time_limit: number;
  /**
   * `--time-min`, minutes: the shortest time limit a scheduler may cut `time_limit` down to so
   * the job starts sooner (Slurm's `job_ptr->time_min`). Absent or 0: none.
   */
  readonly time_min?: number;
  /** Submit, start and expected end time, Unix seconds (0 until known). */
  readonly submit_time: number;
  readonly start_time: number;
  readonly end_time: number;
  /** Generic resources requested per node (`--gres`, `--gpus-per-node`). */
  readonly gres_list: readonly gres_spec_t[];
  /**
   * Generic resources requested for the whole job, spread over its nodes (`--gpus`; Slurm's
   * `tres_per_job`). Absent means none. Only select plugins that allocate gres honour it.
   */
  readonly gres_per_job?: readonly gres_spec_t[];
  /** What the job asked for. */
  readonly details: job_details_t;
  /** Allocated nodes, once the job has been given resources; else null. */
  readonly node_bitmap: Bitstr | null;
  /** Allocated nodes as a hostlist expression (`n[01-02]`), or null. */
  readonly nodes: string | null;
  /**
   * The allocation in detail, or null. The select plugin may set it in `select_p_job_begin`
   * (and it is what `select_p_job_test` returns as `job_resources` in RUN_NOW mode).
   */
  job_resrcs: job_resources_t | null;
}

/** A job step (slurmctld's `step_record_t`). */
export interface step_record_t {
  /** Step id within its job: 0, 1, ..., or {@link SLURM_BATCH_SCRIPT}/{@link SLURM_EXTERN_CONT}. */
  readonly step_id: number;
  /** The job this step belongs to. */
  readonly job_ptr: job_record_t;
  /** Nodes the step runs on (a subset of the job's). */
  readonly step_node_bitmap: Bitstr;
  /** Tasks in the step (`step_layout->task_cnt`). */
  readonly ntasks: number;
  readonly cpus_per_task: number;
  /** CPUs the step uses in all. */
  readonly cpu_count: number;
  /** Memory per node, MB; 0 when the step takes the job's. */
  readonly pn_min_memory: number;
  /** Memory per CPU, MB; 0 when not given. */
  readonly mem_per_cpu: number;
}

/** A reservation request (Slurm's `resv_desc_msg_t`), as passed to `select_p_resv_test`. */
export interface resv_desc_msg_t {
  readonly name: string;
  /** Start and end, Unix seconds. */
  readonly start_time: number;
  readonly end_time: number;
  readonly partition: string | null;
  /** Feature expression the nodes must satisfy, or null. */
  readonly features: string | null;
  /** Nodes named in the request (hostlist expression), or null to let select choose. */
  readonly node_list: string | null;
}
