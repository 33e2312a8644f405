// The controller's answers to tscontrol's administrative requests: live node and partition
// information, `update NodeName=...`, `update PartitionName=...`, `update JobId=...`,
// `write batch_script`, `suspend`, `resume`, `requeue` and `reconfigure`. Errors are Slurm's
// errno texts; tscontrol adds scontrol's framing.
import { UserError } from '../core/errors.js';
import { expandHostlist } from '../core/hostlist.js';
import { INFINITE } from '../core/slurm-constants.js';
import { isFinished } from '../core/job-state.js';
import { JobContainerFacade } from '../interfaces/job-container.js';
import { JOB_PENDING, JOB_RUNNING, JOB_STATE_BASE, JOB_SUSPENDED } from '../plugin-api/records.js';
import type { BatchJobs } from './batch-jobs.js';
import { applyNodeState } from './node-ops.js';
import type { Controller } from './controller.js';
import type { Scheduler } from './scheduler.js';
import type { CtldJob } from './job.js';
import { liveClusterInfo } from './live-info.js';
import type { AdminState } from './node-states.js';
import { findJobs } from './find-jobs.js';
import { resumeJob, selectRefusal, suspendJob } from './suspend.js';
import { resizeJob } from './resize.js';
import type { ResizedAllocation } from '../protocol/ctld-answers.js';
import { updatePartition } from './partition-updates.js';
import { reloadConfig } from './reconfigure.js';
import { partitionSharing } from './job-from-desc.js';
import { isAdministrator, requireAdministrator } from './administrators.js';
import { parseDependency } from '../core/dependency-spec.js';

import type { CtldBody, JobUpdate } from '../protocol/ctld-messages.js';
import type { CtldHandlers } from './ctld-handlers.js';

type AdminOps = 'cluster_info' | 'update_node' | 'update_job' | 'batch_script' | 'update_partition' | 'suspend' | 'resume' | 'requeue' | 'reconfigure';

export function adminHandlers(ctl: Controller, batch: BatchJobs, scheduler: Scheduler): Pick<CtldHandlers, AdminOps> {
  return {
    cluster_info: async () => {
      await ctl.nodeinfoSetAll();
      return liveClusterInfo(ctl);
    },

    update_node: async (body, connection) => {
      requireAdministrator(connection);
      ctl.nodesChanged();
      await updateNodes(ctl, batch, body);
      scheduler.kick();
      return {};
    },

    /** scontrol write batch_script: the script a batch job was submitted with (its owner or root). */
    batch_script: async (body) => {
      const job = findJobs(ctl, body.id)[0]!;
      checkOwner(job, body.userId);
      if (job.desc.interactive !== undefined) throw UserError.fromErrno('ESLURM_JOB_SCRIPT_MISSING');
      return { script: job.desc.script };
    },

    /** Body: the change (partition-updates.ts). */
    update_partition: async (body, connection) => {
      requireAdministrator(connection);
      updatePartition(ctl, body);
      if (body.oversubscribe !== undefined) {
        const changed = [...ctl.jobs.values()].filter((job) => job.record.partition === body.name && reshare(ctl, job));
        await Promise.all(changed.map((job) => ctl.journalSubmit(job)));
      }
      scheduler.kick();
      return {};
    },

    update_job: async (body) => {
      const resized: ResizedAllocation[] = [];
      for (const job of findJobs(ctl, body.id)) {
        await updateJob(ctl, job, body.update, body.userId);
        if (body.update.numNodes !== undefined) resized.push(await resizeJob(ctl, job, body.update.numNodes));
      }
      scheduler.kick();
      return { resized };
    },

    suspend: async (body) => {
      for (const job of suspendable(ctl, body)) {
        const base = job.record.job_state & JOB_STATE_BASE;
        // Suspending a suspended job is quietly nothing (observed on Slurm 22.05).
        if (base === JOB_SUSPENDED) continue;
        if (base === JOB_PENDING) throw UserError.fromErrno('ESLURM_JOB_PENDING');
        if (isFinished(job.record.job_state) || job.killCause !== undefined) throw UserError.fromErrno('ESLURM_ALREADY_DONE');
        await suspendJob(ctl, batch, job, true);
      }
      // What the suspended jobs gave up may start others.
      scheduler.kick();
      return {};
    },

    resume: async (body) => {
      for (const job of suspendable(ctl, body)) {
        if (isFinished(job.record.job_state) || job.killCause !== undefined) throw UserError.fromErrno('ESLURM_ALREADY_DONE');
        if ((job.record.job_state & JOB_STATE_BASE) !== JOB_SUSPENDED) throw UserError.fromErrno('ESLURM_JOB_NOT_SUSPENDED');
        // An administrator's resume also ends a preemption's suspension.
        const rc = await resumeJob(ctl, batch, job, true);
        if (rc !== 0) throw selectRefusal(rc);
      }
      scheduler.kick();
      return {};
    },

    requeue: async (body) => {
      for (const job of findJobs(ctl, body.id)) {
        checkOwner(job, body.userId);
        const base = job.record.job_state & JOB_STATE_BASE;
        if (base === JOB_PENDING) throw UserError.fromErrno('ESLURM_JOB_PENDING');
        if (job.desc.requeue === false) throw UserError.fromErrno('ESLURM_DISABLED');
        if (job.killCause !== undefined || (isFinished(job.record.job_state) && !ctl.isDone(job))) throw UserError.fromErrno('ESLURM_ALREADY_DONE');
        // A finished job is queued again at once (observed: PENDING, Reason=None, Restarts=1).
        if (isFinished(job.record.job_state)) {
          await requeueFinished(ctl, job);
          continue;
        }
        // slurmctld holds a requeued job back for its credentials' lifetime plus a second
        // (observed: EligibleTime 121 s after the requeue), in the controller's minutes.
        const now = Math.floor(Date.now() / 1000);
        job.desc = { ...job.desc, beginTime: now + Math.ceil((121 * ctl.options.minuteSeconds) / 60) };
        job.record.submit_time = now;
        await batch.cancel(job, 'REQUEUE');
      }
      scheduler.kick();
      return {};
    },

    reconfigure: async (_body, connection) => {
      requireAdministrator(connection);
      const answer = await reloadConfig(ctl);
      await reconfigurePlugins(ctl);
      scheduler.kick();
      return answer;
    },
  };
}

