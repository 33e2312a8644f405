// `tsctld --simulate TRACE`: replays an SWF trace in virtual time through the real scheduling
// pass, sched plugin and select plugin. Each job is submitted at its trace time (checked as a
// real submission is: a job that can never run on the cluster is rejected), runs for its trace
// run time once started (cut at its time limit, as Slurm would), and its end is an event. The
// clock jumps from one event time to the next; after the events of a second are applied, one
// scheduling pass runs, as the daemon runs one after a submit or a job's end.
import { INFINITE } from '../../core/slurm-constants.js';
import type { Logger } from '../../core/log.js';
import type { ClusterConfig } from '../../config/types.js';
import { JOB_COMPLETE, JOB_TIMEOUT } from '../../plugin-api/records.js';
import { isUsableNodeState } from '../node-states.js';
import type { CtldJob } from '../job.js';
import { schedulePass } from '../schedule.js';
import { checkSubmission } from '../submit-job.js';
import { EventQueue } from './event-queue.js';
import { summarise, type JobOutcome, type Sample, type Summary } from './metrics.js';
import { addSimJob, endSimJob, SimLauncher, simDescriptor, startSimHost } from './sim-host.js';
import { processorsOf, type SwfJob, type SwfTrace } from './swf.js';

export interface SimulationOptions {
  readonly trace: SwfTrace;
  readonly config: ClusterConfig;
  readonly log: Logger;
  /** Where the controller would keep its state; nothing is written there. */
  readonly stateDir: string;
  /** Called after each event time: jobs submitted so far, of all; the virtual time. */
  readonly onProgress?: (submitted: number, total: number, now: number) => void;
}

export interface SimulationResult {
  readonly summary: Summary;
  readonly samples: readonly Sample[];
  readonly select: string;
  readonly sched: string;
  /** Virtual time of the first submit, Unix seconds. */
  readonly start: number;
}

/** The virtual epoch when the trace gives none (its UnixStartTime header). */
const DEFAULT_EPOCH = 1_700_000_000;

export async function runSimulation(options: SimulationOptions): Promise<SimulationResult> {
  const { trace, config, log } = options;
  const epoch = Number(trace.header.get('UnixStartTime')) || DEFAULT_EPOCH;
  const jobs = [...trace.jobs].sort((a, b) => a.submit - b.submit);
  let now = epoch + (jobs[0]?.submit ?? 0);
  const start = now;
  const host = await startSimHost(config, log, () => now, options.stateDir);
  const { ctl } = host;
  const ends = new EventQueue<CtldJob>();
  const traced = new Map<CtldJob, SwfJob>();
  const outcomes: JobOutcome[] = [];
  const samples: Sample[] = [];
  let busyCpus = 0;
  const launcher = new SimLauncher(ctl, (job) => {
    const swf = traced.get(job)!;
    const limit = job.record.time_limit === INFINITE ? Infinity : job.record.time_limit * 60;
    ends.push(now + Math.min(swf.runTime, limit), job);
    busyCpus += job.record.job_resrcs?.ncpus ?? 0;
  });
  const signal = new AbortController().signal;
  const totalCpus = ctl.table.nodes.filter((n) => isUsableNodeState(n.node_state)).reduce((sum, n) => sum + n.cpus, 0);
  let next = 0;
  let rejected = 0;
  let passes = 0;
  try {
    while (next < jobs.length || ends.size > 0) {
      now = Math.min(ends.peekTime(), next < jobs.length ? epoch + jobs[next]!.submit : Infinity);
      if (ends.peekTime() === now) {
        for (const job of ends.popDue()) {
          const swf = traced.get(job)!;
          const timedOut = now - job.record.start_time < swf.runTime;
          busyCpus -= job.record.job_resrcs?.ncpus ?? 0;
          outcomes.push({ submit: job.record.submit_time, start: job.record.start_time, end: now, cpus: job.record.job_resrcs?.ncpus ?? 0, timedOut });
          traced.delete(job);
          await endSimJob(ctl, job, timedOut ? JOB_TIMEOUT : JOB_COMPLETE);
        }
      }
      while (next < jobs.length && epoch + jobs[next]!.submit === now) {
        const swf = jobs[next++]!;
        const job = await submit(swf, next);
        if (job === undefined) rejected++;
        else traced.set(job, swf);
      }
      await schedulePass(ctl, launcher, signal);
      passes++;
      samples.push({ time: now, busyCpus, queued: ctl.pendingJobs().length });
      options.onProgress?.(next, jobs.length, now);
    }
  } finally {
    await host.close();
  }
  const neverStarted = traced.size;
  const summary = summarise(outcomes, { total: jobs.length, rejected, neverStarted, invalidLines: trace.invalid }, totalCpus, passes);
  return { summary, samples, select: config.plugins.select, sched: config.plugins.sched, start };

  // The trace's job as a submission; undefined when the controller refuses it.
  async function submit(swf: SwfJob, jobId: number): Promise<CtldJob | undefined> {
    const desc = simDescriptor({
      name: `swf${swf.id}`,
      userId: swf.userId > 0 ? swf.userId : 1000,
      ntasks: processorsOf(swf),
      timeLimit: swf.requestedTime > 0 ? Math.ceil(swf.requestedTime / 60) : INFINITE,
      memPerCpu: swf.requestedMemory > 0 ? Math.ceil(swf.requestedMemory / 1024) : undefined,
    });
    try {
      const { partition } = await checkSubmission(ctl, desc);
      return addSimJob(ctl, desc, jobId, partition.name);
    } catch (error) {
      log.verbose(`job ${swf.id} of the trace refused: ${(error as Error).message}`);
      return undefined;
    }
  }
}
