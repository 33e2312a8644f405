// The controller's view of the tsstepd node daemons (slurmctld's node registration and
// ping logic): a daemon registers with its address and resources, then heartbeats; a node
// whose daemon has been silent for SlurmdTimeout is set DOWN with reason "Not responding"
// (and loses its jobs); a daemon that registers again returns its node to service when that
// was why it was down (Slurm's ReturnToService=1). A node that reports fewer CPUs or less
// memory than the cluster file gives it is drained, with slurmctld's reasons.
import { requireAdministrator } from './administrators.js';
import { UserError } from '../core/errors.js';
import { DEFAULT_SLURMD_TIMEOUT } from '../config/types.js';
import { connectEndpoint } from '../net/endpoint.js';
import type { MessageAuth } from '../net/message-auth.js';
import { CtldClient, type CallArgs } from '../client/ctld-client.js';
import type { NodeAddress, NodeRegistration, RegisterAnswer } from '../protocol/node-messages.js';
import type { BatchResult } from '../stepd/batch-spec.js';
import type { Controller } from './controller.js';
import { applyNodeState, type NodeJobs } from './node-ops.js';
import type { RpcConnection } from '../net/rpc-server.js';
import type { CtldHandlers } from './ctld-handlers.js';

export const NOT_RESPONDING = 'Not responding';

interface DaemonLink {
  host: string;
  port: number;
  lastHeard: number;
  pid: number;
}

export class NodeDaemons {
  private readonly links = new Map<number, DaemonLink>();
  private readonly startedAt = Date.now();
  readonly timeoutSeconds: number;

  constructor(
    private readonly ctl: Controller,
    /** Ends the jobs of a node that is set DOWN. */
    private readonly jobs: NodeJobs,
    private readonly onChange: () => void,
    /** How the controller seals what it sends to the daemons; none when it does not listen on TCP. */
    private readonly auth: MessageAuth | undefined,
  ) {
    this.timeoutSeconds = ctl.options.config.control.slurmdTimeout ?? DEFAULT_SLURMD_TIMEOUT;
  }

  /** Whether the node's work goes to a tsstepd (it has an address, or a daemon registered for it). */
  served(index: number): boolean {
    return this.links.has(index) || this.ctl.options.config.nodes[index]?.addr !== undefined;
  }

  addressOf(name: string): NodeAddress | undefined {
    const index = this.ctl.table.indexOf(name);
    const link = index === undefined ? undefined : this.links.get(index);
    if (!link) return undefined;
    return { name, host: link.host, port: link.port };
  }

  /** Whether the node's daemon is registered and answering. */
  isUp(name: string): boolean {
    const index = this.ctl.table.indexOf(name);
    return index !== undefined && this.links.has(index) && this.ctl.nodeStates.linkOf(index) === 'up';
  }

  /** A request to a node's daemon (batch launch, kill, signal); rejects when it cannot be reached. */
  async send<T>(name: string, ...[op, body]: CallArgs): Promise<T> {
    const address = this.addressOf(name);
    if (!address || !this.auth) throw new Error(`node ${name} has no daemon registered`);
    const client = await CtldClient.connect({ host: address.host, port: address.port }, this.auth);
    try {
      return await client.call<T>(...([op, body] as CallArgs));
    } finally {
      client.close();
    }
  }

  async register(reg: NodeRegistration, connection?: RpcConnection): Promise<RegisterAnswer> {
    const { ctl } = this;
    requireAdministrator(connection);
    const index = ctl.table.indexOf(reg.node);
    if (index === undefined) throw new UserError(`Node ${reg.node} not found in the cluster file`, { code: 'ESLURM_INVALID_NODE_NAME' });
    const first = ctl.nodeStates.linkOf(index) !== 'up' || !this.links.has(index);
    const previous = this.links.get(index);
    this.links.set(index, { host: reg.host, port: reg.port, lastHeard: Date.now(), pid: reg.pid });
    ctl.nodeStates.setLink(index, 'up');
    if (first || previous?.pid !== reg.pid) ctl.log.info(`node ${reg.node} registered: tsstepd ${reg.pid} at ${reg.host}:${reg.port}, ${reg.cpus} CPUs, ${reg.realMemory} MB`);
    const admin = ctl.nodeStates.adminOf(index);
    const node = ctl.table.nodes[index]!;
    if (admin.down && admin.reason === NOT_RESPONDING) {
      ctl.log.info(`node ${reg.node} returned to service`);
      await applyNodeState(ctl, this.jobs, index, { ...admin, down: false, reason: null, time: 0 });
    }
    // Another configuration than the cluster file's: select_g_update_node_config.
    if (reg.cpus !== node.cpus || reg.realMemory !== node.real_memory) {
      const rc = await ctl.select.updateNodeConfig(index);
      if (rc !== 0) ctl.log.error(`node ${reg.node}: select_p_update_node_config failed (rc ${rc})`);
    }
    // A daemon that restarted under running jobs: select_g_job_mem_confirm for each of them.
    if (previous && previous.pid !== reg.pid) {
      for (const job of ctl.runningJobs()) {
        if (!job.record.node_bitmap?.test(index)) continue;
        const rc = await ctl.select.jobMemConfirm(job.record);
        if (rc !== 0) ctl.log.error(`job ${job.record.job_id}: select_p_job_mem_confirm failed (rc ${rc})`);
      }
    }
    const low = lowResources(reg, node.cpus, node.real_memory);
    if (low !== undefined && !admin.drain) {
      ctl.log.error(`node ${reg.node}: ${low}; draining it`);
      await applyNodeState(ctl, this.jobs, index, { ...ctl.nodeStates.adminOf(index), drain: true, reason: low, time: now(), uid: slurmUser() });
    }
    this.onChange();
    // A job requeued or ended while its node was away is not this node's any more.
    const kill = (reg.batchJobs ?? [])
      .filter(({ jobId, gen }) => {
        const job = ctl.jobs.get(jobId);
        return !job || job.batchNode !== reg.node || job.requeueCount !== gen;
      })
      .map(({ jobId }) => jobId);
    if (kill.length > 0) ctl.log.info(`node ${reg.node}: batch steps of jobs ${kill.join(',')} are no longer expected there; killing them`);
    return { heartbeatSeconds: Math.max(1, Math.floor(this.timeoutSeconds / 3)), kill };
  }

