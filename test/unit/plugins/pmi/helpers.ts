// Test harness for the PMI server: in-memory socket pairs, a client end that writes requests
// and reads answers (lines or frames), and a step of several simulated nodes joined to one
// coordinator by the real TCP fence tree, as mpi/pmi2 wires them.
import { Duplex, PassThrough } from 'node:stream';
import { KvsCoordinator } from '../../../../plugins/lib/pmi/coordinator.js';
import { listenForNodes } from '../../../../plugins/lib/pmi/coordinator-listener.js';
import { joinTree, type NodeLinks } from '../../../../plugins/lib/pmi/node-links.js';
import { NodePmiServer } from '../../../../plugins/lib/pmi/node-server.js';
import { serveConnection } from '../../../../plugins/lib/pmi/connection.js';
import { treePlace } from '../../../../plugins/lib/pmi/tree-shape.js';

/** Two connected ends, like a socketpair: what one writes the other reads; end() is EOF. */
export function duplexPair(): [Duplex, Duplex] {
  const ab = new PassThrough();
  const ba = new PassThrough();
  const ends: [Duplex, Duplex] = [Duplex.from({ readable: ba, writable: ab }), Duplex.from({ readable: ab, writable: ba })];
  // Destroying one end aborts the streams under both: a socket's peer just sees the end.
  for (const stream of [ab, ba, ...ends]) stream.on('error', () => {});
  return ends;
}

/** The task's end of a PMI connection. */
export class Client {
  private buffer = '';
  private waiting: (() => void) | undefined;
  ended = false;

  constructor(readonly socket: Duplex) {
    socket.on('data', (chunk: Buffer) => {
      this.buffer += chunk.toString('latin1');
      this.waiting?.();
    });
    const ended = (): void => {
      this.ended = true;
      this.waiting?.();
    };
    socket.on('end', ended);
    socket.on('close', ended);
  }

  send(data: string): void {
    this.socket.write(Buffer.from(data, 'latin1'));
  }

  /** The next answer line (without '\n'). */
  async line(): Promise<string> {
    const end = await this.until(() => this.buffer.indexOf('\n'));
    const line = this.buffer.slice(0, end);
    this.buffer = this.buffer.slice(end + 1);
    return line;
  }

  /** The next PMI-2 frame, length prefix included. */
  async frame(): Promise<string> {
    await this.until(() => (this.buffer.length >= 6 ? 0 : -1));
    const total = 6 + Number.parseInt(this.buffer.slice(0, 6).trim(), 10);
    await this.until(() => (this.buffer.length >= total ? 0 : -1));
    const frame = this.buffer.slice(0, total);
    this.buffer = this.buffer.slice(total);
    return frame;
  }

  /** Whatever arrived and was not read yet. */
  get unread(): string {
    return this.buffer;
  }

  private async until(found: () => number): Promise<number> {
    for (;;) {
      const at = found();
      if (at !== -1) return at;
      if (this.ended) throw new Error(`connection ended; unread: ${JSON.stringify(this.buffer)}`);
      await new Promise<void>((resolve) => {
        this.waiting = resolve;
      });
      this.waiting = undefined;
    }
  }
}

/** A PMI-2 request frame as Slurm's libpmi2 writes it ("%-6d"). */
export function frame(payload: string): string {
  return String(payload.length).padEnd(6) + payload;
}

export interface Abort {
  message: string;
  error: boolean;
}

let steps = 0;

/**
 * A step of `tids.length` simulated nodes (`tids[nodeid]` = ranks there, named n0, n1, ...),
 * one coordinator and one node server per node with tasks, in a tree of `width`;
 * `connect(rank)` gives that task's client end, `exit(rank)` says its process ended.
 */
export async function makeStep(tids: number[][], width = 50) {
  const key = `test.${(steps += 1)}`;
  const aborts: Abort[] = [];
  const tasksPerNode = tids.map((t) => t.length);
  const nodeNames = tids.map((_, nodeid) => `n${nodeid}`);
  const coordinator = new KvsCoordinator({
    pmiJobId: key,
    tasksPerNode,
    nodeNames,
    width,
    kvs: [['PMI_process_mapping', '(vector,(0,1,1))']],
    fail: (message) => aborts.push({ message: `coordinator: ${message}`, error: true }),
  });
  const listener = await listenForNodes(coordinator, 'secret', '127.0.0.1');
  const ntasks = tasksPerNode.reduce((a, b) => a + b, 0);
  const welcome = { kvs: coordinator.snapshot(), pmiJobId: key, universeSize: ntasks };
  const nodes: Array<NodeLinks<NodePmiServer> | undefined> = await Promise.all(
    tids.map(async (gtids, nodeid) => {
      if (gtids.length === 0) return undefined;
      const place = treePlace(tasksPerNode, nodeid, width);
      return joinTree({
        host: '127.0.0.1',
        port: listener.port,
        key: 'secret',
        nodeid,
        place,
        makeServer: (up) =>
          new NodePmiServer({ nodeid, gtids, ntasks, welcome, place, nodeNames, up, abortStep: (message, error) => aborts.push({ message, error }) }),
      });
    }),
  );
  // The tree is whole before any task starts: every node linked to its parent, and the
  // parents have read their children's hellos.
  await Promise.all(nodes.map((links) => links?.linkedUp));
  await settle();
  const servers = nodes.map((links) => links && { server: links.server });
  const where = (rank: number): [NodePmiServer, number] => {
    const nodeid = tids.findIndex((t) => t.includes(rank));
    return [nodes[nodeid]!.server, tids[nodeid]!.indexOf(rank)];
  };
  const connect = (rank: number): Client => {
    const [ours, theirs] = duplexPair();
    serveConnection(ours, ...where(rank));
    return new Client(theirs);
  };
  const exit = (rank: number): void => {
    const [server, ltaskid] = where(rank);
    server.taskExited(ltaskid);
  };
  const close = (): void => {
    for (const links of nodes) {
      links?.server.close();
      links?.close();
    }
    coordinator.close();
    listener.close();
  };
  return { key, coordinator, servers, nodes, aborts, connect, exit, close };
}

/** Lets queued microtasks and I/O callbacks run. */
export function settle(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 10));
}
