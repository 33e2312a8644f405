// Changing a node's administrative state, whoever asks (tscontrol update, a node daemon that
// stopped answering or came back): the state is set, journaled, told to the select plugin, and
// a node set DOWN loses its jobs — requeued when they may be, else NODE_FAIL (slurmctld's
// kill_running_job_by_node_name).
import type { Controller } from './controller.js';
import type { CtldJob, KillCause } from './job.js';
import type { AdminState } from './node-states.js';

/** What ends the jobs of a node set DOWN (the controller's BatchJobs). */
export interface NodeJobs {
  cancel(job: CtldJob, cause: KillCause): Promise<void>;
  /** Whether the job can run again after it ends. */
  requeueable(job: CtldJob): boolean;
}

export async function applyNodeState(ctl: Controller, jobs: NodeJobs, index: number, next: AdminState): Promise<void> {
  ctl.nodeStates.set(index, next);
  ctl.nodeStates.refresh(ctl.jobs.values());
  await ctl.store.append({ t: 'node', ...ctl.nodeStates.record(index) });
  const node = ctl.table.nodes[index]!;
  const rc = await ctl.select.updateNodeState(node);
  if (rc !== 0) ctl.log.error(`node ${node.name}: select_p_update_node_state failed (rc ${rc})`);
  if (!next.down) return;
  for (const job of ctl.runningJobs()) {
    if (job.record.node_bitmap?.test(index)) await jobs.cancel(job, jobs.requeueable(job) ? 'REQUEUE' : 'NODE_FAIL');
  }
}
