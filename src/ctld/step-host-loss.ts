// A lost embedded step host under a tsrun's step (issue 19: a killed step host loses its
// node's running steps as a failed node does). The host serves every emulated node, so its
// loss is a node failure of every emulated node the job has: tsrun, whose I/O connections to
// the host closed, reports it with the host's pid, and the job ends NODE_FAIL (slurmctld ends
// a job whose node fails under srun so). The report is believed only once that pid is no
// live step host any more: a host that is merely stopping (SIGTERM, its idle exit cannot
// come while a step runs) ends its steps first and is gone within moments. Batch jobs need
// no report when their script ran there too: the controller watches the host that runs their
// scripts (batch-jobs.ts); one whose script runs on a node daemon (daemon mode) lost nodes
// under a step, and is requeued or ends NODE_FAIL as when a node is set DOWN.
// The nodes themselves stay up: the next tsrun or batch job starts a new host for them, as a
// rebooted node's slurmd registers again (ReturnToService).
import { UserError } from '../core/errors.js';
import { isFinished } from '../core/job-state.js';
import { isAdministrator } from './administrators.js';
import { isStepHost } from '../stepd/node-daemon/local-host-paths.js';
import type { Controller } from './controller.js';
import type { CtldHandlers } from './ctld-handlers.js';
import type { InteractiveJobs } from './interactive-jobs.js';
import type { NodeDaemons } from './node-daemons.js';
import type { NodeJobs } from './node-ops.js';

/** How long a reported host may take to go (a stopping host ends its steps, then exits). */
const HOST_GONE_WAIT_MS = 3000;

export function stepHostLossHandlers(ctl: Controller, interactive: InteractiveJobs, daemons: NodeDaemons, batch: NodeJobs): Pick<CtldHandlers, 'step-host-lost'> {
  return {
    'step-host-lost': async (body, connection) => {
      const job = ctl.jobs.get(body.jobId);
      if (!job || isFinished(job.record.job_state) || job.killCause !== undefined) return {};
      // Over TCP the sender is authenticated: only the job's owner (or an administrator) may say so.
      const uid = connection?.identity?.uid;
      if (uid !== undefined && uid !== job.record.user_id && !isAdministrator(uid)) throw UserError.fromErrno('ESLURM_ACCESS_DENIED');
      // A batch script on the lost host: the controller watches that host itself (batch-jobs.ts).
      if (!interactive.owns(job) && job.stepdPid !== undefined) return {};
      const emulated = job.record.node_bitmap ? ctl.table.namesFromBitmap(job.record.node_bitmap).filter((name) => !daemons.served(ctl.table.indexOf(name)!)) : [];
      if (emulated.length === 0) return {};
      // The pid is looked at when the sender's host is this one; a tsrun on another host (daemon
      // mode) had its own step host there, which only it can see.
      if (onThisHost(connection?.peer) && !(await goneWithin(body.pid, HOST_GONE_WAIT_MS))) {
        ctl.log.info(`job ${body.jobId}: the step host (pid ${body.pid}) reported lost still runs; not a node failure`);
        return {};
      }
      ctl.log.error(`job ${body.jobId}: the step host (pid ${body.pid}) is gone under its step: node failure on ${emulated.join(',')}`);
      // A batch job whose script runs on a node daemon lost nodes under a step: requeued when it
      // may be, else NODE_FAIL, as a batch job whose node is set DOWN.
      if (interactive.owns(job)) await interactive.nodeFailed(job);
      else await batch.cancel(job, batch.requeueable(job) ? 'REQUEUE' : 'NODE_FAIL');
      return {};
    },
  };
}

function onThisHost(peer: string | undefined): boolean {
  return peer === undefined || peer === 'local' || /^(127\.|::1:|::ffff:127\.)/.test(peer);
}

async function goneWithin(pid: number, ms: number): Promise<boolean> {
  const end = Date.now() + ms;
  while (isStepHost(pid)) {
    if (Date.now() > end) return false;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return true;
}
