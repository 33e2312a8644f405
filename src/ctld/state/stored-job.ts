// A controller job as it is written to the journal and the snapshot: plain JSON. The record
// plugins see is rebuilt from the submission on load (jobRecordFromDesc), so only what
// changes as the job moves on is stored beside the submission.
import type { gres_spec_t } from '../../plugin-api/records.js';
import type { DependencySpec, JobDescriptor } from '../../protocol/job-desc.js';
import type { CtldJob, HoldKind, KillCause } from '../job.js';
import type { NodeTable } from '../node-table.js';

/** The parts of a job that change after submission. */
export interface JobProgress {
  state: number;
  reason: string;
  priority: number;
  timeLimit: number;
  partition: string;
  start: number;
  end: number;
  eligible: number;
  dependency: DependencySpec | null;
  held: HoldKind | null;
  exitStatus: number;
  stepdPid: number | null;
  batchNode?: string | null;
  killCause: KillCause | null;
  requeueCount: number;
  /** The allocated nodes by name (names survive a reordered cluster file; indices do not). */
  nodes: string[] | null;
  /** Preemption and suspension; absent from journals written before they existed. */
  preemptedBy?: number | null;
  preempting?: number[] | null;
  suspendedAt?: number | null;
  suspendedSeconds?: number;
  resources: { cpus: number[]; memory: number[]; gres: gres_spec_t[][]; wholeNode: boolean } | null;
  /** CPU numbers held per node (cpu-ids.ts) and the steps' highest wait status; absent before they existed. */
  cpuIds?: Record<string, string> | null;
  derivedExit?: number;
  /** Who cancelled it (sacct's `CANCELLED by UID`). */
  cancelledBy?: number;
}

export interface StoredJob extends JobProgress {
  id: number;
  submit: number;
  desc: JobDescriptor;
  arrayJobId: number;
  arrayTaskId: number | null;
  arrayMaxRunning: number | null;
}

export function progressOf(job: CtldJob, table: NodeTable): JobProgress {
  const r = job.record;
  const res = r.job_resrcs;
  return {
    state: r.job_state,
    reason: job.reason,
    priority: r.priority,
    timeLimit: r.time_limit,
    partition: r.partition,
    start: r.start_time,
    end: r.end_time,
    eligible: job.eligibleTime,
    dependency: job.dependency ?? null,
    held: job.held ?? null,
    exitStatus: job.exitStatus,
    stepdPid: job.stepdPid ?? null,
    batchNode: job.batchNode ?? null,
    killCause: job.killCause ?? null,
    requeueCount: job.requeueCount,
    nodes: r.node_bitmap ? table.namesFromBitmap(r.node_bitmap) : null,
    preemptedBy: job.preemptedBy ?? null,
    preempting: job.preempting ?? null,
    suspendedAt: job.suspendedAt ?? null,
    suspendedSeconds: job.suspendedSeconds ?? 0,
    resources: res
      ? { cpus: res.cpus, memory: res.memory_allocated, gres: res.gres_allocated, wholeNode: res.whole_node }
      : null,
    ...(job.cpuIds !== undefined && { cpuIds: job.cpuIds }),
    ...(job.derivedExitStatus !== undefined && { derivedExit: job.derivedExitStatus }),
    ...(job.cancelledBy !== undefined && { cancelledBy: job.cancelledBy }),
  };
}

export function storedJobOf(job: CtldJob, table: NodeTable): StoredJob {
  return {
    id: job.record.job_id,
    submit: job.record.submit_time,
    desc: job.desc,
    arrayJobId: job.arrayJobId,
    arrayTaskId: job.arrayTaskId ?? null,
    arrayMaxRunning: job.arrayMaxRunning ?? null,
    ...progressOf(job, table),
  };
}

/** Puts stored progress back onto a job whose record was rebuilt from its submission. */
export function applyProgress(job: CtldJob, p: JobProgress, table: NodeTable): void {
  const r = job.record;
  r.job_state = p.state;
  r.priority = p.priority;
  r.time_limit = p.timeLimit;
  r.partition = p.partition;
  r.start_time = p.start;
  r.end_time = p.end;
  job.reason = p.reason;
  job.eligibleTime = p.eligible;
  job.dependency = p.dependency ?? undefined;
  job.held = p.held ?? undefined;
  job.exitStatus = p.exitStatus;
  job.stepdPid = p.stepdPid ?? undefined;
  job.batchNode = p.batchNode ?? undefined;
  job.killCause = p.killCause ?? undefined;
  job.requeueCount = p.requeueCount;
  job.preemptedBy = p.preemptedBy ?? undefined;
  job.preempting = p.preempting ?? undefined;
  job.suspendedAt = p.suspendedAt ?? undefined;
  job.suspendedSeconds = p.suspendedSeconds ?? 0;
  job.cpuIds = p.cpuIds ?? undefined;
  job.derivedExitStatus = p.derivedExit;
  job.cancelledBy = p.cancelledBy;
  if (p.nodes === null) {
    r.node_bitmap = null;
    r.nodes = null;
    r.job_resrcs = null;
    return;
  }
  const known = p.nodes.filter((name) => table.indexOf(name) !== undefined);
  const bitmap = table.bitmapFromNames(known);
  r.node_bitmap = bitmap;
  r.nodes = table.hostlistFromBitmap(bitmap);
  // Resources are per allocated node in node order; they only still fit if every node is known.
  r.job_resrcs =
    p.resources && known.length === p.nodes.length
      ? {
          nhosts: known.length,
          node_bitmap: bitmap.copy(),
          ncpus: p.resources.cpus.reduce((a, b) => a + b, 0),
          cpus: p.resources.cpus,
          memory_allocated: p.resources.memory,
          gres_allocated: p.resources.gres,
          whole_node: p.resources.wholeNode,
        }
      : null;
}
