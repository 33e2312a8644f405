// The in-process transport between node PMI servers and the step's coordinator, for embedded
// mode, where every node's step daemon runs inside tsrun: coordinators are found by
// `<jobid>.<stepid>`. Messages are delivered asynchronously (a microtask later), as a socket
// would, so neither side is re-entered from inside its own send. Daemon mode (a later issue)
// carries the same PmiUp/PmiDown messages over the step daemon's connection to tsrun instead.
import type { KvsCoordinator } from './coordinator.js';
import type { PmiDown, PmiUp, PmiWelcome } from './messages.js';

const coordinators = new Map<string, KvsCoordinator>();

/** Makes the coordinator reachable under `key`; returns the function that withdraws it. */
export function publishCoordinator(key: string, coordinator: KvsCoordinator): () => void {
  coordinators.set(key, coordinator);
  return () => {
    if (coordinators.get(key) === coordinator) coordinators.delete(key);
  };
}

export interface CoordinatorLink {
  welcome: PmiWelcome;
  send(message: PmiUp): void;
  close(): void;
}

/** Attaches node `nodeid` to the coordinator of step `key`; undefined if there is none. */
export function connectCoordinator(key: string, nodeid: number, receive: (message: PmiDown) => void): CoordinatorLink | undefined {
  const coordinator = coordinators.get(key);
  if (!coordinator) return undefined;
  let open = true;
  const welcome = coordinator.attach(nodeid, (message) => {
    queueMicrotask(() => {
      if (open) receive(message);
    });
  });
  return {
    welcome,
    send: (message) => {
      queueMicrotask(() => {
        if (open) coordinator.receive(message);
      });
    },
    close: () => {
      open = false;
      coordinator.detach(nodeid);
    },
  };
}