  /** A heartbeat; `reregister` when the controller no longer counts the daemon as up. */
  heartbeat(name: string): { reregister: boolean } {
    const index = this.ctl.table.indexOf(name);
    const link = index === undefined ? undefined : this.links.get(index);
    if (index === undefined || !link || this.ctl.nodeStates.linkOf(index) !== 'up') return { reregister: true };
    link.lastHeard = Date.now();
    return { reregister: false };
  }

  /** Every second: daemons silent for SlurmdTimeout (or never heard since the start) are lost. */
  async tick(): Promise<void> {
    const { ctl } = this;
    const limit = this.timeoutSeconds * 1000;
    for (let index = 0; index < ctl.table.size; index++) {
      if (!this.served(index) || ctl.nodeStates.linkOf(index) === 'lost') continue;
      const heard = this.links.get(index)?.lastHeard ?? this.startedAt;
      if (Date.now() - heard > limit) await this.lost(index);
    }
  }

  /**
   * Someone could not reach a node's daemon (tsrun, mid-step): the controller tries it itself,
   * and a daemon that does not take a connection is lost at once rather than after the timeout.
   */
  async reportUnreachable(name: string): Promise<void> {
    const index = this.ctl.table.indexOf(name);
    if (index === undefined || this.ctl.nodeStates.linkOf(index) === 'lost') return;
    const link = this.links.get(index);
    if (link) {
      const answered = await connectEndpoint({ host: link.host, port: link.port }, 1000).then(
        (socket) => (socket.destroy(), true),
        () => false,
      );
      if (answered) return;
    }
    await this.lost(index);
  }

  private async lost(index: number): Promise<void> {
    const { ctl } = this;
    const name = ctl.table.nodes[index]!.name;
    ctl.log.error(`node ${name} not responding, setting DOWN`);
    ctl.nodeStates.setLink(index, 'lost');
    const admin = ctl.nodeStates.adminOf(index);
    await applyNodeState(ctl, this.jobs, index, { ...admin, down: true, reason: admin.reason ?? NOT_RESPONDING, time: now(), uid: slurmUser() });
    this.onChange();
  }
}

/** slurmctld's reasons for a node that registers with less than it is configured with. */
function lowResources(reg: NodeRegistration, cpus: number, memory: number): string | undefined {
  const reasons: string[] = [];
  if (reg.cpus < cpus) reasons.push('Low socket*core*thread count, Low CPUs');
  if (reg.realMemory < memory) reasons.push(`Low RealMemory (reported:${reg.realMemory} < 100.00% of configured:${memory})`);
  return reasons.length > 0 ? reasons.join(', ') : undefined;
}

function now(): number {
  return Math.floor(Date.now() / 1000);
}

/** The uid the controller's own reasons are set by (SlurmUser: the controller's user). */
function slurmUser(): number {
  return process.getuid?.() ?? 0;
}

type NodeDaemonOps = 'node-register' | 'node-heartbeat' | 'node-addresses' | 'batch-complete' | 'node-unreachable';

/** Where a node daemon's report of a batch step's end goes (the controller's BatchJobs). */
export interface BatchEnds {
  remoteEnded(node: string, jobId: number, gen: number, result: BatchResult | null): Promise<void>;
}

export function nodeDaemonHandlers(daemons: NodeDaemons, batch: BatchEnds): Pick<CtldHandlers, NodeDaemonOps> {
  return {
    'node-register': async (body, connection) => daemons.register(body, connection),
    // Only node daemons (root or the controller's user) report heartbeats and batch ends.
    'node-heartbeat': async (body, connection) => {
      requireAdministrator(connection);
      return daemons.heartbeat(body.node);
    },
    'node-addresses': async (body) => body.names.map((name) => daemons.addressOf(name) ?? null),
    'batch-complete': async (body, connection) => {
      requireAdministrator(connection);
      await batch.remoteEnded(body.node, body.jobId, body.gen, body.result);
      return {};
    },
    'node-unreachable': async (body) => {
      await daemons.reportUnreachable(body.node);
      return {};
    },
  };
}