async function requeueFinished(ctl: Controller, job: CtldJob): Promise<void> {
  const r = job.record;
  Object.assign(r, { job_state: JOB_PENDING, start_time: 0, end_time: 0, node_bitmap: null, nodes: null, job_resrcs: null });
  r.submit_time = Math.floor(Date.now() / 1000);
  job.exitStatus = 0;
  job.reason = 'None';
  job.requeueCount++;
  await ctl.sched.requeue(r, 'scontrol requeue');
  await ctl.journalProgress(job);
}

// scontrol suspend/resume: an unknown job is SLURM_UNEXPECTED_MSG_ERROR (observed on 22.05);
// only an administrator (root or the controller's user) may suspend.
function suspendable(ctl: Controller, body: CtldBody<'suspend'>): CtldJob[] {
  let jobs: CtldJob[];
  try {
    jobs = findJobs(ctl, body.id);
  } catch {
    throw UserError.fromErrno('SLURM_UNEXPECTED_MSG_ERROR');
  }
  if (!isAdministrator(body.userId)) throw UserError.fromErrno('ESLURM_ACCESS_DENIED');
  return jobs;
}

/**
 * Applies a node update to each node named, in order. As slurmctld's update_node(), the nodes
 * before an unknown one are updated and the request then fails with ESLURM_INVALID_NODE_NAME.
 */
async function updateNodes(ctl: Controller, batch: BatchJobs, body: CtldBody<'update_node'>): Promise<void> {
  let names: string[];
  try {
    names = expandHostlist(body.nodes);
  } catch {
    throw UserError.fromErrno('ESLURM_INVALID_NODE_NAME');
  }
  const now = Math.floor(Date.now() / 1000);
  for (const name of names) {
    const index = ctl.table.indexOf(name);
    if (index === undefined) throw UserError.fromErrno('ESLURM_INVALID_NODE_NAME');
    await applyNodeState(ctl, batch, index, nextState(ctl.nodeStates.adminOf(index), body, now));
  }
}

function nextState(current: Readonly<AdminState>, body: CtldBody<'update_node'>, now: number): AdminState {
  const next: AdminState = { ...current };
  const setReason = (): void => {
    if (body.reason === undefined) return;
    next.reason = body.reason;
    next.time = now;
    next.uid = body.userId;
  };
  const clear = (): void => {
    Object.assign(next, { reason: null, time: 0 });
  };
  switch (body.state?.toUpperCase()) {
    case undefined:
      setReason();
      break;
    case 'DRAIN':
      next.drain = true;
      setReason();
      break;
    case 'DOWN':
      next.down = true;
      setReason();
      break;
    case 'RESUME':
      if (!current.down && !current.drain) throw UserError.fromErrno('ESLURM_INVALID_NODE_STATE');
      Object.assign(next, { down: false, drain: false });
      clear();
      break;
    case 'IDLE':
      Object.assign(next, { down: false, drain: false });
      clear();
      break;
    case 'UNDRAIN':
      next.drain = false;
      if (!next.down) clear();
      break;
    default:
      throw UserError.fromErrno('ESLURM_INVALID_NODE_STATE');
  }
  return next;
}

