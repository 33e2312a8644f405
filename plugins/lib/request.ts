// A job's request as the select plugins use it: job_details_t read once, with the derived
// values Slurm computes before selecting (CPUs still needed, per-node minimum CPUs, the
// parsed feature constraint).
import {
  featureOptions,
  parseFeatureExpr,
  type Bitstr,
  type FeatureOption,
  type gres_spec_t,
  type job_record_t,
} from '../../src/plugin-api/index.js';

export interface SelectRequest {
  readonly jobId: number;
  /** CPUs the whole job needs (Slurm's details->min_cpus, never below what the tasks need). */
  readonly minCpus: number;
  readonly cpusPerTask: number;
  /** 0 when not given. */
  readonly numTasks: number;
  /** 0 when not given. */
  readonly ntasksPerNode: number;
  /** Fewest CPUs a node of the job may get (Slurm's pn_min_cpus). */
  readonly pnMinCpus: number;
  /** MB per node, 0 when not given. */
  readonly memPerNode: number;
  /** MB per allocated CPU, 0 when not given. */
  readonly memPerCpu: number;
  readonly gresPerNode: readonly gres_spec_t[];
  readonly gresPerJob: readonly gres_spec_t[];
  /** `--exclusive`: whole nodes only, and no other job on them. */
  readonly exclusive: boolean;
  readonly contiguous: boolean;
  readonly overcommit: boolean;
  /** The ways the feature constraint can be met, tried in order; one always-true option if none. */
  readonly featureOptions: readonly FeatureOption[];
  readonly reqNodes: Bitstr | null;
  readonly excNodes: Bitstr | null;
  /** How many jobs may hold each core this job takes (OverSubscribe); 1: it shares none. */
  readonly share: number;
}

/** The one option of a job without a constraint: every node. */
export const ANY_NODE: FeatureOption = { filter: () => true, counts: [] };

/**
 * The request of `job`, or null when its feature constraint does not parse (the controller
 * should have refused it at submit; the plugin answers ESLURM_INVALID_FEATURE).
 */
export function readRequest(job: job_record_t): SelectRequest | null {
  const d = job.details;
  const cpusPerTask = Math.max(d.cpus_per_task, 1);
  const overcommit = d.overcommit ?? false;
  const ntasksPerNode = d.ntasks_per_node;
  const taskCpus = overcommit ? 0 : d.num_tasks * cpusPerTask;
  const perNodeCpus = overcommit ? 0 : ntasksPerNode * cpusPerTask * Math.max(d.min_nodes, 1);
  let options: readonly FeatureOption[] = [ANY_NODE];
  if (d.features !== null && d.features.trim() !== '') {
    try {
      options = featureOptions(parseFeatureExpr(d.features));
    } catch {
      return null;
    }
  }
  return {
    jobId: job.job_id,
    minCpus: Math.max(d.min_cpus, taskCpus, perNodeCpus, Math.max(d.min_nodes, 1)),
    cpusPerTask,
    numTasks: d.num_tasks,
    ntasksPerNode,
    pnMinCpus: overcommit ? 1 : cpusPerTask * Math.max(ntasksPerNode, 1),
    memPerNode: d.pn_min_memory,
    memPerCpu: d.pn_min_memory > 0 ? 0 : d.mem_per_cpu,
    gresPerNode: job.gres_list,
    gresPerJob: job.gres_per_job ?? [],
    exclusive: d.whole_node || d.share_res === false,
    share: d.whole_node ? 1 : Math.max(1, d.max_share ?? 1),
    contiguous: d.contiguous,
    overcommit,
    featureOptions: options,
    reqNodes: d.req_node_bitmap,
    excNodes: d.exc_node_bitmap,
  };
}
