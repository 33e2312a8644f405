// The PMI-2 requests (framed, after `cmd=init pmi_version=2`) and their answers as Slurm
// 22.05's mpi/pmi2 gives them (src/plugins/mpi/pmi2/pmi2.c, info.c), with ';' in values
// escaped as ";;" both ways.
import type { CommandHandler, PmiConnection } from './command-handler.js';
import { formatPmi2, pmi2Bool } from './pmi2-wire.js';

type Fields = Array<readonly [string, string | number]>;

const found = (value: string | undefined): Fields =>
  value === undefined ? [['found', 'FALSE']] : [['found', 'TRUE'], ['value', value]];

// Slurm's job attributes (info.c job_attr_get); PMI_process_mapping is the KVS's.
function jobAttr(conn: PmiConnection, key: string): string | undefined {
  if (key === 'PMI_process_mapping') return conn.server.get(key);
  if (key === 'universeSize') return String(conn.server.universeSize);
  return undefined;
}

export const pmi2Commands: Record<string, CommandHandler> = {
  // The rank is the connection's own task, whatever pmirank the request carries (as Slurm).
  fullinit: (conn) => {
    conn.send(
      formatPmi2('fullinit-response', [
        ['rc', 0],
        ['pmi-version', 2],
        ['pmi-subversion', 0],
        ['rank', conn.rank],
        ['size', conn.server.ntasks],
        ['appnum', -1],
        ['debugged', 'FALSE'],
        ['pmiverbose', 'FALSE'],
      ]),
    );
  },
  'job-getid': (conn) => {
    conn.send(formatPmi2('job-getid-response', [['rc', 0], ['jobid', conn.server.pmiJobId]]));
  },
  'info-getjobattr': (conn, args) => {
    conn.send(formatPmi2('info-getjobattr-response', [['rc', 0], ...found(jobAttr(conn, args.get('key') ?? ''))]));
  },
  'kvs-put': (conn, args) => {
    conn.server.put(args.get('key') ?? '', args.get('value') ?? '');
    conn.send(formatPmi2('kvs-put-response', [['rc', 0]]));
  },
  'kvs-fence': (conn) => {
    const answer = conn.later();
    conn.server.fence(conn.ltaskid, () => answer(formatPmi2('kvs-fence-response', [['rc', 0]])));
  },
  'kvs-get': (conn, args) => {
    conn.send(formatPmi2('kvs-get-response', [['rc', 0], ...found(conn.server.get(args.get('key') ?? ''))]));
  },
  'info-putnodeattr': (conn, args) => {
    conn.server.putNodeAttr(args.get('key') ?? '', args.get('value') ?? '');
    conn.send(formatPmi2('info-putnodeattr-response', [['rc', 0]]));
  },
  'info-getnodeattr': (conn, args) => {
    const answer = conn.later();
    conn.server.getNodeAttr(args.get('key') ?? '', pmi2Bool(args.get('wait')), (value) =>
      answer(formatPmi2('info-getnodeattr-response', [['rc', 0], ...found(value)])),
    );
  },
  finalize: (conn) => {
    conn.finalize(formatPmi2('finalize-response', [['rc', 0]]));
  },
  // Slurm kills the step only for isworldabort=TRUE; a task that aborts alone and then exits
  // fails the step anyway (its connection closes before finalize), so both end it here.
  abort: (conn, args) => {
    const msg = args.get('msg');
    conn.server.taskAborted(conn.ltaskid, msg ? `"${msg}"` : 'no message');
  },
};