async function updateJob(ctl: Controller, job: CtldJob, update: JobUpdate, userId: number): Promise<void> {
  checkOwner(job, userId);
  if (isFinished(job.record.job_state)) throw UserError.fromErrno('ESLURM_JOB_FINISHED');
  const pending = (job.record.job_state & JOB_STATE_BASE) === JOB_PENDING;
  const r = job.record;
  if (update.partition !== undefined) {
    if (!pending) throw UserError.fromErrno('ESLURM_JOB_NOT_PENDING');
    if (!ctl.options.config.partitions.some((p) => p.name === update.partition)) throw UserError.fromErrno('ESLURM_INVALID_PARTITION_NAME');
  }
  // slurmctld: a dependency can only change while the job waits; a bad one is ESLURM_DEPENDENCY.
  const dependency = update.dependency === undefined ? undefined : parseDependency(update.dependency);
  if (dependency !== undefined && !pending) throw UserError.fromErrno('ESLURM_JOB_NOT_PENDING');
  let limit = r.time_limit;
  if (update.timeLimit !== undefined) {
    const { op, minutes } = update.timeLimit;
    if (op === 'set') limit = minutes;
    else if (limit !== INFINITE) limit = Math.max(0, op === 'add' ? limit + minutes : limit - minutes);
    // Only an administrator may raise a limit (slurmctld: ESLURM_ACCESS_DENIED for a user).
    if (!isAdministrator(userId) && (limit === INFINITE ? r.time_limit !== INFINITE : limit > r.time_limit)) throw UserError.fromErrno('ESLURM_ACCESS_DENIED');
  }
  // A negative nice raises the priority: administrators only (observed on 22.05: a user's
  // `Nice=-5` on their own job is "Access/permission denied for job N").
  if (update.nice !== undefined && update.nice < 0 && !isAdministrator(userId)) throw UserError.fromErrno('ESLURM_ACCESS_DENIED');
  if (update.partition !== undefined) r.partition = update.partition;
  if (update.name !== undefined) r.name = update.name;
  if (dependency !== undefined) {
    job.dependency = dependency.terms.length > 0 ? dependency : undefined;
    if (job.reason === 'Dependency' || job.reason === 'DependencyNeverSatisfied') job.reason = 'None';
  }
  if (update.nice !== undefined) {
    // slurmctld moves the priority by the change of nice, so the job keeps its place otherwise
    // (observed: Nice=200 on a job of priority P shows P-200). A held job stays held.
    const before = r.details.nice ?? 0;
    if (r.priority > 0) r.priority = Math.max(1, r.priority + before - update.nice);
    r.details = { ...r.details, nice: update.nice };
  }
  if (update.timeLimit !== undefined) {
    r.time_limit = limit;
    if (r.start_time > 0) r.end_time = limit === INFINITE ? INFINITE : r.start_time + limit * 60;
  }
  job.desc = {
    ...job.desc,
    ...(update.name !== undefined && { name: update.name }),
    ...(update.partition !== undefined && { partition: update.partition }),
    ...(update.timeLimit !== undefined && { timeLimit: limit }),
    ...(update.comment !== undefined && { comment: update.comment === '' ? undefined : update.comment }),
    ...(dependency !== undefined && { dependency: dependency.terms.length > 0 ? dependency : undefined }),
    ...(update.nice !== undefined && { nice: update.nice }),
  };
  if (update.partition !== undefined) reshare(ctl, job);
  // The whole job again: its name and submission changed, not only its progress.
  await ctl.journalSubmit(job);
}

// A pending job shares cores as its partition's OverSubscribe says when it is scheduled, as
// slurmctld reads part_ptr->max_share then: after the partition or the job's partition changed,
// its whole_node and max_share are made again (true when they changed; the caller journals it).
function reshare(ctl: Controller, job: CtldJob): boolean {
  const partition = ctl.options.config.partitions.find((p) => p.name === job.record.partition);
  if (partition === undefined || (job.record.job_state & JOB_STATE_BASE) !== JOB_PENDING) return false;
  const { max_share: before, ...details } = job.record.details;
  const sharing = partitionSharing(job.desc, partition);
  if (sharing.whole_node === details.whole_node && sharing.max_share === before) return false;
  job.record.details = { ...details, ...sharing };
  return true;
}

/** scontrol reconfigure, once the cluster file is read again: the plugins re-read their configuration. */
async function reconfigurePlugins(ctl: Controller): Promise<void> {
  const { config, registry } = ctl.options;
  await ctl.sched.reconfig();
  const selectRc = await ctl.select.reconfigure();
  if (selectRc !== 0) ctl.log.error(`select: select_p_reconfigure failed (rc ${selectRc})`);
  const container = new JobContainerFacade(await registry.get('job_container', config.plugins.jobContainer), registry.timeoutMs);
  await container.reconfig();
}

function checkOwner(job: CtldJob, userId: number): void {
  if (!isAdministrator(userId) && job.record.user_id !== userId) throw UserError.fromErrno('ESLURM_ACCESS_DENIED');
}
