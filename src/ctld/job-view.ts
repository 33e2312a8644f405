// The controller's job as the commands see it (protocol/job-view.ts).
import type { JobView } from '../protocol/job-view.js';
import { pickJobExtras } from '../protocol/job-desc.js';
import type { CtldJob } from './job.js';
import type { Controller } from './controller.js';
import { dependencyDisplay } from './dependencies.js';
import { INFINITE } from '../core/slurm-constants.js';

export function jobView(ctl: Controller, job: CtldJob): JobView {
  const { record: r, desc } = job;
  const running = r.node_bitmap !== null;
  const expected = job.expectedStart;
  const size = jobSize(ctl, job);
  return {
    jobId: r.job_id,
    arrayJobId: job.arrayJobId,
    arrayTaskId: job.arrayTaskId ?? null,
    arrayMaxRunning: job.arrayMaxRunning ?? null,
    name: r.name,
    userId: r.user_id,
    userName: desc.userName,
    groupId: r.group_id,
    partition: r.partition,
    state: r.job_state,
    reason: job.reason,
    priority: r.priority,
    timeLimit: r.time_limit,
    submitTime: r.submit_time,
    eligibleTime: job.eligibleTime,
    ...(expected !== undefined && !running
      ? { startTime: expected, endTime: r.time_limit === INFINITE ? 0 : expected + r.time_limit * 60 }
      : { startTime: r.start_time, endTime: r.end_time === 0 && r.start_time === 0 ? 0 : r.end_time }),
    nodes: r.nodes,
    numNodes: size.numNodes,
    numCpus: size.numCpus,
    numTasks: desc.ntasks ?? null,
    cpusPerTask: desc.cpusPerTask ?? null,
    minNodes: desc.minNodes ?? null,
    memPerNode: desc.memPerNode ?? null,
    defaultNodeMemory: size.defaultNodeMemory,
    memPerCpu: desc.memPerCpu ?? null,
    features: desc.constraint ?? null,
    gres: desc.gres ?? null,
    exitStatus: job.exitStatus,
    derivedExitStatus: job.derivedExitStatus ?? 0,
    dependency: dependencyDisplay(job, ctl, Math.floor(Date.now() / 1000)),
    held: job.held ?? null,
    requeue: desc.requeue !== false,
    restartCount: job.requeueCount,
    workDir: desc.workDir,
    command: desc.command ?? '',
    stdout: desc.output ?? (job.arrayJobId !== 0 ? 'slurm-%A_%a.out' : 'slurm-%j.out'),
    stderr: desc.error ?? desc.output ?? (job.arrayJobId !== 0 ? 'slurm-%A_%a.out' : 'slurm-%j.out'),
    stdin: desc.input ?? '/dev/null',
    batchHost: running && r.nodes ? ctl.table.namesFromBitmap(r.node_bitmap!)[0] ?? null : null,
    comment: desc.comment ?? null,
    batch: desc.interactive === undefined,
    active: job.stepdPid !== undefined,
    ntasksPerNode: desc.ntasksPerNode ?? null,
    maxNodes: desc.maxNodes ?? null,
    reqNodes: desc.nodelist ?? null,
    excNodes: desc.exclude ?? null,
    contiguous: desc.contiguous,
    exclusive: desc.exclusive,
    gpus: desc.gpus ?? null,
    outputGiven: desc.output !== undefined,
    errorGiven: desc.error !== undefined || desc.output !== undefined,
    allocNode: desc.submitHost,
    allocSid: desc.submitSid ?? 0,
    reservation: desc.reservation ?? null,
    schedNodes: running ? null : (job.schedNodes ?? null),
    options: pickJobExtras(desc),
  };
}

/** How many nodes and CPUs the job has (or asks for while pending), and what a node of its partition holds of memory. */
export function jobSize(ctl: Controller, job: CtldJob): Pick<JobView, 'numNodes' | 'numCpus' | 'defaultNodeMemory'> {
  const r = job.record;
  const res = r.job_resrcs;
  const running = r.node_bitmap !== null;
  return {
    numNodes: running ? (res?.nhosts ?? r.node_bitmap!.setCount()) : Math.max(r.details.min_nodes, 1),
    numCpus: running && res ? res.ncpus : r.details.min_cpus,
    defaultNodeMemory: partitionNodeMemory(ctl, r.partition),
  };
}

// Slurm counts a pending job without --mem at the memory of a whole node (TRES=...,mem=2000M).
function partitionNodeMemory(ctl: Controller, partition: string): number | null {
  const first = ctl.table.partitionBitmap(partition)?.nextSet(0) ?? -1;
  return first >= 0 ? ctl.table.nodes[first]!.real_memory : null;
}
