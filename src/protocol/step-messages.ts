// What a tsrun tells the controller about the steps it runs inside a job (step-registry.ts on
// the controller's side), and what tsrun is told back.
import * as v from 'valibot';
import { count, jobId, minutes, pid, text, waitStatus } from './schema-kit.js';
import { StepUsageSchema } from './step-usage-schema.js';

/** A step id as srun numbers them (below Slurm's special step ids, SLURM_PENDING_STEP and up). */
export const stepId = v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(0xfffffff0 - 1));

export const StepStartSchema = v.strictObject({
  jobId,
  stepId,
  name: text(1024),
  /** The step's nodes (hostlist) and how many. */
  nodes: text(64 * 1024),
  nodeCount: count(1),
  ntasks: count(1),
  cpus: count(0),
  /** Minutes, or INFINITE. */
  timeLimit: minutes,
  /** scontrol's Dist= word: Cyclic, Block, ... */
  dist: text(64),
  host: text(1024),
  pid,
  /**
   * What the step asks of the job's CPUs (step-resources.ts), for the controller to place it:
   * its answer replaces `nodes` and `cpus` above, tsrun's own guess.
   */
  ask: v.optional(
    v.strictObject({
      cpusPerTask: count(1),
      exact: v.boolean(),
      overlap: v.boolean(),
      overcommit: v.boolean(),
      /** -N */
      nodeCount: v.optional(count(1)),
      /** -w (a hostlist) */
      nodelist: v.optional(text(64 * 1024)),
    }),
  ),
  /** Wait for the CPUs other steps hold, rather than answer `busy`. */
  wait: v.optional(v.boolean()),
});

/** What a tsrun tells the controller of its step. */
export type StepStart = v.InferOutput<typeof StepStartSchema>;

/** The answer to `step-start`: where the step runs and the CPUs it holds on each node, or `busy`. */
export interface StepGrant {
  nodes?: string;
  cpus?: number[];
  busy?: boolean;
}

export const StepRefSchema = v.strictObject({ jobId, stepId });

/** A step's end, with what its tasks used (absent when nothing was gathered). */
export const StepEndSchema = v.strictObject({ jobId, stepId, exitStatus: waitStatus, usage: v.optional(StepUsageSchema) });

/** A live sample of a running step's use (every JobAcctGatherFrequency seconds), or the batch step's. */
export const StepUsageSampleSchema = v.strictObject({ jobId, stepId: v.union([stepId, v.literal('batch')]), usage: StepUsageSchema });
