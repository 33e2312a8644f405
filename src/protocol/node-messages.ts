// What a tsstepd node daemon tells the controller: its registration and heartbeats, the end of
// the batch steps it runs; and what tsrun asks about the daemons' addresses.
import * as v from 'valibot';
import { StepUsageSchema } from './step-usage-schema.js';
import { count, int, jobId, pid, port, text } from './schema-kit.js';

const nodeName = text(1024);

export const NodeRegistrationSchema = v.strictObject({
  node: nodeName,
  /** Where its daemon takes launch requests. */
  host: text(1024),
  port,
  cpus: count(1),
  /** MB. */
  realMemory: int(0, Number.MAX_SAFE_INTEGER),
  pid,
  /** The batch steps the daemon runs, with the launch (requeue count) each belongs to. */
  batchJobs: v.optional(v.array(v.strictObject({ jobId, gen: count(0) }))),
});

export type NodeRegistration = v.InferOutput<typeof NodeRegistrationSchema>;

/** Why the controller asked a batch step to end. */
export const KILL_CAUSES = ['CANCELLED', 'TIMEOUT', 'NODE_FAIL', 'REQUEUE', 'PREEMPTED', 'PREEMPT_REQUEUE'] as const;

/** What the batch step daemon leaves behind. */
export const BatchResultSchema = v.strictObject({
  /** Wait status: exit code << 8, or the signal number; SIG_OOM (253) after an oom kill. */
  status: int(0, 0xffff),
  /** The cause, when the controller asked the job to end. */
  cause: v.nullable(v.picklist(KILL_CAUSES)),
  /** The daemon could not start the script (output file, exec failure): why. */
  failure: v.nullable(v.string()),
  /** What the script and its children used (absent when nothing was gathered). */
  usage: v.optional(StepUsageSchema),
});

export const BatchCompleteSchema = v.strictObject({
  node: nodeName,
  jobId,
  gen: count(0),
  result: v.nullable(BatchResultSchema),
});

export const NodeNameBodySchema = v.strictObject({ node: nodeName });

export const NodeNamesSchema = v.strictObject({ names: v.array(nodeName) });

/** The controller's answer to a node daemon's registration. */
export interface RegisterAnswer {
  heartbeatSeconds: number;
  /** Batch steps the node runs that the controller no longer expects there: to be killed. */
  kill: number[];
}

/** Where a node's daemon listens (the controller's answer to `node-addresses`). */
export interface NodeAddress {
  name: string;
  host: string;
  port: number;
}
