// The controller without its daemon parts, for the simulation and the scheduling benchmark:
// the real Controller, select and sched plugins and scheduling pass, on a clock the caller
// moves, with a job table in memory only. Jobs "run" by holding their select allocation; no
// step daemon starts, and every node counts as answering (there are no node daemons).
import { UserError } from '../../core/errors.js';
import type { Logger } from '../../core/log.js';
import type { ClusterConfig } from '../../config/types.js';
import { createPluginRegistry } from '../../plugin-host/create.js';
import type { PluginRegistry } from '../../plugin-host/registry.js';
import { JOB_CANCELLED, JOB_RUNNING, type job_record_t } from '../../plugin-api/records.js';
import { INFINITE } from '../../core/slurm-constants.js';
import type { JobDescriptor } from '../../protocol/job-desc.js';
import { jobDescriptor } from '../../protocol/job-desc-defaults.js';
import { Controller } from '../controller.js';
import { newJob, type CtldJob } from '../job.js';
import type { Launcher } from '../schedule.js';
import { nextPriority } from '../submit-job.js';

export interface SimHost {
  readonly ctl: Controller;
  readonly registry: PluginRegistry;
  /** Unloads the plugins (fini). */
  close(): Promise<void>;
}

/**
 * A started controller for `config` whose time is `clock()` (Unix seconds), for the
 * controller and, through host.time, the plugins.
 */
export async function startSimHost(config: ClusterConfig, log: Logger, clock: () => number, stateDir: string): Promise<SimHost> {
  if (config.preempt.type !== 'preempt/none') {
    throw new UserError(`--simulate does not model preemption yet: the cluster file sets preempt type ${config.preempt.type}; use type: none`);
  }
  const registry = createPluginRegistry(config, log, process.env, clock);
  const { ctl, problems } = await Controller.open({
    config,
    stateDir,
    registry,
    log,
    minuteSeconds: 60,
    killWaitSeconds: 0,
    minJobAge: 0,
    clock,
    volatileState: true,
  });
  for (const problem of problems) log.error(problem);
  for (const node of ctl.table.nodes) if (ctl.nodeStates.linkOf(node.index) !== 'up') ctl.nodeStates.setLink(node.index, 'up');
  return { ctl, registry, close: async () => void (await registry.finiAll()) };
}

/** Starts jobs the scheduler gives resources by marking them running; `onStart` learns of each. */
export class SimLauncher implements Launcher {
  constructor(
    private readonly ctl: Controller,
    private readonly onStart: (job: CtldJob) => void,
  ) {}

  async launch(job: CtldJob): Promise<void> {
    const record = job.record;
    const now = this.ctl.now();
    record.job_state = JOB_RUNNING;
    record.start_time = now;
    record.end_time = record.time_limit === INFINITE ? INFINITE : now + record.time_limit * 60;
    job.reason = 'None';
    await this.ctl.sched.newalloc(record);
    this.onStart(job);
  }

  // Preemption is not simulated (startSimHost refuses a cluster that preempts): nothing is
  // ever cancelled, requeued or signalled by the scheduler.
  requeueable(): boolean {
    return false;
  }

  cancel(job: CtldJob): Promise<void> {
    return Promise.reject(new Error(`job ${job.record.job_id}: preemption is not simulated`));
  }

  signal(): void {}

  async cancelPending(job: CtldJob, reason: string): Promise<void> {
    job.record.job_state = JOB_CANCELLED;
    job.record.end_time = this.ctl.now();
    job.reason = reason;
    this.ctl.removeJob(job);
  }
}

/** Adds a pending job built from `desc` (no checks: the caller has made them), priority from the sched plugin. */
export function addSimJob(ctl: Controller, desc: JobDescriptor, jobId: number, partition: string): CtldJob {
  const record = ctl.buildRecord(desc, jobId, partition, ctl.now());
  record.priority = nextPriority(ctl, record);
  const job = newJob(record, desc);
  ctl.addJob(job);
  return job;
}

/** A running job ends in `state`: select_p_job_fini, the sched plugin's freealloc, out of the table. */
export async function endSimJob(ctl: Controller, job: CtldJob, state: number): Promise<void> {
  const record: job_record_t & { job_state: number; end_time: number } = job.record;
  record.job_state = state;
  record.end_time = ctl.now();
  await ctl.select.release(record);
  await ctl.sched.freealloc(record);
  ctl.removeJob(job);
}

/** A batch job descriptor with the fields a simulated job does not use filled in. */
export function simDescriptor(fields: Partial<JobDescriptor> & Pick<JobDescriptor, 'name' | 'userId'>): JobDescriptor {
  return jobDescriptor({
    workDir: '/',
    groupId: fields.userId,
    userName: `user${fields.userId}`,
    submitHost: 'simulation',
    submitDir: '/',
    ...fields,
  });
}

/** `config` with other select and sched plugins (the cluster file's where not given). */
export function withPlugins(config: ClusterConfig, choice: { select?: string | undefined; sched?: string | undefined }): ClusterConfig {
  return {
    ...config,
    plugins: { ...config.plugins, ...(choice.select && { select: choice.select }), ...(choice.sched && { sched: choice.sched }) },
  };
}
