// A lost embedded step host under a tsrun's step (issue 19: a killed step host loses its
// node's running steps as a failed node does). The host serves every emulated node, so its
// loss is a node failure of every emulated node the job has: tsrun, whose I/O connections to
// the host closed, reports it with the host's pid, and the job ends NODE_FAIL (slurmctld ends
// a job whose node fails under srun so). The report is believed only once that pid is no
// live step host any more: a host that is merely stopping (SIGTERM, its idle exit cannot
// come while a step runs) ends its steps first and is gone within moments. Batch jobs need
// no report: the controller watches the host that runs their scripts (batch-jobs.ts).
// The nodes themselves stay up: the next tsrun or batch job starts a new host for them, as a
// rebooted node's slurmd registers again (ReturnToService).
import { isFinished } from '../core/job-state.js';
import { isStepHost } from '../stepd/node-daemon/local-host-paths.js';
import type { Controller } from './controller.js';
import type { CtldHandlers } from './ctld-handlers.js';
import type { InteractiveJobs } from './interactive-jobs.js';
import type { NodeDaemons } from './node-daemons.js';

/** How long a reported host may take to go (a stopping host ends its steps, then exits). */
const HOST_GONE_WAIT_MS = 3000;

export function stepHostLossHandlers(ctl: Controller, interactive: InteractiveJobs, daemons: NodeDaemons): Pick<CtldHandlers, 'step-host-lost'> {
  return {
    'step-host-lost': async (body) => {
      const job = ctl.jobs.get(body.jobId);
      if (!job || !interactive.owns(job) || isFinished(job.record.job_state)) return {};
      const emulated = job.record.node_bitmap ? ctl.table.namesFromBitmap(job.record.node_bitmap).filter((name) => !daemons.served(ctl.table.indexOf(name)!)) : [];
      if (emulated.length === 0) return {};
      if (!(await goneWithin(body.pid, HOST_GONE_WAIT_MS))) {
        ctl.log.info(`job ${body.jobId}: the step host (pid ${body.pid}) reported lost still runs; not a node failure`);
        return {};
      }
      ctl.log.error(`job ${body.jobId}: the step host (pid ${body.pid}) is gone under its step: node failure on ${emulated.join(',')}`);
      await interactive.nodeFailed(job);
      return {};
    },
  };
}

async function goneWithin(pid: number, ms: number): Promise<boolean> {
  const end = Date.now() + ms;
  while (isStepHost(pid)) {
    if (Date.now() > end) return false;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return true;
}
