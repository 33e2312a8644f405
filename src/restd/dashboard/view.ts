// What the dashboard page is sent: the controller's nodes and jobs cut down to what the page
// draws, as plain JSON. The state names are sinfo's and squeue's (the page shows them as the
// text of each cell, so colour is never the only carrier of a state).
import { INFINITE } from '../../core/slurm-constants.js';
import { isFinished, jobStateString } from '../../core/job-state.js';
import { nodeStateString } from '../../core/node-state.js';
import { JOB_COMPLETING } from '../../plugin-api/records.js';
import type { JobView } from '../../protocol/job-view.js';
import type { NodeInfo } from '../../protocol/node-info.js';

/** The colour classes of the grid: the five states the page names, and the rest. */
export type NodeCategory = 'idle' | 'mixed' | 'allocated' | 'drained' | 'down' | 'other';

export interface DashNode {
  name: string;
  /** sinfo's %T: IDLE, MIXED, DRAINED, DRAINING, DOWN*, ... */
  state: string;
  category: NodeCategory;
  cpus: number;
  allocCpus: number;
  /** MB. */
  memory: number;
  allocMemory: number;
  reason: string | null;
}

export interface DashJob {
  /** As squeue's %i prints it: `12`, or `9_3` for an array task. */
  id: string;
  /** The number the REST API takes for this job. */
  jobId: number;
  name: string;
  user: string;
  partition: string;
  /** squeue's %T: PENDING, RUNNING, COMPLETING, ... */
  state: string;
  /** Pending reason ('None' while running). */
  reason: string;
  held: boolean;
  /** Its end is final (a completing job, still cleaning up, has not ended yet). */
  ended: boolean;
  nodes: string | null;
  numNodes: number;
  numCpus: number;
  /** Minutes, or null when unlimited. */
  timeLimit: number | null;
  /** Unix seconds; 0 when not (yet) known. */
  submitTime: number;
  startTime: number;
  endTime: number;
  /** sacct's ExitCode: `code:signal` of the batch script's wait status. */
  exitCode: string;
}

/** The grid colour of a node, read off sinfo's state name (the same decisions sinfo makes). */
export function nodeCategory(stateName: string): NodeCategory {
  if (/^(DOWN|FAIL|ERROR|UNKNOWN)/.test(stateName) || stateName.endsWith('*')) return 'down';
  if (stateName.startsWith('DRAIN')) return 'drained';
  if (stateName.startsWith('MIXED')) return 'mixed';
  if (stateName.startsWith('ALLOCATED') || stateName.startsWith('COMPLETING')) return 'allocated';
  if (stateName.startsWith('IDLE')) return 'idle';
  return 'other';
}

export function dashNode(node: NodeInfo): DashNode {
  const state = nodeStateString(node.nodeState);
  return {
    name: node.name,
    state,
    category: nodeCategory(state),
    cpus: node.cpus,
    allocCpus: node.allocCpus,
    memory: node.realMemory,
    allocMemory: node.allocMemory,
    reason: node.reason,
  };
}

export function dashJob(job: JobView): DashJob {
  const arrayTask = job.arrayJobId !== 0 && job.arrayTaskId !== null;
  return {
    id: arrayTask ? `${job.arrayJobId}_${job.arrayTaskId}` : String(job.jobId),
    jobId: job.jobId,
    name: job.name,
    user: job.userName,
    partition: job.partition,
    state: jobStateString(job.state),
    reason: job.reason,
    held: job.held !== null,
    ended: isFinished(job.state) && (job.state & JOB_COMPLETING) === 0,
    nodes: job.nodes,
    numNodes: job.numNodes,
    numCpus: job.numCpus,
    timeLimit: job.timeLimit === INFINITE ? null : job.timeLimit,
    submitTime: job.submitTime,
    startTime: job.startTime,
    endTime: job.endTime,
    exitCode: exitCodeText(job.exitStatus),
  };
}

/** A wait status as sacct prints it: `1:0` for exit 1, `0:9` for SIGKILL. */
export function exitCodeText(status: number): string {
  return `${(status >> 8) & 0xff}:${status & 0x7f}`;
}
