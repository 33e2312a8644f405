// A node's links in the PMI tree (the slurmstepd side of Slurm's mpi/pmi2 tree.c): it says
// hello to tsrun (address from the step's environment); a node whose parent is tsrun keeps that
// connection as its link up, the others get their parent's address from tsrun and connect to
// it; a node with children listens for them. The node's server exists from the start and its
// tasks start at once: nothing waits for tsrun's answer (a node knows its step from the
// launch, as slurmstepd forks its tasks before it hears from srun). Fences sent up before the
// parent link is open wait for it.
import { connect, createServer, type Server, type Socket } from 'node:net';
import { TreeLink } from './tree-link.js';
import type { ChildHello, CoordinatorReply, NodeHello, PmiDown, PmiUp } from './messages.js';
import type { TreePlace } from './tree-shape.js';

/** What a node's tree links deliver to (NodePmiServer for PMI, a PMIx node for mpi/pmix). */
export interface TreeMember {
  /** A fence completion from the parent. */
  receive(message: PmiDown): void;
  attachChild(nodeid: number, down: (message: PmiDown) => void): void;
  fromChild(nodeid: number, message: PmiUp): void;
  childLost(nodeid: number): void;
  parentLost(): void;
}

export interface JoinOptions<Member extends TreeMember> {
  /** Where tsrun listens. */
  host: string;
  port: number;
  /** The step's secret, from the environment. */
  key: string;
  nodeid: number;
  place: TreePlace;
  /** Makes the node's server; `up` sends to the parent (queued until the link up is open). */
  makeServer(up: (message: PmiUp) => void): Member;
}

export interface NodeLinks<Member extends TreeMember> {
  readonly server: Member;
  /** Settles once the link up is open (or could not be opened, which the server was told). */
  readonly linkedUp: Promise<void>;
  close(): void;
}

/** Joins the step's tree once tsrun's port answers; rejects if it cannot be reached. */
export async function joinTree<Member extends TreeMember>(options: JoinOptions<Member>): Promise<NodeLinks<Member>> {
  const { place, key, nodeid } = options;
  const socket = await connected(connect(options.port, options.host));
  const toTsrun = new TreeLink<CoordinatorReply | PmiDown, NodeHello | PmiUp>(socket);
  const links = new Set<TreeLink<unknown, unknown>>([toTsrun]);
  let listener: Server | undefined;
  const close = (): void => {
    listener?.close();
    for (const link of links) link.close();
  };

  // The link up: tsrun's connection, or the parent node's once tsrun said where it is.
  let up = place.parent === null ? (toTsrun as TreeLink<PmiDown, PmiUp>) : undefined;
  const queued: PmiUp[] = [];
  const server = options.makeServer((message) => {
    if (up) up.send(message);
    else queued.push(message);
  });
  const parentLost = (): void => server.parentLost();
  let linked = (): void => {};
  const linkedUp = new Promise<void>((resolve) => {
    linked = resolve;
  });
  if (up) linked();

  const acceptChild = (child: Socket): void => {
    const link = new TreeLink<ChildHello | PmiUp, PmiDown>(child, false);
    links.add(link);
    let childId: number | undefined;
    link.handle({
      message: (message) => {
        if (childId !== undefined) return server.fromChild(childId, message as PmiUp);
        const hello = message as ChildHello;
        if (hello.kind !== 'child' || hello.key !== key || !place.children.includes(hello.nodeid)) return link.close();
        link.trust();
        childId = hello.nodeid;
        server.attachChild(hello.nodeid, (down) => link.send(down));
      },
      lost: () => {
        if (childId !== undefined) server.childLost(childId);
      },
    });
  };
  if (place.children.length > 0) {
    // On the address tsrun was reached from: the one the other nodes can reach too.
    listener = await listening(createServer(acceptChild), socket.localAddress ?? '127.0.0.1').catch((error: unknown) => {
      close();
      throw error;
    });
  }

  const connectParent = (host: string, port: number): void => {
    toTsrun.close();
    const opened = connected(connect(port, host));
    opened.then(linked, linked);
    opened.then((parentSocket) => {
      const link = new TreeLink<PmiDown, PmiUp | ChildHello>(parentSocket);
      links.add(link);
      link.send({ kind: 'child', key, nodeid });
      up = link as TreeLink<PmiDown, PmiUp>;
      for (const message of queued.splice(0)) up.send(message);
      link.handle({ message: (message) => server.receive(message), lost: parentLost });
    }, parentLost);
  };
  toTsrun.handle({
    message: (message) => {
      if (message.kind === 'parent') connectParent(message.host, message.port);
      else server.receive(message);
    },
    // A tsrun that refused the hello, or went away: no fence can complete from now on.
    lost: () => {
      parentLost();
      linked();
    },
  });
  const port = listener ? (listener.address() as { port: number }).port : null;
  toTsrun.send({ kind: 'hello', key, nodeid, parent: place.parent, port });
  return { server, linkedUp, close };
}

function connected(socket: Socket): Promise<Socket> {
  return new Promise((resolve, reject) => {
    socket.once('connect', () => {
      socket.off('error', reject);
      resolve(socket);
    });
    socket.once('error', reject);
  });
}

function listening(server: Server, host: string): Promise<Server> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, host, () => {
      server.off('error', reject);
      server.on('error', () => {});
      resolve(server);
    });
  });
}
