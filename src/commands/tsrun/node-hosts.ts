// Launching a step's nodes through step hosts (srun's launch): tsstepd node daemons over TCP
// in daemon mode, one `launch` request per top-level span of the tree (TreeWidth), or the
// embedded step host on the state directory's Unix socket, one request for every emulated
// node; and a listener every node connects back to with its I/O (srun's I/O port). Each node
// becomes a NodeStep; a node whose connection drops before it said `done` is a node failure:
// the step is aborted with srun's message, the node's unreported tasks count as killed, and
// the controller is told so it can set the node DOWN without waiting for its timeout.
import net from 'node:net';
import { Writable } from 'node:stream';
import { randomHex } from '../../os/random-hex.js';
import type { TaskExit } from '../../core/exit-status.js';
import { UserError } from '../../core/errors.js';
import type { MessageAuth } from '../../net/message-auth.js';
import { connectEndpoint } from '../../net/endpoint.js';
import { lineReader } from '../../protocol/rpc.js';
import { inputLimits } from '../../net/input-limits.js';
import {
  forwardSpans,
  type NodeLaunchResult,
  type NodeToTsrun,
  type RemoteLaunch,
  type RemoteNode,
  type TsrunToNode,
} from '../../protocol/remote-launch.js';
import { sendLaunch } from '../../stepd/node-daemon/send-launch.js';
import type { NodeAddress } from '../../protocol/node-messages.js';
import type { NodeIoSink, NodeStep } from '../../stepd/launch-node.js';
import type { NodeLaunchSpec } from '../../stepd/launch-spec.js';
import type { PluginSettings } from '../../plugin-host/create.js';

export interface HostLaunchOptions {
  specs: NodeLaunchSpec[];
  /** Each spec's node: its name, and where its daemon listens (the local host forwards nothing). */
  nodes: Array<Pick<RemoteNode, 'name' | 'host' | 'port'>>;
  /** Seals the hosts' requests and opens their I/O hellos. */
  auth: MessageAuth;
  plugins: PluginSettings;
  endsJob: boolean;
  treeWidth: number;
  sink: NodeIoSink;
  /**
   * Where tsrun's I/O port listens, and the address the hosts reach it by (once it is known);
   * `port`: one opened ahead, while the controller allocated (else it is opened here).
   */
  io: { listen: string; reachedAt(): Promise<string>; port?: Promise<IoPort> | undefined };
  /** Sends the launch to the hosts; resolves to every node's result. */
  send(launch: RemoteLaunch): Promise<NodeLaunchResult[]>;
  /** A node's host was lost mid-step (tsrun tells the controller). */
  onNodeLost(node: string): void;
  /** The nodes exist, their launch not yet answered: a signal to them reaches their prologs. */
  onNodes?(nodes: NodeStep[]): void;
}

/** The nodes served by tsstepd daemons: each span of the tree to its first daemon, over TCP. */
export function daemonsLaunch(addresses: NodeAddress[], auth: MessageAuth, treeWidth: number): Pick<HostLaunchOptions, 'nodes' | 'io' | 'send'> {
  return {
    nodes: addresses,
    io: {
      listen: '0.0.0.0',
      // The first daemon's connection shows which of this host's addresses the nodes reach it by.
      reachedAt: async () => {
        const first = await connectEndpoint(addresses[0]!).catch(() => undefined);
        // Read before the socket is destroyed, which forgets its address.
        const ioHost = first?.localAddress ?? '127.0.0.1';
        first?.destroy();
        return ioHost;
      },
    },
    send: async (launch) => (await Promise.all(forwardSpans(0, addresses.length, treeWidth).map((span) => sendLaunch(launch, span, auth)))).flat(),
  };
}

