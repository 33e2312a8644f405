// The schema of a StepUsage (step-usage.ts) as it travels in messages (step-end, step-usage,
// complete, the batch result), checked on receipt like every body.
import * as v from 'valibot';
import type { StepUsage } from './step-usage.js';

const amount = v.pipe(v.number(), v.minValue(0), v.maxValue(Number.MAX_SAFE_INTEGER));
const taskId = v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(0xfffffff0));
const node = v.pipe(v.string(), v.maxLength(1024));

export const StepUsageSchema = v.strictObject({
  maxRssKiB: amount,
  maxRssTask: taskId,
  maxRssNode: node,
  aveRssKiB: amount,
  maxVmSizeKiB: amount,
  maxVmSizeTask: taskId,
  maxVmSizeNode: node,
  aveVmSizeKiB: amount,
  userCpuUsec: amount,
  systemCpuUsec: amount,
  maxDiskReadBytes: v.optional(amount),
  maxDiskWriteBytes: v.optional(amount),
  ntasks: v.optional(amount),
  minCpuUsec: v.optional(amount),
  minCpuTask: v.optional(taskId),
  minCpuNode: v.optional(node),
  maxDiskReadTask: v.optional(taskId),
  maxDiskReadNode: v.optional(node),
  maxDiskWriteTask: v.optional(taskId),
  maxDiskWriteNode: v.optional(node),
  aveDiskReadBytes: v.optional(amount),
  aveDiskWriteBytes: v.optional(amount),
  sampledAt: amount,
});

// The schema and the interface describe one shape: a field added to one and not the other fails here.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
export const USAGE_SCHEMA_MATCHES: Same<v.InferOutput<typeof StepUsageSchema>, StepUsage> = true;
