// What the controller answers the commands and orders their tsrun/tsalloc to do: the types both
// sides are written against, here beside the requests (ctld-messages.ts) so that a command
// never reads the controller's own files to learn the shape of an answer.
import type { StepUsage } from './step-usage.js';

/** The answer to `submit` (and part of `allocate`'s for --test-only). */
export interface SubmitAnswer {
  jobId: number;
  /** --test-only: when and where it would start. */
  willRun?: { start: number; nodes: string; cpus: number; partition: string };
}

/** What tsrun (or tsalloc) runs its step on. */
export interface Grant {
  jobId: number;
  name: string;
  partition: string;
  nodeNames: string[];
  cpusPerNode: number[];
  gpusPerNode: number[][];
  /** Minutes, or INFINITE. */
  timeLimit: number;
}

/** The answer to `allocate`. */
export interface AllocateAnswer {
  jobId: number;
  /** Queued: tsrun prints srun's "queued and waiting" line and asks for `allocation`. */
  pending: boolean;
  /**
   * Queued for nodes that are down, drained or reserved: slurmctld's ESLURM_NODE_NOT_AVAIL,
   * which srun and salloc print before their "queued" line.
   */
  notice?: string;
  grant?: Grant;
  /** --test-only: when and where it would start. */
  willRun?: SubmitAnswer['willRun'];
}

/** What the controller asks of the tsrun holding a job: end the step, or signal its tasks. */
export interface JobOrder {
  cause?: 'CANCELLED' | 'TIMEOUT';
  signal?: number;
}

/** A step as `steps` answers it: a registered one, or a running batch job's `batch` step. */
export interface StepView {
  jobId: number;
  stepId: number | 'batch';
  name: string;
  userId: number;
  userName: string;
  partition: string;
  startTime: number;
  timeLimit: number;
  nodes: string;
  nodeCount: number;
  ntasks: number;
  cpus: number;
  dist?: string;
  host?: string;
  pid?: number;
  /** What it used: its latest sample while it runs. */
  usage?: StepUsage;
}

/**
 * What the controller asks of a step's tsrun: end the step (scancel N.S), signal its tasks, or
 * end it because its job ends (`end`: why, for slurmstepd's line).
 */
export interface StepOrder {
  cancel?: boolean;
  signal?: number;
  end?: 'CANCELLED' | 'TIMEOUT';
}

/** The allocation after a resize, for the client's slurm_job_N_resize.sh (scontrol's _update_job_size). */
export interface ResizedAllocation {
  jobId: number;
  nodeList: string;
  nodeCount: number;
  /** SLURM_JOB_CPUS_PER_NODE's form: `4(x2),2`. */
  cpusPerNode: string;
}

/** One row of tssstat (`step-stats`): a running step and the latest figures of what it used. */
export interface StepStats {
  jobId: number;
  stepId: number | 'batch';
  nodes: string;
  ntasks: number;
  usage?: StepUsage;
}
