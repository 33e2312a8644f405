// What a step runs in, whichever way it was obtained (allocation-source.ts): the job's nodes
// and limits, how its end is reported, and what a controller may ask of it meanwhile.
import type { CtldTarget } from '../../client/ctld-client.js';
import type { StepUsage } from '../../protocol/step-usage.js';

export interface StepAllocation {
  jobId: number;
  stepId: number;
  jobName: string;
  partition: string;
  /** The step's nodes, in node-table order, and the CPUs it may use on each. */
  nodeNames: string[];
  cpusPerNode: number[];
  /** A step of an enclosing job: the whole job's nodes and CPUs (SLURM_JOB_NODELIST, ...). */
  job?: { nodeNames: string[]; cpusPerNode: number[] };
  /** GPU indices per node (empty when none were allocated). */
  gpusPerNode: number[][];
  /** Minutes, or INFINITE. */
  timeLimit: number;
  /** tsrun created this job (it ends with the step), rather than running a step of an enclosing one. */
  ownJob: boolean;
  /** --test-only through a controller: when the job would start (Unix seconds). */
  startTime?: number;
  /** A controller's orders for the running step (tscancel, its time limit, scancel -s) go to `handlers`. */
  control?(handlers: StepControl): void;
  /** The controller that granted it (undefined: the embedded one, in this process). */
  controller?: CtldTarget;
  /** Ends the step (and the job, when tsrun created it), with the step's wait status and what it used. */
  release(waitStatus: number, usage?: StepUsage): Promise<void>;
  /** A live sample of what the running step uses, for the controller (tssstat). */
  sample?(usage: StepUsage): void;
}

/** What the controller may ask of a running step. */
export interface StepControl {
  /** `kill`: SIGKILL the tasks at once (scancel N.S), not SIGTERM then SIGKILL. */
  end(cause: 'CANCELLED' | 'TIMEOUT', kill?: boolean): void;
  signal(signal: NodeJS.Signals): void;
}
