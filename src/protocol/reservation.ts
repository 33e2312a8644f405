// An advance reservation as the controller keeps it and reports it (scontrol show reservation),
// and the Key=Value request tscontrol sends to create or change one. Plain JSON.

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
export interface ReservationRequest {
  name?: string;
  /** Unix seconds. */
  start?: number;
  end?: number;
  /** Minutes. */
  duration?: number;
  /** A hostlist, or ALL. */
  nodes?: string;
  nodeCnt?: number;
  partition?: string;
  users?: string[];
  accounts?: string[];
  /** Flags to set; `update` may also name flags to clear. */
  flags?: ResvFlag[];
  clearFlags?: ResvFlag[];
}
