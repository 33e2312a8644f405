// What the controller answers (one handler per request name). Requests name jobs as Slurm's
// commands do (find-jobs.ts).
import { constants } from 'node:os';
import { UserError } from '../core/errors.js';
import { isFinished } from '../core/job-state.js';
import { JOB_PENDING, JOB_STATE_BASE } from '../plugin-api/records.js';
import { CTLD_BODIES, type SignalScopeName } from '../protocol/ctld-messages.js';
import type { BatchJobs } from './batch-jobs.js';
import { findJobs } from './find-jobs.js';
import type { Controller } from './controller.js';
import type { Scheduler } from './scheduler.js';
import type { CtldJob } from './job.js';
import { jobView } from './job-view.js';
import type { CtldHandlers } from './ctld-handlers.js';
import { routes, type Route, type RpcConnection } from '../net/rpc-server.js';
import { submitJob } from './submit-job.js';
import { interactiveHandlers, type InteractiveJobs } from './interactive-jobs.js';
import { adminHandlers } from './admin-handlers.js';
import { stepHandlers } from './step-registry.js';
import type { StepView } from '../protocol/ctld-answers.js';
import type { JobView } from '../protocol/job-view.js';
import { nodeDaemonHandlers, type NodeDaemons } from './node-daemons.js';
import { stepHostLossHandlers } from './step-host-loss.js';
import { reservationHandlers } from './reservation-handlers.js';
import { isAdministrator, requireAdministrator } from './administrators.js';
import { diagHandler } from './diag-handler.js';
import { JobsFeed } from './jobs-feed.js';
import type { RpcStats } from '../net/rpc-stats.js';

const { SIGKILL } = constants.signals;

/**
 * Where scancel -s sends a signal (Slurm 22.05, observed: /work/ref/signals.txt): a batch job's
 * steps only (the default), its batch shell alone (`batch`, -b), or the batch shell, all it
 * started and the steps (`full`, -f). SIGKILL goes everywhere, as in Slurm.
 */
export type SignalScope = SignalScopeName;

/** The connection of a request the controller makes of itself. */
const internal: RpcConnection = { onClose: () => {}, peer: 'local' };

// A request's `userId` is the requesting user (auth/none: as the client says; the socket is
// the owner's only; on TCP the credential's).
/** The controller's parts the requests reach. */
export interface ControllerParts {
  ctl: Controller;
  batch: BatchJobs;
  interactive: InteractiveJobs;
  daemons: NodeDaemons;
  scheduler: Scheduler;
  /** Stops the controller (`shutdown`, after its answer). */
  shutdown: () => void;
  /** The requests the RPC server counts, for `diag`. */
  rpcStats?: RpcStats;
}

