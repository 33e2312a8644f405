// The nodes' live state (slurmctld's node_state and reason fields): what an administrator set
// (DOWN, DRAIN, a reason, who and when) and what the jobs make of it (ALLOCATED, MIXED, IDLE,
// COMPLETING). The node_record_t objects of the node table are updated in place, so the
// scheduler, select and sched plugins all see the same state the commands print.
import { NO_VAL } from '../core/slurm-constants.js';
import type { ClusterConfig } from '../config/types.js';
import {
  JOB_COMPLETING,
  JOB_RUNNING,
  JOB_STATE_BASE,
  JOB_SUSPENDED,
  NODE_STATE_ALLOCATED,
  NODE_STATE_BASE,
  NODE_STATE_COMPLETING,
  NODE_STATE_DOWN,
  NODE_STATE_DRAIN,
  NODE_STATE_FUTURE,
  NODE_STATE_IDLE,
  NODE_STATE_MIXED,
  NODE_STATE_NO_RESPOND,
  NODE_STATE_UNKNOWN,
  type node_record_t,
} from '../plugin-api/records.js';
import type { CtldJob } from './job.js';
import type { NodeTable } from './node-table.js';
import type { NodeStateRecord } from './state/snapshot.js';

/** What an administrator (or the cluster file) set on a node. */
export interface AdminState {
  down: boolean;
  drain: boolean;
  reason: string | null;
  /** Unix seconds the reason was set; 0 when unknown (a reason from the cluster file). */
  time: number;
  /** Who set it; NO_VAL when unknown. */
  uid: number;
}

/** What the jobs hold on a node now. */
export interface NodeUsage {
  allocCpus: number;
  allocMemory: number;
  completing: boolean;
}

export class NodeStates {
  private readonly admin: AdminState[];
  private readonly usage: NodeUsage[];
  private readonly future: boolean[];
  /**
   * Nodes served by a tsstepd: whether it has registered and answers. `unknown` until its first
   * registration (UNKNOWN*), `lost` once it stopped answering (DOWN*, set with the reason);
   * emulated nodes are always `up`.
   */
  private readonly link: Array<'up' | 'unknown' | 'lost'>;
  /** Nodes whose state was changed by an update (these are saved; the others follow the cluster file). */
  private readonly touched = new Set<number>();

  constructor(
    private readonly table: NodeTable,
    config: ClusterConfig,
  ) {
    this.admin = config.nodes.map((node) => ({
      down: node.state === 'DOWN',
      drain: node.state === 'DRAIN',
      reason: node.reason ?? null,
      time: 0,
      uid: NO_VAL,
    }));
    this.future = config.nodes.map((node) => node.state === 'FUTURE');
    this.usage = config.nodes.map(() => ({ allocCpus: 0, allocMemory: 0, completing: false }));
    this.link = config.nodes.map((node) => (node.addr !== undefined ? 'unknown' : 'up'));
  }

  linkOf(index: number): 'up' | 'unknown' | 'lost' {
    return this.link[index]!;
  }

  /** A node daemon registered, or stopped answering. */
  setLink(index: number, link: 'up' | 'unknown' | 'lost'): void {
    this.link[index] = link;
    this.apply(index);
  }

  adminOf(index: number): Readonly<AdminState> {
    return this.admin[index]!;
  }

  usageOf(index: number): Readonly<NodeUsage> {
    return this.usage[index]!;
  }

  /** Sets what an administrator changed on a node, and its record's state. */
  set(index: number, state: AdminState): void {
    this.admin[index] = { ...state };
    this.touched.add(index);
    this.apply(index);
  }

  /** Recovery: the saved states of the nodes still configured. */
  restore(records: Iterable<NodeStateRecord>): void {
    for (const saved of records) {
      const index = this.table.indexOf(saved.name);
      if (index === undefined) continue;
      this.admin[index] = {
        down: (saved.state & NODE_STATE_BASE) === NODE_STATE_DOWN,
        drain: (saved.state & NODE_STATE_DRAIN) !== 0,
        reason: saved.reason,
        time: saved.time ?? 0,
        uid: saved.uid ?? NO_VAL,
      };
      this.touched.add(index);
      this.apply(index);
    }
  }

