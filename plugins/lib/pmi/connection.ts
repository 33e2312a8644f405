// One PMI connection of a task: its fd 3 (PMI_FD), or a TCP connection to the node's PMI_PORT
// listener, which says whose it is first (`cmd=initack pmiid=<rank>`, MPICH's simple PMI).
// Reads requests, answers them through the node's server, and watches how it ends. The first
// request after that is the `cmd=init` line; it picks PMI-1 (lines) or PMI-2 (length-prefixed
// frames) for the rest of the connection. A close after finalize is normal; a close after init
// without finalize means the task died (the others would wait in the next fence forever); a
// close without init says nothing: the task may still reach us through PMI_PORT, and its exit
// tells whether it ever used PMI. Requests are answered in order: while one waits (a fence),
// the ones after it wait too.
import type { Duplex } from 'node:stream';
import type { NodePmiServer } from './node-server.js';
import { formatPmi1, parsePmi1Line } from './pmi1-wire.js';
import { parsePmi2 } from './pmi2-wire.js';
import { MessageReader, PmiWireError } from './reader.js';
import { pmi1Commands } from './pmi1-commands.js';
import { pmi2Commands } from './pmi2-commands.js';
import type { PmiConnection } from './command-handler.js';

/**
 * Bytes a connection may have sent that are not yet answered: a PMI-2 frame is at most 999,999
 * bytes (six length digits) and a PMI-1 line far shorter, so 4 MiB is several of the largest.
 */
const PMI_PENDING_MAX = 4 * 1024 * 1024;

type ConnectionState = 'new' | 'pmi1' | 'pmi2' | 'finalized' | 'closed';

/**
 * Serves local task `task` on `socket` until the connection ends; `task` undefined: a PMI_PORT
 * connection, whose `cmd=initack` names the task.
 */
export function serveConnection(socket: Duplex, server: NodePmiServer, task: number | undefined): void {
  const reader = new MessageReader();
  let state: ConnectionState = 'new';
  let waiting = false;
  let ltaskid = task;
  const conn: PmiConnection = {
    server,
    get ltaskid() {
      return ltaskid!;
    },
    get rank() {
      return server.rank(ltaskid!);
    },
    send: (data) => {
      if (state !== 'closed' && !socket.destroyed) socket.write(data, 'latin1');
    },
    later: () => {
      waiting = true;
      return (data) => {
        conn.send(data);
        waiting = false;
        drain();
      };
    },
    finalize: (data) => {
      conn.send(data);
      state = 'finalized';
      server.taskFinalized(ltaskid!);
      socket.end();
    },
  };

  const handle = (message: string): void => {
    if (state === 'new') {
      const { cmd, args } = parsePmi1Line(message);
      if (ltaskid === undefined) {
        ltaskid = identify(cmd, args);
        return;
      }
      if (cmd !== 'init') throw new PmiWireError(`expected cmd=init, got "${message.slice(0, 80)}"`);
      const refused = server.taskConnected(ltaskid);
      if (refused) throw new PmiWireError(refused);
      const version = args.get('pmi_version');
      if (version === '2') {
        state = 'pmi2';
        reader.mode = 'frame';
        conn.send(formatPmi1('response_to_init', [['pmi_version', 2], ['pmi_subversion', 0], ['rc', 0]]));
      } else {
        state = 'pmi1';
        const rc = version === '1' ? 0 : -1;
        conn.send(formatPmi1('response_to_init', [['pmi_version', 1], ['pmi_subversion', 1], ['rc', rc]]));
      }
      return;
    }
    const { cmd, args } = state === 'pmi2' ? parsePmi2(message) : parsePmi1Line(message);
    const table = state === 'pmi2' ? pmi2Commands : pmi1Commands;
    const handler = Object.hasOwn(table, cmd) ? table[cmd] : undefined;
    if (!handler) throw new PmiWireError(`unsupported ${state === 'pmi2' ? 'PMI-2' : 'PMI-1'} request "cmd=${cmd}"`);
    handler(conn, args);
  };

  // MPICH's PMII_Set_from_port: `cmd=initack pmiid=<PMI_ID>`, answered by initack and the
  // task's size, rank and debug flag; then the session goes on as over PMI_FD.
  const identify = (cmd: string, args: Map<string, string>): number => {
    const rank = Number(args.get('pmiid'));
    const found = cmd === 'initack' && Number.isInteger(rank) ? server.localTask(rank) : undefined;
    if (found === undefined) throw new StrangerError();
    const lines = [formatPmi1('initack'), formatPmi1('set', [['size', server.ntasks]])];
    lines.push(formatPmi1('set', [['rank', rank]]), formatPmi1('set', [['debug', 0]]));
    conn.send(lines.join(''));
    return found;
  };

  const fail = (error: unknown): void => {
    state = 'closed';
    socket.destroy();
    // Anyone on the host may connect to PMI_PORT: one that names no task of this node is
    // only shut out. Any other error, thrown from a socket event, would end tsrun: it ends
    // the step instead.
    if (error instanceof StrangerError || ltaskid === undefined) return;
    const why = error instanceof PmiWireError ? error.message : `internal error: ${String(error)}`;
    server.taskFailed(ltaskid, why);
  };

  const drain = (): void => {
    try {
      while (!waiting && state !== 'closed' && !server.stopped) {
        const message = reader.next();
        if (message === undefined) return;
        if (state === 'finalized') throw new PmiWireError('request after finalize');
        handle(message);
      }
    } catch (error) {
      fail(error);
    }
  };

  socket.on('data', (chunk: Buffer) => {
    if (state === 'closed' || server.stopped) return;
    reader.push(chunk);
    // A client waits for each answer, so little is ever unread: a flood is not a PMI client.
    if (reader.pending > PMI_PENDING_MAX) return fail(new PmiWireError(`more than ${PMI_PENDING_MAX} bytes of requests not yet answered`));
    drain();
  });
  const closed = (): void => {
    const before = state;
    if (before === 'closed') return;
    state = 'closed';
    if (before !== 'new' && before !== 'finalized') server.taskLost(ltaskid!);
    socket.destroy();
  };
  socket.on('end', closed);
  socket.on('close', closed);
  socket.on('error', closed);
}

/** A PMI_PORT connection that does not start with the initack of a task of this node. */
class StrangerError extends Error {}