export function controllerHandlers({ ctl, batch, interactive, daemons, scheduler, shutdown, rpcStats }: ControllerParts): Map<string, Route> {
  const steps = stepHandlers(ctl);
  // What tsrestd keeps its copy of the job list by (jobs_since).
  const feed = new JobsFeed();
  // scancel -s of a job: its batch step as `scope` says, then every step it runs.
  const signalJob = async (job: CtldJob, signal: number, scope: SignalScope, userId: number): Promise<void> => {
    // slurmctld's job_signal: SIGKILL cancels a pending job; any other signal has nowhere to go
    // and is refused as a transition the job cannot make now (scancel: "Job can not be altered
    // now, try again later"; slurmrestd: error 2020), not as ESLURM_JOB_PENDING.
    if ((job.record.job_state & JOB_STATE_BASE) === JOB_PENDING) {
      if (signal !== SIGKILL) throw UserError.fromErrno('ESLURM_TRANSITION_STATE_NO_UPDATE');
      job.cancelledBy = userId;
      return batch.cancel(job);
    }
    const everywhere = signal === SIGKILL || scope === 'full';
    if (batch.holdsNoScript(job)) return batch.signal(job, signal);
    await batch.signal(job, signal, true, everywhere ? 'all' : scope === 'batch' ? 'shell' : 'none');
    if (scope === 'batch' && !everywhere) return;
    const listed = (await steps.steps({ id: String(job.record.job_id) }, internal)) as { steps: StepView[] };
    const ids = listed.steps.filter((step) => typeof step.stepId === 'number');
    if (ids.length > 0) await steps['step-cancel']({ ids: ids.map((step) => `${job.record.job_id}.${step.stepId}`), userId, signal }, internal);
  };
  const handlers: CtldHandlers = {
    ping: async () => ({ pid: process.pid, cluster: ctl.options.config.clusterName, jobs: ctl.jobs.size }),

    submit: async (body) => {
      const answer = await submitJob(ctl, body.desc, body.testOnly === true);
      if (!body.testOnly) scheduler.kick();
      return answer;
    },

    /** Resolves when every job named has ended; answers their final views. */
    wait: async (body) => {
      const jobs = body.ids.flatMap((id) => findJobs(ctl, id));
      await ctl.whenFinished(jobs);
      return viewsInTurns(ctl, jobs);
    },

    /** `details`: with what `scontrol -d` shows (job-details.ts). */
    jobs: async (body) => {
      const jobs = body?.ids ? body.ids.flatMap((id) => findJobs(ctl, id)) : [...ctl.jobs.values()];
      if (body?.details !== true) return jobs.map((job) => jobView(ctl, job));
      const { jobDetails } = await import('./job-details.js');
      return jobs.map((job) => ({ ...jobView(ctl, job), details: jobDetails(ctl, job) }));
    },

    jobs_since: async (body) => feed.changes(Array.from(ctl.jobs.values(), (job) => jobView(ctl, job)), body.feed, body.cursor),

    /**
     * Cancels (or signals) each job named; answers per id, as scancel reports per id. A job
     * already ending is Slurm's ESLURM_ALREADY_DONE.
     */
    cancel: async (body) => {
      const results: Array<{ id: string; error?: { message: string; code?: string } }> = [];
      for (const id of body.ids) {
        try {
          const jobs = findJobs(ctl, id);
          for (const job of jobs) checkOwner(job, body.userId);
          const live = jobs.filter((job) => !isFinished(job.record.job_state));
          if (live.length === 0) throw UserError.fromErrno('ESLURM_ALREADY_DONE');
          for (const job of live) {
            if (body.signal === undefined) {
              job.cancelledBy = body.userId;
              await batch.cancel(job);
            }
            else await signalJob(job, body.signal, body.scope ?? 'steps', body.userId);
          }
          results.push({ id });
        } catch (error) {
          if (!(error instanceof UserError)) throw error;
          results.push({ id, error: { message: error.message, ...(error.code && { code: error.code }) } });
        }
      }
      return { results };
    },

    hold: async (body) => {
      for (const job of body.ids.flatMap((id) => findJobs(ctl, id))) {
        checkOwner(job, body.userId);
        if ((job.record.job_state & JOB_STATE_BASE) !== JOB_PENDING) throw UserError.fromErrno('ESLURM_JOB_NOT_PENDING');
        job.held = body.admin && isAdministrator(body.userId) ? 'admin' : 'user';
        job.record.priority = 0;
        job.reason = job.held === 'admin' ? 'JobHeldAdmin' : 'JobHeldUser';
        await ctl.journalProgress(job);
      }
      return {};
    },

    release: async (body) => {
      for (const job of body.ids.flatMap((id) => findJobs(ctl, id))) {
        checkOwner(job, body.userId);
        if ((job.record.job_state & JOB_STATE_BASE) !== JOB_PENDING) throw UserError.fromErrno('ESLURM_JOB_NOT_PENDING');
        // A user cannot release what an administrator held (Slurm: Access/permission denied).
        if (job.held === 'admin' && !isAdministrator(body.userId)) throw UserError.fromErrno('ESLURM_ACCESS_DENIED');
        job.held = undefined;
        job.record.priority = Math.max(1, ctl.lastPriority - (job.record.details.nice ?? 0));
        job.reason = 'None';
        await ctl.journalProgress(job);
      }
      scheduler.kick();
      return {};
    },

    ...adminHandlers(ctl, batch, scheduler),

    ...interactiveHandlers(interactive),

    ...steps,

    ...nodeDaemonHandlers(daemons, batch),
    ...stepHostLossHandlers(ctl, interactive, daemons, batch),
    ...reservationHandlers(ctl, scheduler),

    diag: diagHandler(ctl, scheduler, rpcStats),

    shutdown: async (_body, connection) => {
      requireAdministrator(connection);
      setImmediate(shutdown);
      return {};
    },
  };
  return routes(CTLD_BODIES, handlers);
}

function checkOwner(job: CtldJob, userId: number): void {
  if (!isAdministrator(userId) && job.record.user_id !== userId) throw UserError.fromErrno('ESLURM_ACCESS_DENIED');
}

/** How many job views one turn of the loop builds for a `wait` answer. */
const VIEWS_PER_TURN = 250;

// The views of many jobs (tsbatch --wait on a whole array), built a few hundred a loop turn
// so that other requests are answered in between: 3,000 in one turn held the loop ~100 ms.
async function viewsInTurns(ctl: Controller, jobs: readonly CtldJob[]): Promise<JobView[]> {
  const views: JobView[] = [];
  for (let at = 0; at < jobs.length; at += VIEWS_PER_TURN) {
    if (at > 0) await new Promise((resolve) => setImmediate(resolve));
    for (const job of jobs.slice(at, at + VIEWS_PER_TURN)) views.push(jobView(ctl, job));
  }
  return views;
}
