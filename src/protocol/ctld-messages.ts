// Every request tsctld serves, each with the schema of its body: the one description clients
// build their bodies against (the types below) and the RPC server checks on receipt, before a
// handler sees anything (check-body.ts). A handler's body type is its schema's output.
// Adding a request: an entry here; the handler table (rpc-handlers.ts) must then have it.
// Adding a field to a request: the field in its schema, v.optional(...) unless every client sends it.
import * as v from 'valibot';
import { JobDescSchema } from './job-desc.js';
import { BatchCompleteSchema, NodeNameBodySchema, NodeNamesSchema, NodeRegistrationSchema } from './node-messages.js';
import { ReservationRequestSchema } from './reservation.js';
import { caller, count, int, jobId, jobIdText, minutes, noBody, signal, text, waitStatus } from './schema-kit.js';
import { StepEndSchema, StepRefSchema, StepStartSchema, StepUsageSampleSchema } from './step-messages.js';
import { StepUsageSchema } from './step-usage-schema.js';

const ids = v.array(jobIdText);

/** Where scancel -s sends a signal: a batch job's steps (default), its shell (-b), or all (-f). */
export const SIGNAL_SCOPES = ['steps', 'batch', 'full'] as const;
export type SignalScopeName = (typeof SIGNAL_SCOPES)[number];

/** A TimeLimit change: a new limit, or minutes to add or take away (`+5`, `-5`). */
const TimeLimitChangeSchema = v.strictObject({ op: v.picklist(['set', 'add', 'sub']), minutes });

/** `tscontrol update JobId=...`: only the fields named. */
export const JobUpdateSchema = v.strictObject({
  timeLimit: v.optional(TimeLimitChangeSchema),
  partition: v.optional(text(1024)),
  name: v.optional(text(1024)),
  /** Comment=; '' clears it. */
  comment: v.optional(text(1024)),
  /** Dependency= as given; '' clears it (pending jobs only); parsed by the handler. */
  dependency: v.optional(text(128 * 1024)),
  /** NumNodes=: shrink a running job to this many nodes. */
  numNodes: v.optional(count(0)),
  /** Nice=: the job's new --nice (negative: administrators only). */
  nice: v.optional(int(-2147483645, 2147483645)),
});

const submission = v.strictObject({ desc: JobDescSchema, testOnly: v.optional(v.boolean()) });
const oneJob = v.strictObject({ ...caller, id: jobIdText });
const heldJob = { jobId };

export const CTLD_BODIES = {
  ping: noBody,
  shutdown: noBody,
  /** sdiag's figures (ctld/diag-handler.ts). */
  diag: noBody,
  submit: submission,
  /** Resolves when every job named has ended. */
  wait: v.strictObject({ ids }),
  /** `details`: with what `scontrol -d` shows. */
  jobs: v.optional(v.strictObject({ ids: v.optional(ids), details: v.optional(v.boolean()) })),
  /**
   * The jobs changed since `cursor` of `feed` and those gone (protocol/jobs-changes.ts), for a
   * client that keeps the list (tsrestd); `feed: ''` asks for the whole list.
   */
  jobs_since: v.strictObject({ feed: text(64), cursor: count(0) }),
  /** Cancels, or signals with `signal`, each job named. */
  cancel: v.strictObject({ ...caller, ids, signal: v.optional(signal), scope: v.optional(v.picklist(SIGNAL_SCOPES)) }),
  hold: v.strictObject({ ...caller, ids, admin: v.optional(v.boolean()) }),
  release: v.strictObject({ ...caller, ids }),

  // tscontrol's administrative requests (admin-handlers.ts).
  cluster_info: noBody,
  update_node: v.strictObject({ ...caller, nodes: text(64 * 1024), state: v.optional(text(64)), reason: v.optional(text(1024)) }),
  update_job: v.strictObject({ ...caller, id: jobIdText, update: JobUpdateSchema }),
  /** scontrol write batch_script. */
  batch_script: oneJob,
  /** `tscontrol update PartitionName=...`: only the fields named (partition-updates.ts). */
  update_partition: v.strictObject({
    ...caller,
    name: text(1024),
    state: v.optional(v.picklist(['UP', 'DOWN', 'DRAIN', 'INACTIVE'])),
    /** Minutes, or INFINITE. */
    maxTime: v.optional(minutes),
    /** A hostlist; '' for none. */
    nodes: v.optional(text(64 * 1024)),
    oversubscribe: v.optional(v.picklist(['NO', 'YES', 'FORCE', 'EXCLUSIVE'])),
    /** Jobs per core under YES or FORCE (1 to 32767); sent with `oversubscribe`. */
    shareCount: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(0x7fff))),
  }),
  suspend: oneJob,
  resume: oneJob,
  requeue: oneJob,
  reconfigure: noBody,

  // tsrun's own jobs (interactive-jobs.ts).
  allocate: submission,
  allocation: v.strictObject(heldJob),
  attach: v.strictObject(heldJob),
  watch: v.strictObject(heldJob),
  complete: v.strictObject({ ...heldJob, status: waitStatus, usage: v.optional(StepUsageSchema) }),

  // Steps of a job run by a tsrun inside it (step-registry.ts).
  'step-start': StepStartSchema,
  'step-end': StepEndSchema,
  'step-watch': StepRefSchema,
  'step-usage': StepUsageSampleSchema,
  'step-stats': v.strictObject({ id: jobIdText }),
  'job-usage': v.strictObject({ id: jobIdText }),
  steps: v.optional(v.strictObject({ id: v.optional(jobIdText) })),
  'step-cancel': v.strictObject({ ...caller, ids, signal: v.optional(signal) }),

  // tsstepd node daemons (node-daemons.ts).
  'node-register': NodeRegistrationSchema,
  'node-heartbeat': NodeNameBodySchema,
  'node-addresses': NodeNamesSchema,
  'batch-complete': BatchCompleteSchema,
  'node-unreachable': NodeNameBodySchema,
  /** tsrun lost the embedded step host (this pid) under a step of the job (step-host-loss.ts). */
  'step-host-lost': v.strictObject({ jobId, pid: int(1, 2 ** 31 - 1) }),

  // Advance reservations (reservation-handlers.ts).
  resv_list: noBody,
  resv_create: v.strictObject({ ...caller, request: ReservationRequestSchema }),
  resv_update: v.strictObject({ ...caller, request: ReservationRequestSchema }),
  resv_delete: v.strictObject({ ...caller, name: text(1024) }),
} satisfies Record<string, v.GenericSchema>;

export type CtldOp = keyof typeof CTLD_BODIES;
/** The body of a request, as its schema gives it. */
export type CtldBody<K extends CtldOp> = v.InferOutput<(typeof CTLD_BODIES)[K]>;
/** `update_partition`'s change itself, as the command builds it (the caller is added when sent). */
export type PartitionUpdate = Omit<CtldBody<'update_partition'>, 'userId'>;
export type JobUpdate = v.InferOutput<typeof JobUpdateSchema>;
export type TimeLimitChange = v.InferOutput<typeof TimeLimitChangeSchema>;