export async function launchThroughHosts(options: HostLaunchOptions): Promise<Array<PromiseSettledResult<NodeStep>>> {
  const { specs, auth, sink } = options;
  const port = await (options.io.port ?? openIoPort(options.io.listen, auth));
  const nodes = specs.map((spec, i) => new RemoteNodeStep(options.nodes[i]!.name, spec, sink, options.onNodeLost));
  options.onNodes?.(nodes);
  // A hello names its node by the step's node id: these nodes may be only some of the step's
  // (daemon mode with emulated nodes: the daemons' and the step host's each have a listener).
  port.expect(new Map(nodes.map((node, i) => [specs[i]!.nodeId, node])));
  const { key } = port;
  try {
    const ioHost = await options.io.reachedAt();
    const ioPort = port.port;
    // The tasks' SLURM_SRUN_COMM_HOST and _PORT: where the nodes reach this tsrun.
    const step = { ...specs[0]!.step, srunPort: ioPort };
    const remoteNodes: RemoteNode[] = specs.map((spec, i) => ({
      name: options.nodes[i]!.name,
      host: options.nodes[i]!.host,
      port: options.nodes[i]!.port,
      spec: {
        nodeId: spec.nodeId,
        cpusOnNode: spec.cpusOnNode,
        gpus: spec.gpus,
        argv: spec.argv,
        stdin: spec.stdin,
        ...(spec.memLimitMb !== undefined && { memLimitMb: spec.memLimitMb }),
      },
    }));
    const launch: RemoteLaunch = {
      step,
      cwd: specs[0]!.cwd,
      env: specs[0]!.env,
      killWaitSeconds: specs[0]!.killWaitSeconds,
      plugins: options.plugins,
      endsJob: options.endsJob,
      nodes: remoteNodes,
      io: { host: ioHost, port: ioPort, key },
      treeWidth: options.treeWidth,
      // Whose tasks these are: the hosts take it from a root tsrun (--uid/--gid), else from
      // the credential, which then says the same.
      ...(step.jobUid !== undefined && step.jobGid !== undefined && { user: { uid: step.jobUid, gid: step.jobGid } }),
    };
    const results = await options.send(launch);
    // The port closes once every node's connection is here or never will be: a host answers
    // once its nodes connected, but an accept still in the listener's backlog (a node whose
    // tasks all ended at once, their prolog failing) would be reset by closing it now.
    void Promise.all(nodes.map((node) => node.settled)).then(() => port.close());
    const byNode = new Map(results.map((r) => [r.node, r]));
    const graceMs = inputLimits().unauthTimeoutMs;
    return nodes.map((node) => {
      const result = byNode.get(node.name);
      if (result?.ok) {
        node.launched(graceMs);
        return { status: 'fulfilled', value: node };
      }
      node.failed();
      const why = result?.error ?? 'Communication connection failure';
      return { status: 'rejected', reason: new UserError(`Task launch for StepId=${step.jobId}.${step.stepId} failed on node ${node.name}: ${why}`) };
    });
  } catch (error) {
    port.close();
    throw error;
  }
}

/** tsrun's I/O port, listening: the step's key, and the nodes whose hellos it takes. */
export interface IoPort {
  readonly port: number;
  readonly key: string;
  /** The nodes this port serves, by step node id: until they are named, no hello is taken. */
  expect(nodes: ReadonlyMap<number, RemoteNodeStep>): void;
  /** Stops listening (the nodes' connections stay). */
  close(): void;
}

/**
 * Opens tsrun's I/O port on `host`. It may be opened before the step's nodes are known (tsrun
 * opens the loopback one while the controller allocates: listening on a host name loads
 * Node's dns module, a few milliseconds that would otherwise come between the allocation and
 * the launch). Nothing keeps tsrun alive for it alone.
 */
export async function openIoPort(host: string, auth: MessageAuth): Promise<IoPort> {
  const key = randomHex(16);
  let nodes: ReadonlyMap<number, RemoteNodeStep> = new Map();
  const server = await listen(host, auth, key, () => nodes);
  server.unref();
  let closed = false;
  return {
    port: (server.address() as net.AddressInfo).port,
    key,
    expect: (named) => (nodes = named),
    close: () => {
      if (!closed) server.close();
      closed = true;
    },
  };
}


/** The longest hello a node daemon sends (a few hundred bytes): more is not a node. */
const HELLO_MAX_BYTES = 64 * 1024;

/**
 * tsrun's I/O port: each connection starts with a sealed hello naming the step's key and a node.
 * Anyone may connect, so a connection without a good hello is closed: at its first line, at
 * 64 KiB without a newline, or when the unauthenticated timeout passes.
 */
function listen(host: string, auth: MessageAuth, key: string, expected: () => ReadonlyMap<number, RemoteNodeStep>): Promise<net.Server> {
  const limits = inputLimits();
  const server = net.createServer((socket) => {
    socket.setNoDelay(true);
    socket.on('error', () => {});
    let node: RemoteNodeStep | undefined;
    let opening: Promise<void> | undefined;
    const peer = `${socket.remoteAddress}:${socket.remotePort}`;
    const timer = setTimeout(() => node ?? socket.destroy(), limits.unauthTimeoutMs).unref();
    socket.once('close', () => clearTimeout(timer));
    socket.on(
      'data',
      lineReader(
        (message) => {
          if (node) return node.receive(message as NodeToTsrun);
          if (opening) return void opening.then(() => node?.receive(message as NodeToTsrun));
          // Nothing more is read until the hello checks out.
          socket.pause();
          opening = auth.open(message as Record<string, unknown>, peer).then((opened) => {
            const hello = opened.ok ? (opened.message as NodeToTsrun) : undefined;
            const named = hello?.t === 'hello' && hello.key === key ? expected().get(hello.nodeId) : undefined;
            if (!named) return void socket.destroy();
            node = named;
            node.attach(socket);
            socket.resume();
          });
        },
        () => socket.destroy(),
        { maxBytes: () => (opening ? limits.maxMessageBytes : HELLO_MAX_BYTES), onTooLong: () => socket.destroy() },
      ),
    );
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen({ host, port: 0 }, () => resolve(server));
  });
}