  /** The record saved for a node (its administrative state only). */
  record(index: number): NodeStateRecord {
    const a = this.admin[index]!;
    const state = (a.down ? NODE_STATE_DOWN : NODE_STATE_IDLE) | (a.drain ? NODE_STATE_DRAIN : 0);
    return { name: this.table.nodes[index]!.name, state, reason: a.reason, time: a.time, uid: a.uid };
  }

  /** Every node an update changed, for a snapshot. */
  stored(): NodeStateRecord[] {
    return [...this.touched].sort((a, b) => a - b).map((index) => this.record(index));
  }

  /**
   * Recounts what the jobs hold: running and suspended jobs their CPUs and memory, completing
   * ones the COMPLETING flag (slurmctld frees a job's CPUs when it starts completing).
   */
  refresh(jobs: Iterable<CtldJob>): void {
    for (const u of this.usage) Object.assign(u, { allocCpus: 0, allocMemory: 0, completing: false });
    for (const job of jobs) {
      const r = job.record;
      if (r.node_bitmap === null) continue;
      const base = r.job_state & JOB_STATE_BASE;
      if ((r.job_state & JOB_COMPLETING) !== 0) {
        for (const index of this.indexes(r.node_bitmap)) this.usage[index]!.completing = true;
      } else if (base === JOB_RUNNING || base === JOB_SUSPENDED) {
        const res = r.job_resrcs;
        this.indexes(res?.node_bitmap ?? r.node_bitmap).forEach((index, i) => {
          const u = this.usage[index]!;
          u.allocCpus += res ? (res.cpus[i] ?? 0) : this.table.nodes[index]!.cpus;
          u.allocMemory += res ? (res.memory_allocated[i] ?? 0) : 0;
        });
      }
    }
    for (let index = 0; index < this.admin.length; index++) this.apply(index);
  }

  /** A node's state: DOWN, FUTURE, ALLOCATED, MIXED or IDLE, with DRAIN and COMPLETING. */
  stateOf(index: number): number {
    const a = this.admin[index]!;
    const u = this.usage[index]!;
    const cpus = this.table.nodes[index]!.cpus;
    const link = this.link[index]!;
    let base = NODE_STATE_IDLE;
    if (a.down) base = NODE_STATE_DOWN;
    else if (link === 'unknown') base = NODE_STATE_UNKNOWN;
    else if (this.future[index]) base = NODE_STATE_FUTURE;
    else if (u.allocCpus >= cpus && u.allocCpus > 0) base = NODE_STATE_ALLOCATED;
    else if (u.allocCpus > 0) base = NODE_STATE_MIXED;
    const noRespond = link === 'up' ? 0 : NODE_STATE_NO_RESPOND;
    return base | (a.drain ? NODE_STATE_DRAIN : 0) | (u.completing ? NODE_STATE_COMPLETING : 0) | noRespond;
  }

  // node_state is read-only for plugins; the controller is the one writer.
  private apply(index: number): void {
    (this.table.nodes[index] as { node_state: number } & node_record_t).node_state = this.stateOf(index);
  }

  private indexes(bitmap: NonNullable<CtldJob['record']['node_bitmap']>): number[] {
    const out: number[] = [];
    for (let i = bitmap.nextSet(0); i >= 0 && i < this.table.size; i = bitmap.nextSet(i + 1)) out.push(i);
    return out;
  }
}

/** Whether a node in `state` may be given work: not DOWN, FUTURE, UNKNOWN, drained or silent. */
export function isUsableNodeState(state: number): boolean {
  const base = state & NODE_STATE_BASE;
  if (base === NODE_STATE_DOWN || base === NODE_STATE_FUTURE || base === NODE_STATE_UNKNOWN) return false;
  return (state & (NODE_STATE_DRAIN | NODE_STATE_NO_RESPOND)) === 0;
}
