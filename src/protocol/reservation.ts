// An advance reservation as the controller keeps it and reports it (scontrol show reservation),
// and the Key=Value request tscontrol sends to create or change one (a schema, checked on receipt).
import * as v from 'valibot';
import { count, minutes, text, textList, unixTime } from './schema-kit.js';

/** The reservation flags tslurm honours, in the order scontrol prints them. */
export const RESV_FLAGS = ['MAINT', 'OVERLAP', 'IGNORE_JOBS', 'SPEC_NODES', 'ALL_NODES'] as const;
export type ResvFlag = (typeof RESV_FLAGS)[number];

export interface ReservationView {
  name: string;
  /** Unix seconds: the window is [start, end). */
  start: number;
  end: number;
  /** The reserved nodes, by name, in node-table order. */
  nodes: string[];
  /** The reserved nodes as a hostlist (`node[1-3]`). */
  nodeList: string;
  /** CPUs of the reserved nodes (CoreCnt= and TRES=cpu=). */
  cpus: number;
  partition: string | null;
  users: string[];
  accounts: string[];
  flags: ResvFlag[];
}

/** What `create` and `update` send: only the keys the command line named. */
export const ReservationRequestSchema = v.strictObject({
  /** slurmctld's bound on names (as a job's reservation). */
  name: v.optional(text(1024)),
  /** Unix seconds. */
  start: v.optional(unixTime),
  end: v.optional(unixTime),
  /** Minutes, or INFINITE. */
  duration: v.optional(minutes),
  /** A hostlist, or ALL. */
  nodes: v.optional(text(64 * 1024)),
  nodeCnt: v.optional(count(1)),
  partition: v.optional(text(1024)),
  users: v.optional(textList(1024)),
  accounts: v.optional(textList(1024)),
  /** Flags to set; `update` may also name flags to clear. */
  flags: v.optional(v.array(v.picklist(RESV_FLAGS))),
  clearFlags: v.optional(v.array(v.picklist(RESV_FLAGS))),
});

export type ReservationRequest = v.InferOutput<typeof ReservationRequestSchema>;
