// `tscontrol update JobId=N NumNodes=M` on a running job (slurmctld's update_job with a smaller
// node count): the job keeps its first M nodes, and each node it gives up goes through
// select_p_job_resized, which releases it and trims job_resrcs. Growing a job is refused: it
// would need select_p_job_expand, which Slurm removed; select_p_job_expand_allow is asked so
// a plugin's answer shows in the log.
import { UserError } from '../core/errors.js';
import { compressCounts } from '../core/tasks-per-node.js';
import { JOB_RUNNING, JOB_STATE_BASE, type job_resources_t } from '../plugin-api/records.js';
import type { Controller } from './controller.js';
import type { CtldJob } from './job.js';
import { selectRefusal } from './suspend.js';
import type { ResizedAllocation } from '../protocol/ctld-answers.js';

export async function resizeJob(ctl: Controller, job: CtldJob, nodeCount: number): Promise<ResizedAllocation> {
  const r = job.record;
  if ((r.job_state & JOB_STATE_BASE) !== JOB_RUNNING || r.node_bitmap === null) throw UserError.fromErrno('ESLURM_JOB_NOT_RUNNING');
  const held = ctl.table.namesFromBitmap(r.node_bitmap);
  if (nodeCount > held.length) {
    const allowed = await ctl.select.jobExpandAllow();
    ctl.log.info(`job ${r.job_id}: cannot grow from ${held.length} to ${nodeCount} nodes (select_p_job_expand_allow: ${allowed}; tslurm does not expand jobs)`);
    throw UserError.fromErrno('ESLURM_INVALID_NODE_COUNT');
  }
  if (nodeCount < 1) throw UserError.fromErrno('ESLURM_INVALID_NODE_COUNT');
  const before = r.job_resrcs;
  for (const name of held.slice(nodeCount)) {
    const node = ctl.table.nodes[ctl.table.indexOf(name)!]!;
    const rc = await ctl.select.jobResized(r, node);
    if (rc !== 0) throw selectRefusal(rc);
    r.node_bitmap.clear(node.index);
  }
  r.nodes = ctl.table.hostlistFromBitmap(r.node_bitmap);
  // A plugin that trims job_resrcs itself leaves one that matches; else keep the nodes left.
  if (r.job_resrcs === before && before !== null) r.job_resrcs = keepNodes(before, nodeCount, r.node_bitmap);
  await ctl.journalProgress(job);
  ctl.log.info(`job ${r.job_id}: resized to ${nodeCount} node(s): ${r.nodes}`);
  return { jobId: r.job_id, nodeList: r.nodes, nodeCount, cpusPerNode: compressCounts(r.job_resrcs?.cpus ?? []) };
}

// The first `count` hosts of an allocation record.
function keepNodes(res: job_resources_t, count: number, bitmap: job_resources_t['node_bitmap']): job_resources_t {
  const cpus = res.cpus.slice(0, count);
  return {
    ...res,
    nhosts: count,
    node_bitmap: bitmap.copy(),
    cpus,
    ncpus: cpus.reduce((a, b) => a + b, 0),
    memory_allocated: res.memory_allocated.slice(0, count),
    gres_allocated: res.gres_allocated.slice(0, count),
  };
}
