// A controller job as the accounting store records it (Slurm's job record in slurmdbd): the
// fields sacct prints, from the same job the queue shows, and its batch step.
import { convertNumUnit } from '../../core/convert-num.js';
import { groupNameForGid } from '../../os/groups.js';
import { JOB_CANCELLED, JOB_PENDING, JOB_STATE_BASE } from '../../plugin-api/records.js';
import { BATCH_STEP_ID, type AcctJob, type AcctStep } from '../../acct/records.js';
import type { StepUsage } from '../../protocol/step-usage.js';
import type { Controller } from '../controller.js';
import type { CtldJob } from '../job.js';
import { jobSize } from '../job-view.js';

export type JobRecord = Omit<AcctJob, 'steps'>;

export function jobRecordOf(ctl: Controller, job: CtldJob): JobRecord {
  // Not the whole view the commands get (dependencies, options, ...): its size is all it takes.
  const view = jobSize(ctl, job);
  const { record: r, desc } = job;
  const pending = (r.job_state & JOB_STATE_BASE) === JOB_PENDING;
  const started = r.start_time > 0 && r.node_bitmap !== null;
  const ran = r.start_time > 0 && !pending;
  const memPerNode = memPerNodeOf(job, view);
  const reqMem = desc.memPerNode !== undefined ? { mb: desc.memPerNode, perCpu: false } : desc.memPerCpu !== undefined ? { mb: desc.memPerCpu, perCpu: true } : null;
  return {
    jobId: r.job_id,
    arrayJobId: job.arrayJobId,
    arrayTaskId: job.arrayTaskId ?? null,
    hetJobId: 0,
    hetJobOffset: null,
    name: r.name,
    partition: r.partition,
    account: desc.account ?? '',
    user: desc.userName,
    uid: r.user_id,
    group: groupNameForGid(r.group_id) ?? String(r.group_id),
    gid: r.group_id,
    cluster: ctl.options.config.clusterName,
    submit: r.submit_time,
    eligible: job.eligibleTime,
    start: ran ? r.start_time : 0,
    // A running job's end_time is when its limit runs out: the record says not ended yet.
    end: ran && isEnded(r.job_state) ? r.end_time : 0,
    timelimit: r.time_limit,
    state: r.job_state,
    cancelledBy: job.cancelledBy ?? null,
    exitCode: job.exitStatus,
    derivedExitCode: job.derivedExitStatus ?? 0,
    nnodes: view.numNodes,
    ncpus: view.numCpus,
    ntasks: desc.ntasks ?? null,
    nodeList: r.nodes ?? (pending ? 'None assigned' : ''),
    reqMem,
    reqTres: tres(view.numCpus, memPerNode === undefined ? undefined : memPerNode * view.numNodes, view.numNodes),
    allocTres: started || ran ? tres(view.numCpus, memPerNode === undefined ? undefined : memPerNode * view.numNodes, view.numNodes) : '',
    workDir: desc.workDir,
    submitLine: desc.submitLine ?? '',
    reason: job.reason,
    priority: r.priority,
    restarts: job.requeueCount,
    qos: desc.qos ?? '',
  };
}

/**
 * The step the job's own process runs: a batch job's batch step (one task on the first node,
 * with that node's CPUs), or step 0 of tsrun's own job (its tasks on all its nodes). Undefined
 * before it starts, and for salloc's allocation, whose steps register themselves.
 */
export function ownStepOf(ctl: Controller, job: CtldJob, usage: StepUsage | undefined): AcctStep | undefined {
  const { record: r, desc } = job;
  const batch = desc.interactive === undefined;
  if ((!batch && desc.interactive?.ownStep !== true) || r.start_time === 0 || (r.job_state & JOB_STATE_BASE) === JOB_PENDING) return undefined;
  const names = r.node_bitmap ? ctl.table.namesFromBitmap(r.node_bitmap) : [];
  const view = jobSize(ctl, job);
  const cpus = batch ? (r.job_resrcs?.cpus[0] ?? 1) : view.numCpus;
  const nodes = batch ? 1 : view.numNodes;
  const ended = isEnded(r.job_state);
  const perNode = memPerNodeOf(job, view);
  return {
    jobId: r.job_id,
    stepId: batch ? BATCH_STEP_ID : 0,
    name: batch ? 'batch' : r.name,
    start: r.start_time,
    end: ended ? r.end_time : 0,
    // The step ends as its process did; one the controller ended was cancelled.
    state: !ended ? r.job_state & JOB_STATE_BASE : job.killCause !== undefined ? JOB_CANCELLED : r.job_state & JOB_STATE_BASE,
    cancelledBy: null,
    exitCode: job.exitStatus,
    nnodes: nodes,
    ncpus: cpus,
    ntasks: batch ? 1 : (desc.ntasks ?? nodes),
    nodeList: batch ? (names[0] ?? '') : (r.nodes ?? ''),
    allocTres: tres(cpus, perNode === undefined ? undefined : perNode * nodes, nodes, false),
    usage: usage ?? null,
  };
}

// As scontrol's TRES: without --mem a job counts the whole memory of its nodes.
function memPerNodeOf(job: CtldJob, view: ReturnType<typeof jobSize>): number | undefined {
  const { desc } = job;
  if (desc.memPerNode !== undefined) return desc.memPerNode;
  if (desc.memPerCpu !== undefined) return desc.memPerCpu * Math.max(1, Math.ceil(view.numCpus / Math.max(1, view.numNodes)));
  return view.defaultNodeMemory ?? undefined;
}

function isEnded(state: number): boolean {
  return (state & JOB_STATE_BASE) > 2 /* past PENDING, RUNNING, SUSPENDED */;
}

// sacct's TRES strings, in the order the database's TRES table sorts them.
export function tres(cpus: number, memMb: number | undefined, nodes: number, billing = true): string {
  const parts = [...(billing ? [`billing=${cpus}`] : []), `cpu=${cpus}`];
  if (memMb !== undefined && memMb > 0) parts.push(`mem=${convertNumUnit(memMb, 2)}`);
  parts.push(`node=${nodes}`);
  return parts.join(',');
}