export class RemoteNodeStep implements NodeStep {
  readonly done: Promise<TaskExit[]>;
  private finish!: (exits: TaskExit[]) => void;
  private socket: net.Socket | undefined;
  private readonly queued: TsrunToNode[] = [];
  private readonly exits: TaskExit[] = [];
  private ended = false;
  private attachTimer: NodeJS.Timeout | undefined;
  /** Resolves once the node's I/O connection is here, or will never be (failed, lost). */
  readonly settled: Promise<void>;
  private settle!: () => void;

  constructor(
    readonly name: string,
    private readonly spec: NodeLaunchSpec,
    private readonly sink: NodeIoSink,
    private readonly onLost: (node: string) => void,
  ) {
    this.done = new Promise((resolve) => (this.finish = resolve));
    this.settled = new Promise((resolve) => (this.settle = resolve));
  }

  attach(socket: net.Socket): void {
    this.socket = socket;
    this.settle();
    clearTimeout(this.attachTimer);
    for (const message of this.queued.splice(0)) this.write(message);
    socket.on('close', () => this.lost());
  }

  /**
   * Its host answered that it launched: the node's I/O connection is here, or its hello is
   * being checked. One that never arrives (closed before its hello was taken, or refused) is
   * a lost node after `graceMs`, as a connection that drops is; tsrun would wait for it forever.
   */
  launched(graceMs: number): void {
    if (this.socket !== undefined || this.ended) return;
    this.attachTimer = setTimeout(() => this.socket ?? this.lost(), graceMs);
  }

  /** Its launch failed: nothing will come. */
  failed(): void {
    this.settle();
    this.ended = true;
    clearTimeout(this.attachTimer);
    this.socket?.destroy();
  }

  // The node's connection is gone before it said `done`: a node failure.
  private lost(): void {
    this.settle();
    if (this.ended) return;
    this.ended = true;
    clearTimeout(this.attachTimer);
    this.onLost(this.name);
    this.sink.abortStep?.(`Node failure on ${this.name}`, true);
    // What the node never reported ended with it.
    const reported = new Set(this.exits.map((e) => e.taskId));
    for (const taskId of this.spec.step.tids[this.spec.nodeId] ?? []) {
      if (reported.has(taskId)) continue;
      const exit: TaskExit = { taskId, nodeName: this.name, exitCode: null, signal: 'SIGKILL' };
      this.exits.push(exit);
      this.sink.taskExited?.(exit);
    }
    this.finish(this.exits);
  }

  receive(message: NodeToTsrun): void {
    switch (message.t) {
      case 'out':
        return this.sink.stdout(message.k, Buffer.from(message.d, 'base64'));
      case 'err':
        return this.sink.stderr(message.k, Buffer.from(message.d, 'base64'));
      case 'exit':
        this.exits.push(message.exit);
        return this.sink.taskExited?.(message.exit);
      case 'derr':
        return this.sink.daemonError(message.line, message.k);
      case 'abort':
        return this.sink.abortStep?.(message.message, message.error);
      case 'usage':
        return this.sink.usage?.({ ...message.usage, node: this.name }, message.final);
      case 'done':
        this.ended = true;
        this.socket?.end();
        return this.finish(this.exits);
    }
  }

  stdin(taskId: number): Writable | undefined {
    const mode = this.spec.stdin;
    const reads = mode === 'all' || mode === taskId;
    if (!reads || !(this.spec.step.tids[this.spec.nodeId] ?? []).includes(taskId)) return undefined;
    return new Writable({
      write: (chunk: Buffer, _encoding, callback) => {
        this.write({ t: 'in', k: taskId, d: chunk.toString('base64') });
        callback();
      },
      final: (callback) => {
        this.write({ t: 'eof', k: taskId });
        callback();
      },
    });
  }

  signal(signal: NodeJS.Signals): void {
    this.write({ t: 'sig', s: signal });
  }

  private write(message: TsrunToNode): void {
    if (this.ended) return;
    if (!this.socket) return void this.queued.push(message);
    if (!this.socket.destroyed) this.socket.write(`${JSON.stringify(message)}\n`);
  }
}
