// The PMI-1 requests a task may send after `cmd=init`, and their answers as Slurm 22.05's
// mpi/pmi2 gives them (src/plugins/mpi/pmi2/pmi1.c). Limits are hydra's and Slurm's: MPICH
// splits longer values into segments of vallen_max-2 characters.
import type { CommandHandler } from './command-handler.js';
import { formatPmi1 } from './pmi1-wire.js';

export const PMI1_MAXES = { kvsname_max: 256, keylen_max: 64, vallen_max: 1024 } as const;

export const pmi1Commands: Record<string, CommandHandler> = {
  get_maxes: (conn) => {
    conn.send(formatPmi1('maxes', [['rc', 0], ...Object.entries(PMI1_MAXES)]));
  },
  get_universe_size: (conn) => {
    conn.send(formatPmi1('universe_size', [['rc', 0], ['size', conn.server.universeSize]]));
  },
  // Slurm answers -1: the step is not one command of an MPMD launch it could number.
  get_appnum: (conn) => {
    conn.send(formatPmi1('appnum', [['rc', 0], ['appnum', -1]]));
  },
  get_my_kvsname: (conn) => {
    conn.send(formatPmi1('my_kvsname', [['rc', 0], ['kvsname', conn.server.pmiJobId]]));
  },
  // One KVS per step, as Slurm: the kvsname the task names is not checked.
  put: (conn, args) => {
    conn.server.put(args.get('key') ?? '', args.get('value') ?? '');
    conn.send(formatPmi1('put_result', [['rc', 0]]));
  },
  get: (conn, args) => {
    const value = conn.server.get(args.get('key') ?? '');
    conn.send(formatPmi1('get_result', value === undefined ? [['rc', 1]] : [['rc', 0], ['value', value]]));
  },
  barrier_in: (conn) => {
    const answer = conn.later();
    conn.server.fence(conn.ltaskid, () => answer(formatPmi1('barrier_out', [['rc', 0]])));
  },
  finalize: (conn) => {
    conn.finalize(formatPmi1('finalize_ack', [['rc', 0]]));
  },
  // No answer: the task waits to be killed with the rest of the step.
  abort: (conn, args) => {
    conn.server.taskAborted(conn.ltaskid, `exit code ${args.get('exitcode') ?? '?'}`);
  },
};
