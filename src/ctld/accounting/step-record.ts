// A step tsrun registered (step-registry.ts) as the accounting store records it: running from
// its start, then ended with its wait status, or cancelled when tscancel or its job's end
// stopped it. What it used is written when the step end carried it.
import type { AcctStep } from '../../acct/records.js';
import { isOomStatus } from '../../core/oom.js';
import { JOB_CANCELLED, JOB_COMPLETE, JOB_FAILED, JOB_OOM, JOB_RUNNING } from '../../plugin-api/records.js';
import type { StepUsage } from '../../protocol/step-usage.js';
import type { CtldJob } from '../job.js';
import { tres } from './job-record.js';

export interface StepFacts {
  stepId: number;
  name: string;
  start: number;
  nodes: string;
  nodeCount: number;
  cpus: number;
  ntasks: number;
}

export interface StepEnd {
  end: number;
  /** The wait status tsrun reported; undefined when the step went without a report. */
  exitStatus: number | undefined;
  /** Told to stop (tscancel N.S, or its job ending), and by whom when a user asked. */
  stopped: boolean;
  cancelledBy: number | undefined;
  usage: StepUsage | undefined;
}

export function stepRecordOf(job: CtldJob, step: StepFacts, ended?: StepEnd): AcctStep {
  const memPerNode = job.desc.memPerNode ?? (job.desc.memPerCpu !== undefined ? job.desc.memPerCpu * Math.ceil(step.cpus / step.nodeCount) : undefined);
  return {
    jobId: job.record.job_id,
    stepId: step.stepId,
    name: step.name,
    start: step.start,
    end: ended?.end ?? 0,
    state: ended ? endedState(ended) : JOB_RUNNING,
    cancelledBy: ended?.cancelledBy ?? null,
    exitCode: ended?.exitStatus ?? 0,
    nnodes: step.nodeCount,
    ncpus: step.cpus,
    ntasks: step.ntasks,
    nodeList: step.nodes,
    allocTres: tres(step.cpus, memPerNode === undefined ? undefined : memPerNode * step.nodeCount, step.nodeCount, false),
    usage: ended?.usage ?? null,
  };
}

function endedState(ended: StepEnd): number {
  if (ended.stopped || ended.exitStatus === undefined) return JOB_CANCELLED;
  if (isOomStatus(ended.exitStatus)) return JOB_OOM;
  return ended.exitStatus === 0 ? JOB_COMPLETE : JOB_FAILED;
}
